"""The table as on the felt: the seat in focus is the one drawn with the bright border."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from ui import theme
from ui.gallery.player import ScreenPlayer


def test_the_border_follows_the_seat_in_focus(qtbot: QtBot, tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    try:
        panels = p.window.table.panels

        def bright() -> list[int]:
            """The seats drawn with the focus's border (a pixel of its left edge, as the
            dealer sees it)."""
            def edge(panel: QWidget) -> str:
                image = panel.grab().toImage()
                return str(image.pixelColor(2, image.height() // 2).name())

            return [seat for seat, panel in panels.items() if edge(panel) == theme.SELECTED]

        p.seat(2)
        assert bright() == [2]
        p.seat(3)
        assert bright() == [3]
        p.seat(2)
        assert bright() == [2]
    finally:
        p.close()
