"""The dealer's taps for an ordinary round (issue 22), counted on the real screens: rounds
played by touch through the dealer's window, the table controller, the real drivers and the
simulated devices, every hand the House Way, no event. Last round's wagers again: at most
10 taps on every profile; all-new wagers (a new amount at every seat): at most 25. Touches
on the world window (the players' chips, the devices) are not the dealer's and not
counted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from dealer_console.round.state import Phase
from ui.dealer.betting import BankPage
from ui.dealer.settle_page import SettlementPage
from ui.gallery.player import ScreenPlayer

PROFILES = ["washington-face-up", "california-face-up", "oxford-downs-face-up",
            "catfish-bend-fortune"]
UNCHANGED_AIM = 10
NEW_AIM = 25
"""All-new wagers, every profile: six amounts (two digits each, OK after all but the last,
which goes in with START GAME), the bank where a player banks (two digits and OK), and the
round's steps; at a table without a jackpot the settlement's touch also ends the round."""


@pytest.fixture
def player(qtbot: QtBot, tmp_path: Path, request: pytest.FixtureRequest
           ) -> Iterator[ScreenPlayer]:
    p = ScreenPlayer.start(request.param, tmp_path / "t.db")
    yield p
    p.close()


def _bank(p: ScreenPlayer, new: bool) -> None:
    """The bank where the table offers it: a new amount typed, or the seat's own amount again
    in one touch; at Catfish Bend the player declines and the house banks."""
    if p.phase is not Phase.BANKER:
        return
    page = p.window.pages[Phase.BANKER]
    assert isinstance(page, BankPage)
    if p.ctl.rules.banking.value == "house_or_player_banker":
        p.tap(page.decline)
    elif new:
        p.type_amount(page.keypad, 50)
        p.tap(page.keypad.keys["ok"])
    else:
        assert page.again.isVisible(), "no own amount offered for the bank"
        p.tap(page.again)
    p.wait(lambda: p.phase is Phase.BETTING, "the bank")


def play_ordinary_round(p: ScreenPlayer, new: bool, round_no: int) -> int:
    """One round by touch; the dealer's taps it took."""
    start = p.taps
    _bank(p, new)
    if new:
        page = p.betting
        step = p.ctl.rules.limit("base")
        assert step is not None
        seats = [s for s in p.ctl.rules.player_seats
                 if not (p.ctl.state.banker_kind == "player" and s == p.ctl.state.banker_seat)]
        for n, seat in enumerate(seats):
            # the page starts on the first open seat and moves on after each base wager
            assert page.seat_in_focus(p.ctl.snapshot(), None) == seat
            dollars = step.minimum // 100 * (2 + n) + step.increment // 100 * round_no
            p.type_amount(page.keypad, dollars)
            if n < len(seats) - 1:
                p.tap(page.keypad.keys["ok"])
        # the last amount typed goes in with START GAME: the button says both
        assert p.window.phase_bar.primary.text() == f"${dollars}.00 and START GAME"
        assert len(p.ctl.state.wagers) == len(seats) - 1
    else:
        before = dict(p.ctl.state.wagers)
        assert not before
        p.tap(p.betting.same_table)
        assert p.ctl.state.wagers, "nothing placed again"
    p.start_game()
    assert len(p.ctl.state.wagers) == len(seats) if new else p.ctl.state.wagers
    if p.phase is Phase.ACTION:
        if p.ctl.rules.action_method.value == "dice":
            p.action(number=9)
        elif p.window.phase_bar.primary.isVisible():
            p.next_step()  # the action button moves by itself: the bar names its seat
        elif p.ctl.rules.action_method.value == "high_card":
            first = next(s for s in p.ctl.rules.player_seats
                         if s != p.ctl.state.banker_seat)
            p.action(seat=first)
    p.until_hands_set()
    while p.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET):
        p.next_step()
    assert p.phase is Phase.SETTLEMENT
    page = p.window.pages[Phase.SETTLEMENT]
    assert isinstance(page, SettlementPage)

    def shown() -> str:
        return " ".join(w.text() for w in page.findChildren(type(page.heading))
                        if w.isVisible())

    names = [f"Seat {s}" if s else "Dealer" for s in p.ctl.state.opening["plan_seats"]]
    # the whole table's settlement is on the page before it is confirmed
    p.wait(lambda: all(name in shown() for name in names), "every seat's lines")
    round_id = p.ctl.state.round_id
    p.next_step()
    p.wait(lambda: p.phase is Phase.END or p.ctl.state.round_id != round_id, "the settlement")
    if p.ctl.rules.profile.jackpot is not None:
        p.end_game()  # the jackpot keypad's own step
    else:  # without a jackpot the settlement's touch ended the round
        assert p.ctl.state.round_id != round_id
    return p.taps - start


@pytest.mark.parametrize("player", PROFILES, indirect=True)
def test_an_ordinary_round_in_few_taps(player: ScreenPlayer) -> None:
    p = player
    counts = [play_ordinary_round(p, new=True, round_no=0)]
    counts += [play_ordinary_round(p, new=False, round_no=n) for n in (1, 2)]
    counts.append(play_ordinary_round(p, new=True, round_no=3))
    print(f"{p.ctl.rules.name}: taps {counts}")
    aim = NEW_AIM
    assert counts[0] <= aim and counts[3] <= aim, counts
    assert max(counts[1:3]) <= UNCHANGED_AIM, counts


