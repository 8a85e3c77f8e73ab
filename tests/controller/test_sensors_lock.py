"""The bet sensors' lock is one report: the wagers of the chips it holds and START GAME are
saved in one transaction, or nothing of it is (``Table.handle_facts``). Saved one by one, a
power cut between them left chips as wagers of a round not started; after the restart the
player could take the chip back before START GAME was pressed again, and the wager stayed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from dealer_console.audit.verify import audit
from dealer_console.controller.facts import stale_jackpot_wagers
from dealer_console.devices.bet_sensors import BetsLocked, Spot
from dealer_console.devices.keypad import Button
from dealer_console.round import commands as c
from dealer_console.round.evolve import clone
from dealer_console.round.state import Phase
from dealer_console.storage.eventlog import Event
from dealer_console.storage.failures import WriteFailed
from tests.controller.conftest import Rig, start_rig
from tests.controller.test_controller import bet, finish_round, notice_text


class PowerCut(BaseException):
    """The process stops here: nothing after it runs and nothing uncommitted is kept."""


def settle(rig: Rig, seconds: float) -> None:
    """Device events applied for ``seconds`` (the sensors report what they hold)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rig.controller.pump(timeout=0.05)


def jackpot_wagers(rig: Rig) -> list[tuple[int, str, int]]:
    return [(int(s), str(k), int(a)) for s, k, a in rig.opened.db.execute(
        "SELECT seat, kind, amount_cents FROM wagers WHERE kind LIKE 'jackpot%'"
        " ORDER BY seat")]


