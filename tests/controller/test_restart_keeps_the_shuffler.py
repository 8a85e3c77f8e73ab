"""A console restart while the shuffler runs on (and remembers its deals), as on a table: the
same shuffler double before and after, where ``test_controller``'s restart makes a new one.

An outside review: the shuffler delivers a deal's hands while the dealer still enters the
dice; the driver takes them and the controller holds them for the dice, in memory. The
console restarts and asks for the deal again; the shuffler, remembering it, answers with a
status only. The round waited for those hands for good, and the dealer was not told why. Now
the dealer is told a misdeal is needed, and the redeal is dealt."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import drivers.sim.hardware as sim_hardware
from dealer_console.audit.verify import audit
from dealer_console.controller import TableController, open_table
from dealer_console.controller.device_desk import (
    ASKS_AGAIN,
    REFUSED_DEAL,
    REFUSED_DEAL_IN_ACTION,
    SHORT_DEAL,
    SHORT_DEAL_IN_ACTION,
)
from dealer_console.controller.facts import deal_id_for
from dealer_console.profiles.loader import get_profile
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from dealer_link.wiring import start_links
from drivers.shuffler import framer
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.shuffler import ShufflerDouble
from drivers.sim.table.dealer import install_sim_staff
from tests.controller.conftest import Rig, floor

PROFILE = "california-face-up"


def start_table(db: Path, keep: Callable[[], ShufflerDouble] | None = None) -> Rig:
    """California with the shuffler dealing and the dice giving the action; ``keep``: the
    shuffler double of before (the console restarted, the shuffler did not)."""
    opened = open_table(db, get_profile(PROFILE), actor="test", links=start_links,
                        deal="shuffler", action="dice")
    install_sim_staff(opened.db)  # the floor's card a misdeal the dealer declares is made on
    with pytest.MonkeyPatch.context() as patch:
        if keep is not None:
            patch.setattr(sim_hardware, "ShufflerDouble", lambda *a, **k: keep())
        hardware = SimulatedHardware(seed=5, link="in-process", devices=("shuffler",)).start()
    controller = TableController(opened, hardware.table_devices)
    controller.start()
    rig = Rig(opened, hardware, controller)
    rig.until(lambda: all(d.connected for d in controller.snapshot().devices), "connection")
    return rig


def start_round(rig: Rig) -> None:
    ctl = rig.controller
    banker = ctl.state.offer_seat
    if ctl.state.phase is Phase.BANKER:
        ctl.do(c.AcceptBank(banker, 100000))
    for seat in [s for s in (1, 2, 3) if s != banker][:2]:
        ctl.do(c.PlaceWager(seat, "base", 2000))
    ctl.start_game()
    assert ctl.state.phase is Phase.ACTION


def misdeal_and_redeal(rig: Rig, why: str) -> None:
    """The misdeal on the floor's card, the redeal, its action by dice once its hands are
    held, until the banker's hand is to set."""
    ctl = rig.controller
    ctl.supervise(c.DeclareMisdeal("position_missed", why), floor(ctl))
    ctl.do(c.Redeal())
    deadline = time.monotonic() + 15
    while ctl.state.phase is Phase.ACTION and time.monotonic() < deadline:
        ctl.pump(timeout=0.05)
        if len(ctl.inbox.held) >= 8:
            ctl.do(c.SetActionNumber(4))
    rig.until(lambda: ctl.state.phase is Phase.BANKER_SET, "the redeal's hands")


def held_then_power_cut(tmp_path: Path) -> tuple[Path, ShufflerDouble]:
    """A round dealt and its hands held for the dice when the console's power goes, the
    shuffler running on: the database and the shuffler's double (for the next console)."""
    db = tmp_path / "t.db"
    first = start_table(db)
    double = first.hardware.shuffler
    assert double is not None
    start_round(first)
    first.until(lambda: len(first.controller.inbox.held) >= 8, "the deal held for the dice")
    first.close()  # the console's power goes; the shuffler runs on
    return db, double


def test_hands_held_for_the_dice_lost_in_a_restart_call_for_a_misdeal(tmp_path: Path) -> None:
    db, double = held_then_power_cut(tmp_path)
    second = start_table(db, keep=lambda: double)
    try:
        ctl = second.controller
        second.until(lambda: ctl.waiting_for == SHORT_DEAL_IN_ACTION, "the dealer told")
        assert ctl.snapshot().notice is not None
        assert "not all of it reached the console" in ctl.snapshot().notice.what
        ctl.do(c.SetActionNumber(3))
        assert ctl.waiting_for == SHORT_DEAL
        misdeal_and_redeal(second, "the hands were lost in a restart")
        assert len(double.dealt) == 2
        assert audit(second.opened.db).ok
    finally:
        second.close()


def put_back(db: Path, backup: Path) -> None:
    """The table's database put back from a copy taken earlier (the files of the newer one
    set aside, as ``table-db restore`` does)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    backup.rename(db)


def restored_behind_the_shuffler(tmp_path: Path) -> tuple[Path, ShufflerDouble, list[int]]:
    """A table put back from a backup taken before round 1 was dealt, after the shuffler had
    dealt round 1 and round 2: round 1's deal number is one the machine dealt. The database,
    the shuffler's double (for the next console to keep) and the deal ids it dealt."""
    db, backup = tmp_path / "t.db", tmp_path / "backup.db"
    first = start_table(db)
    double = first.hardware.shuffler
    assert double is not None
    source, copy = sqlite3.connect(db), sqlite3.connect(backup)
    source.backup(copy)  # before round 1 is dealt
    source.close()
    copy.close()
    start_round(first)
    first.until(lambda: len(first.controller.inbox.held) >= 8, "round 1 dealt and held")
    shuffler = first.controller.devices.shuffler
    assert shuffler is not None
    shuffler.start_deal(7, deal_id_for(2, 0))  # the table went on: the next round's deal
    first.until(lambda: len(double.dealt) == 2, "round 2 dealt")
    dealt = list(double.dealt)
    first.close()
    put_back(db, backup)
    return db, double, dealt


def test_a_deal_number_the_shuffler_dealt_before_a_restore_is_told_and_a_misdeal_moves_on(
        tmp_path: Path) -> None:
    """An outside review: the database put back from a backup two rounds old, the round's
    deal had the number of one the shuffler had dealt since; the machine answered each request
    with a status, the console asked again some 2,200 times a second for good, and the dealer
    was told only that it waited for the hands."""
    db, double, dealt = restored_behind_the_shuffler(tmp_path)
    asked: list[int] = []
    second = start_table(db, keep=lambda: double)
    try:
        ctl = second.controller
        real = double._command

        def counting(message: object, now: float) -> None:
            if isinstance(message, framer.StartDeal):
                asked.append(message.deal_id)
            real(message, now)
        double._command = counting  # type: ignore[method-assign]
        start_round(second)
        second.until(lambda: ctl.waiting_for == REFUSED_DEAL_IN_ACTION, "the dealer told")
        assert ctl.state.round_id == 1 and asked and set(asked) == {dealt[0]}
        notice = ctl.snapshot().notice
        assert notice is not None and f"will not take deal {dealt[0]}" in notice.what
        time.sleep(0.5)
        second.until(lambda: True, "the events after")
        assert len(asked) == ASKS_AGAIN + 1  # asked, then again three times: no more
        ctl.do(c.SetActionNumber(3))
        assert ctl.waiting_for == REFUSED_DEAL
        misdeal_and_redeal(second, "the shuffler refused the deal's number")
        assert asked[-1] not in dealt and ctl.waiting_for is None
        assert audit(second.opened.db).ok
    finally:
        second.close()
