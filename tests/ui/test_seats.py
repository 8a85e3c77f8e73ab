"""The table as on the felt: the seat in focus is the one drawn with the bright border, and
each seat's small cards show whole on the smaller screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from dealer_console.round.state import Phase
from tests.ui.test_dealer_fit import _lay_out as lay_out
from ui import theme
from ui.dealer.pages import HandPage
from ui.dealer.window import DealerWindow
from ui.gallery.dealer import jackpot_two_hits, players_foul, to_settlement
from ui.gallery.player import ScreenPlayer
from ui.widgets.touch import TouchButton


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
    not set yet). A set hand's five high cards need a third line at this width: while the
    hands are set and in settlement the strip has that room (the tests below)."""
    window = players_foul()  # seat 1 ACTION and a wager, seat 3 two wagers in focus
    try:
        assert isinstance(window, DealerWindow)
        lay_out(window, QSize(1280, 800))
        panels = window.table.panels
        assert not panels[0].wagers.isVisible()
        with_cards = [seat for seat, panel in panels.items() if panel.cards.isVisible()]
        assert with_cards == [1, 3, 5, 0] and panels[1].badges.isVisible()
        for seat in with_cards:
            _assert_whole(seat, panels[seat].cards)
    finally:
        window.close()


def _three_wagers_at_seat_3(p: ScreenPlayer) -> None:
    """Seat 1 a base wager (it takes ACTION on the seeded deal), seat 3 three wager lines."""
    p.bet(1, "Base", 25)
    p.bet(3, "Base", 50)
    p.bet(3, "Fortune", 5)
    p.chip(3)  # and its jackpot wager


def _assert_whole(seat: int, label: QLabel) -> None:
    """The label's text shows whole: its whole width and, from its top (where the cards are
    drawn), at least the height its text needs."""
    shown = label.visibleRegion().boundingRect()
    needed = label.heightForWidth(label.width())
    assert shown.top() == 0 and shown.width() == label.width() and shown.height() >= needed, \
        f"seat {seat}: {shown.height()} of {label.height()} px shown, {needed} needed"


def test_at_1280x800_settlement_shows_every_set_hand_and_result_whole(
        themed: QApplication, tmp_path: Path) -> None:
    """Set hands take three lines in a 1280x800 seat (the high hand's five cards, two), so
    in settlement the short strip is taller (``TALLER_TABLE``): every seat's set hand shows
    whole, the house's and the seat with two wagers included, and so does each seat's result
    as it is settled, seat by seat."""
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    try:
        assert p.hardware.shuffler is not None
        p.hardware.shuffler.script(seed=21)  # the dealer's settlement picture's deal
        to_settlement(p)
        panels = p.window.table.panels
        settled = 0
        while p.phase is Phase.SETTLEMENT:
            lay_out(p.window, QSize(1280, 800))
            for seat, panel in panels.items():
                assert panel.cards.isVisible(), seat
                _assert_whole(seat, panel.cards)
                if panel.result.isVisible():
                    _assert_whole(seat, panel.result)
            assert sum(panel.result.isVisible() for panel in panels.values()) == settled
            p.tap(p.window.pages[Phase.SETTLEMENT].one)  # type: ignore[attr-defined]
            settled += 1
        assert settled == 6
    finally:
        p.close()


def test_at_1280x800_the_end_of_a_jackpot_round_shows_every_hand_and_result_whole(
        qtbot: QtBot) -> None:
    """At the end of the round the strip is taller still than in settlement: a jackpot seat
    with two badges and two wagers shows its set hand and both its result lines whole, and
    an empty seat its "no wager"."""
    window = jackpot_two_hits()  # seat 1 ACTION and JACKPOT HAND, Base and Jackpot wagers
    try:
        assert isinstance(window, DealerWindow)
        lay_out(window, QSize(1280, 800))
        panels = window.table.panels
        assert panels[1].badges.text().count("JACKPOT") == 1 and "ACTION" in panels[1].badges.text()
        with_cards = [seat for seat, panel in panels.items() if panel.cards.isVisible()]
        assert with_cards == [1, 2, 3, 0]
        for seat in with_cards:
            _assert_whole(seat, panels[seat].cards)
        for seat, panel in panels.items():
            for part in (panel.result, panel.wagers):
                if part.isVisible():
                    _assert_whole(seat, part)
        assert panels[1].result.text().count("\n") == 1  # two result lines
    finally:
        window.close()


