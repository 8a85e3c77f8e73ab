"""The bet sensors' lock is one report: the wagers of the chips it holds and START GAME are
saved in one transaction, or nothing of it is (``Table.handle_facts``). Saved one by one, a
power cut between them left chips as wagers of a round not started; after the restart the
player could take the chip back before START GAME was pressed again, and the wager stayed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dealer_console.devices.keypad import Button
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from tests.controller.conftest import Rig, start_rig
from tests.controller.test_controller import bet, finish_round


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
