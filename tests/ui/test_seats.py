"""The table as on the felt: the seat in focus is the one drawn with the bright border."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from ui import theme
from ui.gallery.player import ScreenPlayer


def test_the_border_follows_the_seat_in_focus(qtbot: QtBot, tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    try:
        panels = p.window.table.panels

        def bright() -> list[int]:
            return [seat for seat, panel in panels.items()
                    if theme.SELECTED in panel.styleSheet()]

        p.seat(2)
        assert bright() == [2]
        p.seat(3)
        assert bright() == [3]
        p.seat(2)
        assert bright() == [2]
    finally:
        p.close()
