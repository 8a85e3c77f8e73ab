"""The technician's test mode in the controller, with the simulated devices behind their real
drivers: entered by a technician's card between rounds only, no round can start in it, a test
deal never reaches the round, and a whole session leaves the round and meter tables as they
were, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.controller.test_mode import IN_TEST_MODE
from dealer_console.devices.keypad import Button
from dealer_console.employees.events import STAFF_KINDS
from dealer_console.errors import Refusal
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from dealer_console.storage import eventlog, service_log
from drivers.sim.table.choices import SIM_STAFF
from tests.controller.conftest import Rig

CARDS = {role: track for _id, _name, role, track in SIM_STAFF}
UNTOUCHED_BY_TESTS = {"_sqlite_migrations", "events", "employee_log", "test_mode_sessions",
                      "device_setups"}


def dump_round_and_meter_tables(db: Database) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table a round or a meter writes (the round's events among them);
    the swipe log and test mode's own log are left out: they are meant to change."""
    names = [str(r[0]) for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    out = {name: [tuple(row) for row in db.execute(f"SELECT * FROM [{name}] ORDER BY 1")]
           for name in names if name not in UNTOUCHED_BY_TESTS}
    meant = [*STAFF_KINDS, *service_log.KINDS]  # the swipes and test mode's own log
    kinds = ", ".join("?" * len(meant))
    out["events"] = [tuple(row) for row in db.execute(
        f"SELECT * FROM events WHERE kind NOT IN ({kinds}) ORDER BY seq", meant)]
    return out


def enter(rig: Rig) -> None:
    entered: list[str] = []
    rig.controller.ask_test_mode(lambda e: entered.append(e.employee_id))
    rig.controller.swipe(CARDS["technician"])
    assert entered == ["SIM-T1"]


def test_a_technicians_card_enters_and_leaving_is_logged_with_who_and_how_long(
        rig: Rig) -> None:
    enter(rig)
    view = rig.controller.snapshot()
    assert view.test_mode and view.bench is not None
    assert "SIM-T1" in view.bench.technician
    seconds = rig.controller.leave_test_mode()
    assert not rig.controller.snapshot().test_mode
    row = rig.opened.db.execute("SELECT employee_id, left_at IS NOT NULL, seconds "
                                "FROM test_mode_sessions").fetchone()
    assert tuple(row) == ("SIM-T1", 1, seconds)


@pytest.mark.parametrize("role", ["supervisor", "executive", "dealer"])
def test_no_other_card_enters(rig: Rig, role: str) -> None:
    rig.controller.ask_test_mode(lambda e: None)
    with pytest.raises(Refusal, match="technician's card"):
        rig.controller.swipe(CARDS[role])
    assert not rig.controller.in_test_mode
    assert rig.controller.snapshot().card_wanted is not None  # still waiting for the right one


def test_refused_once_a_wager_is_placed(rig: Rig) -> None:
    rig.controller.do(c.PlaceWager(2, "base", 2500))
    with pytest.raises(Refusal, match="between rounds: wagers are placed"):
        rig.controller.ask_test_mode(lambda e: None)
    assert rig.controller.snapshot().card_wanted is None


def test_no_round_starts_in_test_mode(rig: Rig) -> None:
    enter(rig)
    assert rig.controller.start_game_problem() == IN_TEST_MODE
    with pytest.raises(Refusal, match=IN_TEST_MODE):
        rig.controller.start_game()
    with pytest.raises(Refusal, match=IN_TEST_MODE):
        rig.controller.do(c.PlaceWager(2, "base", 2500))
    assert rig.hardware.keypad is not None
    rig.hardware.keypad.tap(Button.START_GAME)  # the keypad's START GAME is only echoed
    bench = rig.controller.snapshot().bench
    rig.until(lambda: "START_GAME" in (rig.controller.snapshot().bench or bench).buttons,
              "the button's echo")
    assert rig.controller.state.phase is Phase.BETTING


def test_a_session_leaves_the_round_and_meter_tables_byte_for_byte(rig: Rig) -> None:
    ctl, hw = rig.controller, rig.hardware
    before = dump_round_and_meter_tables(rig.opened.db)
    phase_before = ctl.state
    enter(rig)
    ctl.run_test("shuffler", "test deal")
    rig.until(lambda: ctl.snapshot().bench is not None and ctl.snapshot().bench.result(
        "shuffler", "test deal").passed is not None, "the test deal")
    bench = ctl.snapshot().bench
    assert bench is not None
    assert bench.result("shuffler", "test deal").passed is True
    assert len(bench.hands) == 7
    ctl.run_test("shuffler", "deck count")
    rig.until(lambda: ctl.snapshot().bench.result(  # type: ignore[union-attr]
        "shuffler", "deck count").passed is not None, "the deck count")
    assert hw.bus is not None and hw.keypad is not None
    hw.bus.place(2, 1)
    rig.until(lambda: "chip on now" in ctl.snapshot().bench.result(  # type: ignore[union-attr]
        "bet-sensors", "seat 2 spot 1 chip").detail, "the chip")
    hw.bus.take(2, 1)
    for button in Button:
        hw.keypad.tap(button)
    rig.until(lambda: ctl.snapshot().bench.result(  # type: ignore[union-attr]
        "keypad", "every button").passed is True, "every button")
    ctl.leave_test_mode()
    assert ctl.state == phase_before
    assert dump_round_and_meter_tables(rig.opened.db) == before


def test_after_a_test_deal_the_next_round_is_dealt_and_played_as_usual(rig: Rig) -> None:
    from tests.controller.test_controller import bet, finish_round, start_by_keypad

    ctl = rig.controller
    enter(rig)
    ctl.run_test("shuffler", "test deal")
    rig.until(lambda: ctl.snapshot().bench.result(  # type: ignore[union-attr]
        "shuffler", "test deal").passed is True, "the test deal")
    ctl.leave_test_mode()
    bet(rig)
    start_by_keypad(rig)  # the keypad's START GAME reaches the round again
    finish_round(rig)
    assert len(ctl.state.hands) == 7 and ctl.state.wagers[(2, "jackpot")] == 100


def test_a_second_test_deal_is_dealt_too(rig: Rig) -> None:
    """An outside review: every test deal between two rounds had the same id, so the
    shuffler answered the second with a status only and its hands never came."""
    ctl = rig.controller
    enter(rig)
    ids = []
    for _ in range(3):
        ctl.run_test("shuffler", "test deal")
        assert ctl.bench.bench is not None
        ids.append(ctl.bench.bench.deal_id)
        rig.until(lambda: ctl.snapshot().bench.result(  # type: ignore[union-attr]
            "shuffler", "test deal").passed is True, "the test deal")
        assert len(ctl.snapshot().bench.hands) == 7  # type: ignore[union-attr]
    assert len(set(ids)) == 3
    ctl.leave_test_mode()


def test_the_bench_asks_for_the_spots_and_keys_the_table_has() -> None:
    """Issue 23: a one-game table's bench asked for 22 buttons of a 20-button keypad and a
    chip on a second spot nothing uses; a two-game table's asks for both."""
    from dealer_console.controller.test_mode import Bench
    from dealer_console.employees.registry import Employee, Role

    tech = Employee("T1", "Tom Tech", Role.TECHNICIAN, True)
    one = Bench(tech, 1, 0.0, (1, 2), (1,), frozenset(b for b in Button if b.game is None))
    two = Bench(tech, 1, 0.0, (1, 2), (1, 2), frozenset(Button))
    assert [r.name for r in one._results() if "chip" in r.name] == [
        "seat 1 spot 1 chip", "seat 2 spot 1 chip"]
    assert len([r for r in two._results() if "chip" in r.name]) == 4
    assert "0 of 20 pressed" in next(r.detail for r in one._results() if r.name == "every button")
    assert "0 of 22 pressed" in next(r.detail for r in two._results() if r.name == "every button")


def test_sessions_logged_by_an_older_console_are_backfilled_into_the_chain(
        tmp_path: Path) -> None:
    """A table upgraded from a console that kept test-mode sessions outside the chain: the
    migration writes them to the log (marked backfilled) and the audit agrees with the table."""
    from sqlite_utils import Database as Db

    from dealer_console.audit.verify import audit
    from dealer_console.table_db import open_table_db

    db = open_table_db(tmp_path / "t.db")
    service_log.MIGRATIONS.apply(Db(db.conn))  # the sets as a new console makes them
    db.execute("DELETE FROM _sqlite_migrations WHERE migration_set = "
               "'dealer_console_test_mode' AND name = '0003_sessions_in_the_event_log'")
    db.execute("INSERT INTO test_mode_sessions (session, employee_id, entered_at, left_at, "
               "seconds) VALUES (1, 'T1', '2026-01-01T10:00:00+00:00', "
               "'2026-01-01T10:05:00+00:00', 300)")
    assert not audit(db).ok  # a session the log does not know
    service_log.MIGRATIONS.apply(Db(db.conn))
    assert audit(db).ok, audit(db).problems
    backfilled = [e for e in eventlog.events(db) if e.kind in service_log.KINDS]
    assert [e.payload.get("backfilled") for e in backfilled] == [True, True]
    db.close()