def test_a_power_cut_at_start_game_leaves_no_chip_a_wager(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "table.db"
    rig = start_rig(db)
    try:
        assert rig.hardware.bus is not None and rig.hardware.keypad is not None
        bet(rig)  # seat 2's chip on its sensor
        rig.hardware.bus.place(1, 1)  # and seat 1's
        settle(rig, 0.3)

        def cut(*_args: object, **_kwargs: object) -> None:
            raise PowerCut  # START GAME's own work: the jackpot's wagers taken in

        monkeypatch.setattr(rig.controller.table.jackpot, "start_game", cut)
        rig.hardware.keypad.tap(Button.START_GAME)
        with pytest.raises(PowerCut):
            rig.until(lambda: False, "the sensors' lock", timeout=10)
    finally:
        monkeypatch.undo()
        rig.close()

    again = start_rig(db)
    try:
        ctl = again.controller
        assert ctl.state.phase is Phase.BETTING
        assert jackpot_wagers(again) == []  # neither chip became a wager
        assert not any(k.startswith("jackpot") for (_s, k) in ctl.state.wagers)
        # the player at seat 1 took the chip back before START GAME was pressed again
        assert again.hardware.bus is not None and again.hardware.keypad is not None
        again.hardware.bus.place(2, 1)
        settle(again, 0.3)
        again.hardware.keypad.tap(Button.START_GAME)
        again.until(lambda: ctl.state.phase is not Phase.BETTING, "START GAME")
        assert jackpot_wagers(again) == [(2, "jackpot", 100)]
        finish_round(again)
    finally:
        again.close()


def test_a_jackpot_wager_held_before_the_lock_whose_chip_is_gone_is_taken_back(
        rig: Rig) -> None:
    """The console before the lock was one transaction could leave a round still betting
    with chips' wagers (a power cut after them, or a START GAME the jackpot refused); a table
    updated then resumes that round. At a table with bet sensors the chips on the sensors at
    START GAME are the round's jackpot wagers: a wager whose chip is gone is taken back in the
    lock's own transaction, and one whose chip is there is kept, not placed twice."""
    ctl = rig.controller
    assert rig.hardware.bus is not None and rig.hardware.keypad is not None
    bet(rig)  # seat 2's chip on its sensor
    # what the console before left: seats 1 and 2's jackpot wagers saved, the round betting
    ctl.table.handle(c.PlaceWager(1, "jackpot", 100))
    ctl.table.handle(c.PlaceWager(2, "jackpot", 100))
    assert jackpot_wagers(rig) == [(1, "jackpot", 100), (2, "jackpot", 100)]
    settle(rig, 0.3)  # seat 1's player took the chip back: only seat 2's is on its sensor
    rig.hardware.keypad.tap(Button.START_GAME)
    rig.until(lambda: ctl.state.phase is not Phase.BETTING, "START GAME")
    assert jackpot_wagers(rig) == [(2, "jackpot", 100)]
    assert (1, "jackpot") not in ctl.state.wagers
    finish_round(rig)


def test_a_stale_wager_is_taken_back_once_when_the_disk_refused_the_lock_first(
        rig: Rig) -> None:
    """The lock's transaction refused by the disk, then taken: the wager of before is taken
    back once, and the round it was taken from passes the audit."""
    ctl = rig.controller
    assert rig.hardware.bus is not None and rig.hardware.keypad is not None
    bet(rig)
    ctl.table.handle(c.PlaceWager(1, "jackpot", 100))  # left by the console before
    settle(rig, 0.3)
    real = ctl.table.handle_facts
    calls: list[int] = []

    def disk_refuses_once(*args: Any, **kwargs: Any) -> list[Event]:
        calls.append(1)
        if len(calls) == 1:
            raise WriteFailed("the disk is full", "the disk is full")
        return real(*args, **kwargs)

    ctl.table.handle_facts = disk_refuses_once  # type: ignore[method-assign]
    rig.hardware.keypad.tap(Button.START_GAME)
    rig.until(lambda: ctl.state.phase is not Phase.BETTING, "START GAME", timeout=10)
    assert len(calls) >= 2
    assert jackpot_wagers(rig) == [(2, "jackpot", 100)]
    finish_round(rig)
    ctl.end_game()
    report = audit(rig.opened.db, profiles=[rig.opened.profile])
    assert report.ok, report.problems
    assert rig.opened.db.execute("SELECT COUNT(*) FROM events WHERE kind = 'wager_removed'"
                                 ).fetchone()[0] == 1


def test_a_second_games_chip_keeps_its_own_wager_only(rig: Rig) -> None:
    state = clone(rig.controller.state)
    state.wagers = {(2, "base"): 1, (2, "jackpot"): 1, (2, "jackpot_2"): 1, (3, "jackpot"): 1,
                    (3, "jackpot_2"): 1, (0, "house_wager"): 1}
    lock = BetsLocked(device="bet-sensors", seq=1, lock_id=3,
                      wagered=frozenset({Spot(seat=2, spot=2), Spot(seat=3, spot=1)}))
    gone = [cmd for cmd, _key in stale_jackpot_wagers(lock, state)]
    assert gone == [c.RemoveWager(2, "jackpot"), c.RemoveWager(3, "jackpot_2")]


def test_a_chip_on_a_node_off_the_bus_at_start_game_is_no_wager_and_no_late_bet(
        rig: Rig) -> None:
    """An outside review: seat 5's node was off the bus at START GAME with a chip on it; when
    the node came back, the dealer read that the chip was put there after START GAME, which
    blames the player for a late bet. The words now say both ways it could have come."""
    bus = rig.hardware.bus
    assert bus is not None
    ctl = rig.controller
    bus.set_online(5, False)
    bet(rig)
    ctl.do(c.PlaceWager(5, "base", 1000))
    bus.place(5, 1)
    ctl.start_game()
    rig.until(lambda: ctl.state.phase is not Phase.BETTING, "START GAME")
    taken = dict(ctl.state.wagers)
    bus.set_online(5, True)
    rig.until(lambda: "seat 5's jackpot sensor was not taken at START GAME (put there after "
              "it, or its sensor was off then)" in notice_text(rig), "the chip told")
    assert ctl.state.wagers == taken and all(seat != 5 or kind == "base"
                                             for seat, kind in taken)
