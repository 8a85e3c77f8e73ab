"""The meter display (one game with its last win, two games with a hit waiting) and the
supervisor's meter chart rendered at both sizes into ``docs/screenshots`` for the README; each
must fit the size it is drawn at (``render`` refuses a squeezed part)."""

from __future__ import annotations

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from ui import theme
from ui.meter_display.gallery import METER_PAGES
from ui.screenshots import DEFAULT_DIR, SIZES, render_gallery


def test_the_meter_screens_fit_both_sizes_and_are_written(themed: QApplication) -> None:
    written = render_gallery(DEFAULT_DIR, METER_PAGES)
    assert len(written) == len(METER_PAGES) * len(SIZES)
    for path in written:
        image = QImage(str(path))
        width, height = (int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
        assert (image.width(), image.height()) == (width, height)
        colours = {image.pixelColor(x, y).name()
                   for x in range(0, width, 9) for y in range(0, height, 9)}
        assert theme.BACKGROUND in colours and len(colours) > 20, path.name
        if path.name.startswith("meter-display"):
            assert theme.WARNING_AMBER in colours  # the meters drawn in their amber
