"""Every supervisor screen rendered offscreen at both sizes into ``docs/screenshots`` (the
README shows them): each a real console opened by a test card, and each must fit the size it
is drawn at (``render`` refuses a squeezed part)."""

from __future__ import annotations

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from ui import theme
from ui.screenshots import DEFAULT_DIR, SIZES, render_gallery
from ui.supervisor.gallery import SUPERVISOR_PAGES


def test_every_supervisor_screen_fits_both_sizes_and_is_written(themed: QApplication) -> None:
    written = render_gallery(DEFAULT_DIR, SUPERVISOR_PAGES)
    assert len(written) == len(SUPERVISOR_PAGES) * len(SIZES)
    for path in written:
        image = QImage(str(path))
        width, height = (int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
        assert (image.width(), image.height()) == (width, height)
        colours = {image.pixelColor(x, y).name()
                   for x in range(0, width, 9) for y in range(0, height, 9)}
        # a drawn screen (the win page is dark print on white paper)
        assert theme.TEXT in colours or "#000000" in colours, path.name
        assert len(colours) > 8, path.name
