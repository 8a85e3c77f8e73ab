"""The server as the witness of each table's records (``dealer_link/pit/sql_witness.py``):
it keeps the furthest point of a table's event log it saw follow on from the one before,
raises a records alert when the log goes back or forks, keeps it until an executive's card
clears it with a reason, and no table, pit or owner rewrites the trace. On a real server with
real logins; the end-to-end test swaps a real table's file for an older copy of itself."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import time
from pathlib import Path

import psycopg
import pytest

from dealer_console.round import commands as c
from dealer_console.storage.eventlog import last_event
from dealer_console.table_db import open_for_reading
from dealer_console.table_name import TABLE_ID_VARIABLE
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.alerts import alerts_of
from dealer_link.pit.server import Rewind
from dealer_link.pit.table_side import start_reporting
from dealer_link.settings import DSN_VARIABLE, LinkRefused
from tests.controller.conftest import start_rig
from tests.link.helpers import table_dsn
from tests.pit.helpers import (
    EXEC_CARD,
    SUPER_CARD,
    as_table,
    init_pit,
    pit_dsn,
    report,
)
from tests.round.helpers import play_round


def h(n: int, branch: str = "") -> str:
    """An event's hash at ``n`` on one chain (``branch`` names another)."""
    return hashlib.sha256(f"{branch}{n}".encode()).hexdigest()


def rewind_of(pit: link_server.Connection, table: str = "t1") -> Rewind | None:
    rows = {r.report.table_id: r for r in server.read_reports(pit)}
    return rows[table].rewind


