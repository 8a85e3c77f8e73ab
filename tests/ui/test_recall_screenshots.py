"""Recall and the shift report rendered offscreen at both sizes into ``docs/screenshots`` (the
README shows them): each a real console played by touch, and each must fit its size."""

from __future__ import annotations

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from ui import theme
from ui.screenshots import DEFAULT_DIR, SIZES, render_gallery
from ui.supervisor.recall_gallery import RECALL_PAGES


def test_recall_and_report_screens_fit_both_sizes_and_are_written(themed: QApplication) -> None:
    written = render_gallery(DEFAULT_DIR, RECALL_PAGES)
    assert len(written) == len(RECALL_PAGES) * len(SIZES)
    for path in written:
        image = QImage(str(path))
        width, height = (int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
        assert (image.width(), image.height()) == (width, height)
        colours = {image.pixelColor(x, y).name()
                   for x in range(0, width, 9) for y in range(0, height, 9)}
        assert theme.BACKGROUND in colours and theme.TEXT in colours
        if "recall" in path.name:  # the amber banner no one can miss
            assert theme.WARNING_AMBER in colours, path.name
