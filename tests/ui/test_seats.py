"""The table as on the felt: the seat in focus is the one drawn with the bright border, and
each seat's small cards show whole on the smaller screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from tests.ui.test_dealer_fit import _lay_out as lay_out
from ui import theme
from ui.dealer.window import DealerWindow
from ui.gallery.dealer import players_foul
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


def test_at_1280x800_each_seat_shows_its_cards_whole(qtbot: QtBot) -> None:
    """The strip is short there (128 px): a seat with a badge and a wager, or with two wagers
    and the focus's border, still shows both lines of its small cards, and the house's place
    has no "no wager" line taking their room (the dealer's picture of a foul hand, the hands
    not set yet). A set hand's five high cards still need a third line at this width: those
    seats' cards scroll (docs/dealer-console.md)."""
    window = players_foul()  # seat 1 ACTION and a wager, seat 3 two wagers in focus
    try:
        assert isinstance(window, DealerWindow)
        lay_out(window, QSize(1280, 800))
        panels = window.table.panels
        assert not panels[0].wagers.isVisible()
        with_cards = [seat for seat, panel in panels.items() if panel.cards.isVisible()]
        assert with_cards == [1, 3, 5, 0] and panels[1].badges.isVisible()
        for seat in with_cards:
            cards = panels[seat].cards
            shown = cards.visibleRegion().boundingRect().size()
            needed = cards.heightForWidth(cards.width())
            assert shown == cards.size() and needed <= cards.height(), \
                f"seat {seat}: {shown.height()} of {cards.height()} px shown, {needed} needed"
    finally:
        window.close()