def test_the_witness_moves_on_only_along_the_chain_and_a_step_back_is_kept_until_cleared(
        link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1, link_server.connect(pit_dsn(link_dsn)) as pit:
        server.send_report(t1, report())
        assert server.witness(t1, 5, h(5), None, None) == 5  # the first point: the start
        assert server.witness(t1, 9, h(9), None, None) == 5  # not yet said what is at 5
        assert server.witness(t1, 9, h(9), 5, h(5)) == 9  # follows on: the mark moves
        assert server.witness(t1, 9, h(9), 9, h(9)) == 9  # a quiet table: nothing new
        assert rewind_of(pit) is None
        # the file is swapped for an older copy: its log ends at 7
        assert server.witness(t1, 7, h(7), 9, None) == 9
        found = rewind_of(pit)
        assert found is not None
        assert (found.kind, found.witnessed_seq, found.reported_seq) == ("back", 9, 7)
        [row] = [r for r in server.read_reports(pit) if r.report.table_id == "t1"]
        [alert] = alerts_of(row)
        assert alert.kind == "rewind" and "went back (event 9 → 7)" in alert.words
        assert "call an executive" in alert.words and "had reported event 9" in found.detail()
        # the copy plays on past the mark: the alert stays, the mark stays the evidence
        assert server.witness(t1, 14, h(14, "copy"), 9, h(9, "copy")) == 9
        assert server.witness(t1, 15, h(15, "copy"), None, None) == 9
        assert rewind_of(pit) == found
        # acknowledged on a supervisor's card: seen, and it stays seen while the alert is open
        assert server.acknowledge(pit, "t1", "rewind", SUPER_CARD) == "Sam Super"
        server.send_report(t1, report(round_id=8))
        [row] = [r for r in server.read_reports(pit) if r.report.table_id == "t1"]
        assert set(row.acks) == {"rewind"} and row.rewind == found
        # only an executive's card clears it, and only with a reason
        with pytest.raises(LinkRefused, match="is a supervisor: a records alert is cleared "
                                              "on an executive's card"):
            server.clear_rewind(pit, found.entry, SUPER_CARD, "restored from a backup")
        with pytest.raises(LinkRefused, match="needs a reason"):
            server.clear_rewind(pit, found.entry, EXEC_CARD, "   ")
        [(refusal, who)] = link_server.call(  # past the screen's check: only blanks
            pit, "SELECT * FROM pit_rewind_clear(%s, %s, E'\\t\\n\\t')",
            [found.entry, link_server.track_of(EXEC_CARD)])
        assert "needs a reason" in str(refusal) and who is None
        assert rewind_of(pit) == found
        assert server.clear_rewind(pit, found.entry, EXEC_CARD, "Restore after a disk "
                                   "failure, ticket 4411") == "Ella Exec"
        [row] = [r for r in server.read_reports(pit) if r.report.table_id == "t1"]
        assert row.rewind is None and row.acks == {}
        with pytest.raises(LinkRefused, match="is not open"):
            server.clear_rewind(pit, found.entry, EXEC_CARD, "again")
        # the next report starts the witness again, from where the table's records are now
        assert server.witness(t1, 15, h(15, "copy"), 9, h(9, "copy")) == 15
        assert server.witness(t1, 16, h(16, "copy"), 15, h(15, "copy")) == 16
    with link_server.connect(link_dsn) as admin:  # the trace, for the auditor
        [(kind, witnessed, reported, cleared_by, reason)] = admin.execute(
            "SELECT r.kind, r.witnessed_seq, r.reported_seq, c.employee_id, c.reason "
            "FROM pit_rewinds r JOIN pit_rewind_clears c ON c.rewind = r.entry").fetchall()
        assert (kind, witnessed, reported, cleared_by) == ("back", 9, 7, "X1")
        assert reason == "Restore after a disk failure, ticket 4411"
        refused = admin.execute("SELECT action, refusal FROM pit_card_attempts "
                                "WHERE action LIKE 'clear records alert%'").fetchall()
        assert [r for _, r in refused if "is a supervisor" in str(r)]


@pytest.mark.parametrize("step", ["same number, other hash", "other hash at the mark",
                                  "nothing at the mark"])
def test_a_log_that_holds_something_else_at_the_mark_is_a_fork(link_dsn: str,
                                                                step: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1, link_server.connect(pit_dsn(link_dsn)) as pit:
        server.send_report(t1, report())
        assert server.witness(t1, 9, h(9), None, None) == 9
        if step == "same number, other hash":
            server.witness(t1, 9, h(9, "copy"), 9, h(9, "copy"))
        elif step == "other hash at the mark":
            server.witness(t1, 20, h(20, "copy"), 9, h(9, "copy"))
        else:
            server.witness(t1, 20, h(20), 9, None)
        found = rewind_of(pit)
        assert found is not None and found.kind == "fork" and found.witnessed_seq == 9
        assert "differ from those it reported" in found.detail()


def test_no_login_rewrites_the_witness_or_clears_it_without_a_card(link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1, as_table(link_dsn, "t2") as t2:
        server.send_report(t1, report())
        server.witness(t1, 9, h(9), None, None)
        server.witness(t1, 3, h(3), 9, None)
        # a table speaks only of its own records: t2's point is t2's
        assert server.witness(t2, 2, h(2), None, None) == 2
        with pytest.raises(LinkRefused, match="out of bounds"):
            server.witness(t2, 5, "not a hash", None, None)
        for attempt in ("SELECT * FROM pit_rewind_clear(1, ';1?', 'gone')",
                        "SELECT * FROM pit_rewinds()", "SELECT pit_rewind_open('t1')",
                        "DELETE FROM pit_witness", "SELECT * FROM pit_rewinds"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                t2.execute(attempt.encode())
    with (link_server.connect(pit_dsn(link_dsn)) as pit,
          pytest.raises(psycopg.errors.InsufficientPrivilege)):
        pit.execute(b"SELECT pit_witness(1, repeat('a', 64), NULL, NULL)")
    # the owner itself cannot edit or empty the trace
    with link_server.connect(link_dsn) as admin:
        for statement in ("UPDATE pit_rewinds SET reported_seq = 9",
                          "DELETE FROM pit_rewinds", "TRUNCATE pit_rewinds CASCADE",
                          "TRUNCATE pit_witness"):
            with pytest.raises(psycopg.Error, match=r"append-only|evidence|TRUNCATE refused"):
                admin.execute(statement.encode())
        assert admin.execute(b"SELECT count(*) FROM pit_rewinds").fetchone() == (1,)


def test_an_older_copy_of_a_real_table_s_file_raises_the_alert_at_the_pit(
        tmp_path: Path, link_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    init_pit(link_dsn).close()
    monkeypatch.setenv(DSN_VARIABLE, table_dsn(link_dsn, "t1"))
    monkeypatch.setenv(TABLE_ID_VARIABLE, "t1")
    path = tmp_path / "table.db"
    older = tmp_path / "older.db"
    rig = start_rig(path)
    reporting = start_reporting(rig.controller, rig.opened)
    assert reporting is not None
    try:
        play_round(rig.opened.table)
        copy = sqlite3.connect(older)  # a copy taken between rounds, as a backup would be
        rig.opened.db.conn.backup(copy)  # (a second handle's close would drop the locks)
        copy.close()
        play_round(rig.opened.table)
        rig.controller.do(c.PlaceWager(2, "base", 2500))
        with open_for_reading(path) as db:
            newest, _ = last_event(db)
        with link_server.connect(link_dsn) as admin:
            _until(lambda: _witnessed(admin) >= newest)
    finally:
        reporting.stop()
        rig.close()
    # the copy put back in the file's place, its journal gone: the table cannot tell
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    shutil.copyfile(older, path)
    rig = start_rig(path)
    reporting = start_reporting(rig.controller, rig.opened)
    assert reporting is not None
    try:
        with link_server.connect(pit_dsn(link_dsn)) as pit:
            _until(lambda: rewind_of(pit) is not None)
            found = rewind_of(pit)
            assert found is not None and found.kind == "back"
            assert found.witnessed_seq >= newest > found.reported_seq
    finally:
        reporting.stop()
        rig.close()


def _witnessed(admin: link_server.Connection) -> int:
    row = admin.execute(b"SELECT seq FROM pit_witness WHERE table_id = 't1'").fetchone()
    return -1 if row is None else int(str(row[0]))


def _until(ok: object) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if ok():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("not within 20 s")


def test_a_server_before_the_witness_is_upgraded_by_link_init_and_tables_report_meanwhile(
        tmp_path: Path, link_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_link.pit import witness
    from dealer_link.pit.sql_cards import TURNS_MIGRATION, TURNS_SCHEMA
    from tests.link.helpers import init_link

    monkeypatch.setattr(witness, "UNHEARD_RETRY_S", 0.5)
    with init_link(link_dsn) as admin:  # the pit as released before pit_0003_witness
        assert server._apply_first(admin)
        assert server._apply_later(admin, TURNS_MIGRATION, TURNS_SCHEMA)
    monkeypatch.setenv(DSN_VARIABLE, table_dsn(link_dsn, "t1"))
    monkeypatch.setenv(TABLE_ID_VARIABLE, "t1")
    rig = start_rig(tmp_path / "table.db")
    reporting = start_reporting(rig.controller, rig.opened)
    assert reporting is not None
    try:  # the table's reports go on; only the witness is not there to hear
        play_round(rig.opened.table)
        _until(lambda: reporting.reporter.sent >= 2)
        assert reporting.reporter.problem == ""
        with link_server.connect(link_dsn) as admin:
            assert server.apply(admin) is True  # link init, later
            assert server.apply(admin) is False
            # the running table takes the witness up without a restart
            _until(lambda: _witnessed(admin) > 0)
    finally:
        reporting.stop()
        rig.close()


def test_a_second_file_under_the_same_login_is_a_fork_though_its_mark_lags(
        link_dsn: str) -> None:
    """Two consoles on one login, each on its own file: the second always answers with a
    mark the first has moved past; the server holds it to what it vouched for there."""
    init_pit(link_dsn).close()
    with (as_table(link_dsn, "t1") as a, as_table(link_dsn, "t1") as b,
          link_server.connect(pit_dsn(link_dsn)) as pit):
        server.send_report(a, report())
        mark_a = server.witness(a, 10, h(10, "A"), None, None)
        mark_b = server.witness(b, 12, h(12, "B"), None, None)
        for n in range(13, 21, 2):
            mark_a = server.witness(a, n, h(n, "A"), mark_a, h(mark_a, "A"))
            mark_b = server.witness(b, n + 1, h(n + 1, "B"), mark_b, h(mark_b, "B"))
            if rewind_of(pit) is not None:
                break
        found = rewind_of(pit)
        assert found is not None and found.kind == "fork"


def test_a_reason_typed_for_one_alert_never_clears_the_next(link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1, link_server.connect(pit_dsn(link_dsn)) as pit:
        server.send_report(t1, report())
        server.witness(t1, 9, h(9), None, None)
        server.witness(t1, 7, h(7), 9, None)
        first = rewind_of(pit)
        assert first is not None
        server.clear_rewind(pit, first.entry, EXEC_CARD, "Disk failed, backup restored")
        server.witness(t1, 7, h(7), None, None)
        server.witness(t1, 30, h(30, "copy"), 7, h(7, "copy"))
        second = rewind_of(pit)
        assert second is not None and second.kind == "fork" and second.entry != first.entry
        with pytest.raises(LinkRefused, match=f"records alert {first.entry} is not open"):
            server.clear_rewind(pit, first.entry, EXEC_CARD, "Disk failed, backup restored")
        assert rewind_of(pit) == second


def test_the_witness_changes_only_through_its_functions(link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1:
        server.send_report(t1, report())
        server.witness(t1, 9, h(9), None, None)
        server.witness(t1, 50, h(50), 9, h(9))
    with link_server.connect(link_dsn) as admin:  # the owner, by hand: refused
        for statement in ("UPDATE pit_witness SET seq = 3", "DELETE FROM pit_witness",
                          "DELETE FROM pit_witness_points",
                          "INSERT INTO pit_witness_points VALUES ('t1', 1, 'x')"):
            with pytest.raises(psycopg.Error, match="witness of the tables' records"):
                admin.execute(statement.encode())
        assert _witnessed(admin) == 50
    with as_table(link_dsn, "t1") as t1, link_server.connect(pit_dsn(link_dsn)) as pit:
        server.witness(t1, 7, h(7), 50, None)
        assert rewind_of(pit) is not None
