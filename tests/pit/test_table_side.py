"""A real table reports to the pit: its controller's views become reports on the reporter's
thread, sent with the table's own login; the shift's figures are the shift report's; a
table whose self-test failed says it is closed."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from dealer_console.reports.shift import shift_report
from dealer_console.round import commands as c
from dealer_console.table_db import open_for_reading
from dealer_console.table_name import TABLE_ID_VARIABLE
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.server import ReportRow
from dealer_link.pit.table_side import ShiftFigures, report_closed, shift_start, start_reporting
from dealer_link.settings import DSN_VARIABLE
from tests.controller.conftest import start_rig
from tests.link.helpers import table_dsn
from tests.pit.helpers import init_pit, pit_dsn, report
from tests.round.helpers import play_round


def _until(pit: link_server.Connection, ok: Callable[[ReportRow], bool],
           table: str = "t1") -> ReportRow:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        rows = {r.report.table_id: r for r in server.read_reports(pit)}
        if table in rows and ok(rows[table]):
            return rows[table]
        time.sleep(0.05)
    raise AssertionError(f"the pit never saw the change: {rows.get(table)}")


def test_a_table_s_changes_reach_the_pit(tmp_path: Path, link_dsn: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    init_pit(link_dsn).close()
    monkeypatch.setenv(DSN_VARIABLE, table_dsn(link_dsn, "t1"))
    monkeypatch.setenv(TABLE_ID_VARIABLE, "t1")
    rig = start_rig(tmp_path / "table.db")
    reporter = start_reporting(rig.controller, rig.opened)
    assert reporter is not None
    try:
        with link_server.connect(pit_dsn(link_dsn)) as pit:
            first = _until(pit, lambda r: r.report.phase == "betting")
            assert first.report.table_open and first.report.link_state == "none"
            assert {d.title for d in first.report.devices} >= {"Shuffler"}
            assert all(d.ok for d in first.report.devices)
            round_id = first.report.round_id
            assert round_id is not None
            play_round(rig.opened.table)  # a whole round, then a wager of the next
            rig.controller.do(c.PlaceWager(2, "base", 2500))
            seen = _until(pit, lambda r: r.report.round_id == round_id + 1
                          and "seats 2 in play" in r.report.round_text)
            now = datetime.now().astimezone()
            with open_for_reading(rig.opened.db_path) as db:
                shift = shift_report(db, shift_start(now).isoformat(),
                                     (now + timedelta(seconds=1)).isoformat())
            assert shift.drop_cents > 0
            assert (seen.report.drop_cents, seen.report.hold_cents) == (shift.drop_cents,
                                                                        shift.hold_cents)
            assert any("round" in e for e in seen.report.events)
        # the reporter counts a send once the server has it: the pit can read the second
        # report a moment before the count moves (a loaded CI run read 1)
        deadline = time.monotonic() + 5
        while reporter.reporter.sent < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert reporter.reporter.sent >= 2 and reporter.reporter.problem == ""
        assert reporter.feed is None  # the table keeps its own staff list
    finally:
        reporter.stop()
        rig.close()


def test_the_heartbeat_goes_on_while_nothing_changes(link_dsn: str) -> None:
    init_pit(link_dsn).close()
    from dealer_link.pit.reporter import PitReporter

    reporter = PitReporter(table_dsn(link_dsn, "t1"), "t1", heartbeat_s=0.2)
    reporter.offer(report())
    reporter.start()
    try:
        deadline = time.monotonic() + 20
        while reporter.sent < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert reporter.sent >= 4  # one report, then heartbeats
    finally:
        reporter.stop()


def test_a_table_closed_by_its_self_test_says_so(tmp_path: Path, link_dsn: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    init_pit(link_dsn).close()
    monkeypatch.setenv(DSN_VARIABLE, table_dsn(link_dsn, "t1"))
    monkeypatch.setenv(TABLE_ID_VARIABLE, "t1")
    reporter = report_closed(tmp_path / "missing.db", ["shuffler: no answer on /dev/ttyS0"])
    assert reporter is not None
    try:
        with link_server.connect(pit_dsn(link_dsn)) as pit:
            row = _until(pit, lambda r: not r.report.table_open)
        assert "shuffler: no answer" in row.report.self_test
    finally:
        reporter.stop()
    monkeypatch.delenv(DSN_VARIABLE)
    assert report_closed(tmp_path / "missing.db", ["x"]) is None  # no login: no reporter


def test_the_figures_are_read_again_only_when_the_round_moves(tmp_path: Path) -> None:
    rig = start_rig(tmp_path / "table.db")
    try:
        play_round(rig.opened.table)
        figures = ShiftFigures(rig.opened.db_path)
        first = figures.fill(report(round_id=1, drop_cents=0, hold_cents=0))
        assert first.drop_cents > 0
        play_round(rig.opened.table)
        assert figures.fill(report(round_id=1, drop_cents=0)).drop_cents == first.drop_cents
        assert figures.fill(report(round_id=2, drop_cents=0)).drop_cents > first.drop_cents
        figures.close()
    finally:
        rig.close()
