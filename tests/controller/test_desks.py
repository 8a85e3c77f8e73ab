"""The controller's desks: the inbox holds an early fact back without an exception, the view
is built at most once per turn of the loop and never detects a jackpot mark itself (the
handling step does, once the cards are known)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.cards import parse_cards
from dealer_console.controller import TableController
from dealer_console.controller.inbox import Inbox
from dealer_console.controller.link_device import LINK_DEVICE, LinkHealthChanged
from dealer_console.controller.view import TableSnapshot
from dealer_console.errors import Refusal
from dealer_console.jackpot.service import JackpotRound
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from drivers.sim.table.world import shuffled_deck
from tests.controller.conftest import Rig, start_rig
from tests.controller.test_controller import bet, start_by_keypad


def test_the_inbox_holds_an_early_fact_and_puts_it_back_after_the_next_turn() -> None:
    woken: list[int] = []
    inbox = Inbox(lambda: woken.append(1))
    first = LinkHealthChanged(device=LINK_DEVICE, seq=1)
    second = LinkHealthChanged(device=LINK_DEVICE, seq=2)
    inbox.put(first)
    inbox.put(second)
    assert len(woken) == 2
    assert inbox.next(0) is first
    inbox.hold(first)
    assert inbox.next(0) is second
    assert inbox.next(0) is None  # held, not lost, not yet back
    inbox.release_held()
    assert len(woken) == 3  # the owner is woken to try it again
    assert inbox.next(0) is first
    inbox.hold(second)
    inbox.drop_held()  # a new deal: the old deal's facts are void
    inbox.release_held()
    assert inbox.next(0) is None


def test_events_queued_before_the_owner_s_wake_are_woken_for_when_it_is_set() -> None:
    """The drivers start before the console's bridge: a device's first event (connected) came
    before the wake was set and was never pumped until the device spoke again."""
    inbox = Inbox()
    early = LinkHealthChanged(device=LINK_DEVICE, seq=1)
    inbox.put(early)
    woken: list[int] = []
    inbox.wake = lambda: woken.append(1)
    assert woken == [1]
    assert inbox.next(0) is early
    inbox.wake = lambda: woken.append(2)  # nothing waiting: not woken for nothing
    assert woken == [1]


def test_one_view_per_turn_of_the_loop(rig: Rig) -> None:
    ctl = rig.controller
    views: list[TableSnapshot] = []
    ctl.add_listener(views.append)
    ctl.do(c.PlaceWager(3, "base", 1000))
    assert len(views) == 1 and views[0] is ctl.snapshot()
    bet(rig)
    start_by_keypad(rig)
    while ctl.state.phase is not Phase.BANKER_SET:  # seven hands and their facts
        before = len(views)
        ctl.pump(timeout=0.05)
        assert len(views) - before <= 1, "one turn of the loop drew more than one view"
    assert views[-1] is ctl.snapshot()
    with pytest.raises(Refusal):
        ctl.do(c.SettleNext())  # refused: nothing changed, nothing drawn
    assert views[-1] is ctl.snapshot()


def test_marks_are_detected_by_the_handling_step_not_by_the_view(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    building: list[bool] = [False]
    detected_while_building: list[int] = []
    shown = JackpotRound.show_hands

    def counting(self: JackpotRound, hands: dict[int, object]) -> object:
        if building[0] and hands:
            detected_while_building.append(len(hands))
        return shown(self, hands)  # type: ignore[arg-type]

    build = TableController._build_view

    def watched(self: TableController) -> TableSnapshot:
        building[0] = True
        try:
            return build(self)
        finally:
            building[0] = False

    monkeypatch.setattr(JackpotRound, "show_hands", counting)
    monkeypatch.setattr(TableController, "_build_view", watched)
    rig = start_rig(tmp_path / "j.db")
    try:
        ctl = rig.controller
        views: list[TableSnapshot] = []
        ctl.add_listener(views.append)
        assert rig.hardware.shuffler is not None
        stacked = list(parse_cards("As Ad Ah Ac JK"))  # five aces: a jackpot hand at seat 1
        deck = stacked + [x for x in shuffled_deck(5, 1) if x not in stacked]
        rig.hardware.shuffler.script(deck_order=tuple(deck), random_number=2)
        for seat in range(1, 7):
            ctl.do(c.PlaceWager(seat, "base", 1000))
            assert rig.hardware.bus is not None
            rig.hardware.bus.place(seat, 1)
        start_by_keypad(rig)
        rig.until(lambda: ctl.state.phase is Phase.BANKER_SET, "the deal")
        assert len(views[-1].jackpot_pending) == 1  # drawn from the marks the step made
        assert detected_while_building == []
    finally:
        rig.close()


def test_the_snapshot_answers_the_buttons_of_the_phase_as_check_does(rig: Rig) -> None:
    ctl = rig.controller
    view = ctl.snapshot()
    assert view.why_not(c.StartGame()) == ctl.check(c.StartGame()) is not None
    assert view.start_game_problem == ctl.start_game_problem()
    assert view.void_problem is None  # a supervisor may void before START GAME
    assert view.deck_count_problem == ctl.check(c.DeckCounted(53, "Ann Lee")) is not None
    assert view.has_jackpot and view.why_not(c.SettleNext()) is not None
    bet(rig)
    view = ctl.snapshot()
    assert view.why_not(c.StartGame()) is None
    assert view.why_not(c.RemoveWager(1, "base")) is None
    assert view.why_not(c.RemoveWager(4, "base")) is not None  # no such wager offered
    start_by_keypad(rig)
    rig.until(lambda: ctl.state.phase is Phase.BANKER_SET, "the deal")
    view = ctl.snapshot()
    assert view.why_not(c.SetBankerHand()) is None
    assert view.void_problem == ctl.check(c.VoidRound("-", "Ann Lee")) is not None
    ctl.do(c.SetBankerHand())
    view = ctl.snapshot()
    todo = view.round.players_to_set()
    assert todo and all(view.why_not(c.SetPlayerHand(s)) == ctl.check(c.SetPlayerHand(s))
                        for s in todo)
    assert ctl.about.title == rig.opened.profile.title
    assert ctl.about.db_file is not None and ctl.about.db_path == rig.opened.db_path