@pytest.mark.parametrize("player", ["washington-face-up"], indirect=True)
def test_typing_over_a_wager_changes_it_in_four_taps(player: ScreenPlayer) -> None:
    """An outside review: raising one base wager that had a Fortune cost ten taps (take back
    the Fortune, the base, type, touch the seat again, Fortune, type, OK). Typed over, the
    base changes and the Fortune stays: the seat, two digits, OK."""
    p = player
    page = p.betting
    p.type_amount(page.keypad, 25)
    p.tap(page.keypad.keys["ok"])
    p.seat(1)
    p.tap(page.kind_buttons["fortune"])
    p.type_amount(page.keypad, 5)
    p.tap(page.keypad.keys["ok"])
    p.seat(2)
    p.type_amount(page.keypad, 25)
    p.tap(page.keypad.keys["ok"])  # the page moves on to seat 3
    assert p.ctl.state.wagers == {(1, "base"): 2500, (1, "fortune"): 500, (2, "base"): 2500}
    start = p.taps
    p.seat(1)  # its wagers, starting on the base
    p.type_amount(page.keypad, 50)
    p.tap(page.keypad.keys["ok"])
    assert p.taps - start == 4
    assert p.ctl.state.wagers == {(1, "base"): 5000, (1, "fortune"): 500, (2, "base"): 2500}


@pytest.mark.parametrize("player", ["washington-face-up", "catfish-bend-fortune"],
                         indirect=True)
def test_new_wagers_with_a_fortune_at_every_seat(player: ScreenPlayer) -> None:
    """An outside review counted 43 taps for five new players with a Fortune each: after the
    base the page moved on, so each Fortune meant touching its seat again. "OK +
    Fortune" keeps the seat for its Fortune and moves on after it (two digits, the key, a
    digit, OK: five taps), and a player betting as the seat before takes one touch."""
    p = player
    _bank(p, new=True)
    page = p.betting
    seats = [s for s in p.ctl.rules.player_seats
             if not (p.ctl.state.banker_kind == "player" and s == p.ctl.state.banker_seat)]
    assert len(seats) >= 4, seats
    then = page.keypad.keys["then"]
    assert then.text() == "OK +\nFortune" and not page.keypad.keys["cancel"].isVisible()
    typed = {seats[0]: (25, 5), seats[2]: (50, 10)}  # five taps, then six
    counts = []
    for seat in seats:
        assert page.seat_in_focus(p.ctl.snapshot(), None) == seat
        start = p.taps
        if seat in typed:
            base, fortune = typed[seat]
            p.type_amount(page.keypad, base)
            p.tap(then)
            # the seat is kept, its Fortune chosen: Cancel is back where the key was
            assert page.seat_in_focus(p.ctl.snapshot(), None) == seat
            assert page.kind_buttons["fortune"].isChecked() and not then.isVisible()
            p.type_amount(page.keypad, fortune)
            p.tap(page.keypad.keys["ok"])
        else:
            before = max(s for s in typed if s < seat)
            base, fortune = typed[before]
            assert page.same_before.text() == (
                f"Same as Seat {before}: Base ${base}.00, Fortune ${fortune}.00")
            p.tap(page.same_before)
            typed[seat] = typed[before]
        counts.append(p.taps - start)
        wagers = p.ctl.state.wagers
        assert (wagers[(seat, "base")], wagers[(seat, "fortune")]) == (base * 100,
                                                                       fortune * 100)
    typed_taps = {s: len(f"{b}{f}") + 2 for s, (b, f) in typed.items() if s in (seats[0],
                                                                                   seats[2])}
    assert counts == [typed_taps.get(s, 1) for s in seats], counts
    assert not page.same_before.isVisible()  # every seat has its wagers: nothing to copy to
    p.start_game()
    assert sorted(p.ctl.state.wagers) == sorted(
        (s, k) for s in seats for k in ("base", "fortune"))
    p.wait(lambda: p.phase is not Phase.BETTING, "the round past its wagers")


@pytest.mark.parametrize("player", ["washington-face-up"], indirect=True)
def test_same_as_the_seat_before_follows_the_seat_in_focus(player: ScreenPlayer) -> None:
    """The "same as" button is the round's offer for the seat in focus: none at the seat
    copied from, and from the nearest seat before with wagers at a later one."""
    p = player
    page = p.betting
    p.type_amount(page.keypad, 25)
    p.tap(page.keypad.keys["then"])
    p.type_amount(page.keypad, 5)
    p.tap(page.keypad.keys["ok"])
    assert page.same_before.isVisible() and page.same_before.isEnabled()
    p.tap(page.kind_buttons["ace_high"])  # "OK + Fortune" is a base wager's key only
    assert not page.keypad.keys["then"].isVisible() and page.keypad.keys["cancel"].isVisible()
    p.tap(page.kind_buttons["base"])
    assert page.keypad.keys["then"].isVisible()
    p.seat(1)  # back at the seat copied from: nothing before it to copy
    assert not page.same_before.isVisible()
    p.seat(3)  # seat 2 has nothing, so seat 3 copies seat 1
    assert page.same_before.text().startswith("Same as Seat 1:")
    p.type_amount(page.keypad, 40)  # begun, then the dealer sees the player bets as seat 1
    p.tap(page.same_before)
    assert p.ctl.state.wagers[(3, "base")] == 2500
    assert page.seat_in_focus(p.ctl.snapshot(), None) == 4
    assert page.keypad.amount() is None  # seat 3's typing is not carried to seat 4
