"""Every dealer screen rendered offscreen at both sizes into ``docs/screenshots`` (so the
pictures in the README stay current): each is a real console played by touch to its state,
and each must fit the size it is drawn at (``render`` refuses a squeezed part)."""

from __future__ import annotations

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from ui import theme
from ui.gallery.dealer import DEALER_PAGES
from ui.screenshots import DEFAULT_DIR, SIZES, render_gallery


def test_every_dealer_screen_fits_both_sizes_and_is_written(themed: QApplication) -> None:
    written = render_gallery(DEFAULT_DIR, DEALER_PAGES)
    assert len(written) == len(DEALER_PAGES) * len(SIZES)
    for path in written:
        image = QImage(str(path))
        width, height = (int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
        assert (image.width(), image.height()) == (width, height)
        colours = {image.pixelColor(x, y).name()
                   for x in range(0, width, 9) for y in range(0, height, 9)}
        assert theme.BACKGROUND in colours and theme.TEXT in colours  # a drawn screen
        assert len(colours) > 20, path.name