def test_at_1280x800_a_paid_jackpot_s_award_shows_whole_and_the_jackpot_page_stays_touchable(
        themed: QApplication, tmp_path: Path) -> None:
    """Once a seat's jackpot hand is paid its result has a third line, the award (two lines at
    this width, as "Jackpot: take $1.00" is): the strip at the end of the round has room for
    it under two badges, two wagers and the set hand, and the jackpot page below keeps every
    button a finger's size."""
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    try:
        assert p.hardware.shuffler is not None
        p.hardware.shuffler.script(seed=21)
        p.deal_jackpot_hands(["As Ks Qs Js Ts 2d 3c"])  # seat 1's royal flush
        p.tap(p.button("CONFIRM, then swipe the card"))
        p.swipe("supervisor")  # a supervisor's card pays it
        lay_out(p.window, QSize(1280, 800))
        seat = p.window.table.panels[1]
        assert seat.badges.text() == "ACTION  JACKPOT PAID"
        assert seat.result.text().count("\n") == 2 and "pay $" in seat.result.text()
        for part in (seat.badges, seat.wagers, seat.cards, seat.result):
            _assert_whole(1, part)
        page = p.window.pages[Phase.END]
        buttons = [b for b in page.findChildren(TouchButton) if b.isVisible()]
        assert buttons and min(b.height() for b in buttons) >= theme.TOUCH_MIN, \
            sorted((b.height(), b.text()) for b in buttons)[:3]
        for button in buttons:  # and all in view: the page does not scroll them away
            shown = button.visibleRegion().boundingRect()
            assert shown.size() == button.size(), f"{button.text()}: {shown} shown"
    finally:
        p.close()


def test_at_1280x800_the_hands_are_set_with_every_seat_whole_and_the_page_s_buttons_in_view(
        themed: QApplication, tmp_path: Path) -> None:
    """While the banker's hand and then the players' are set the short strip is taller too
    (``TALLER_TABLE``): a seat with three wagers, or with ACTION over its wager, shows its
    cards whole, before and after its hand is set, and the hand page's cards shrink to leave
    its buttons in view (the page does not scroll them away)."""
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    try:
        assert p.hardware.shuffler is not None
        p.hardware.shuffler.script(seed=21)
        _three_wagers_at_seat_3(p)
        p.bet(5, "Base", 10)
        p.start_game()
        p.until_hands_set()
        panels = p.window.table.panels
        steps = 0
        while p.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET):
            page = p.window.pages[p.phase]
            assert isinstance(page, HandPage)
            lay_out(p.window, QSize(1280, 800))
            assert panels[3].wagers.text().count("\n") == 2  # three wagers
            for seat, panel in panels.items():
                if panel.cards.isVisible():
                    _assert_whole(seat, panel.cards)
            buttons = [b for b in (page.house_way, page.own, page.clear) if b.isVisible()]
            assert buttons or p.phase is Phase.BANKER_SET  # the house's hand: the bar sets it
            for button in buttons:
                shown = button.visibleRegion().boundingRect()
                assert shown.size() == button.size(), f"{button.text()}: {shown} shown"
            if buttons:
                p.tap(page.house_way)  # the hand in focus set the House Way
            else:
                p.next_step()
            steps += 1
        assert steps == 4 and p.phase is Phase.SETTLEMENT  # the banker's, seats 1, 3 and 5
    finally:
        p.close()


def test_at_1280x800_during_the_deal_a_seat_under_three_wagers_shows_its_cards_whole(
        themed: QApplication, tmp_path: Path) -> None:
    """The deal's page has the room (its buttons take a third of it), so the strip is taller
    while the hands arrive (``TALLER_TABLE``): seat 3's hand shows whole under its three
    wagers, and seat 1's under ACTION and its wager."""
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    try:
        assert p.hardware.shuffler is not None
        p.hardware.shuffler.script(seed=21, hand_interval=0.5)  # the deal takes 3-4 s
        _three_wagers_at_seat_3(p)
        p.start_game()
        p.wait(lambda: 3 in p.ctl.state.hands and 1 in p.ctl.state.hands, "seat 3's hand")
        assert p.phase is Phase.DEALING
        lay_out(p.window, QSize(1280, 800))
        panels = p.window.table.panels
        assert "ACTION" in panels[1].badges.text() and panels[3].wagers.text().count("\n") == 2
        for seat in (1, 3):
            _assert_whole(seat, panels[seat].cards)
    finally:
        p.close()
