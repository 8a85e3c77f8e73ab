"""The technician's screens rendered offscreen at both sizes into ``docs/screenshots`` (each a
real console in test mode, tested there by touch); each must fit the size it is drawn at."""

from __future__ import annotations

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from ui import theme
from ui.screenshots import DEFAULT_DIR, SIZES, render_gallery
from ui.technician.gallery import TECHNICIAN_PAGES


def test_every_technician_screen_fits_both_sizes_and_is_written(themed: QApplication) -> None:
    written = render_gallery(DEFAULT_DIR, TECHNICIAN_PAGES)
    assert len(written) == len(TECHNICIAN_PAGES) * len(SIZES)
    for path in written:
        image = QImage(str(path))
        width, height = (int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
        assert (image.width(), image.height()) == (width, height)
        colours = {image.pixelColor(x, y).name()
                   for x in range(0, width, 9) for y in range(0, height, 9)}
        assert theme.BACKGROUND in colours and theme.FAULT_RED in colours  # the banner drawn
