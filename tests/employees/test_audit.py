"""``dealer-console audit verify`` rebuilds the staff list and its log from the event log: each
change made with SQL behind the console's back is caught, on a real database file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.cli import main
from dealer_console.employees import events
from dealer_console.employees.authorize import authorise
from dealer_console.employees.cardhash import card_tag, hash_card
from dealer_console.employees.registry import Role, card_secret
from tests.employees.conftest import CARDS, FAST_KDF


def sql(path: Path, *statements: str) -> None:
    raw = sqlite3.connect(path)
    for statement in statements:
        raw.execute(statement)
    raw.commit()
    raw.close()


def verify(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["audit", "verify", "--db", str(path)])
    return status, capsys.readouterr().out


def test_an_untouched_staff_list_passes(db: Database, db_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out = verify(db_path, capsys)
    assert status == 0, out
    assert out.startswith("OK")


def test_a_dealer_promoted_with_sql(db: Database, db_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    sql(db_path, "UPDATE employees SET role = 'executive' WHERE employee_id = 'D1'")
    # the console itself now takes the dealer's card as an executive's ...
    assert authorise(db, CARDS["dealer"], Role.EXECUTIVE, "test").employee_id == "D1"
    status, out = verify(db_path, capsys)  # ... and the audit says so
    assert status == 1
    assert ("PROBLEM: employees: employee D1 differs from the event log in role "
            "('executive' on file, 'dealer' in the event log)") in out


def test_an_employee_added_with_sql(db: Database, db_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    track = CARDS["new"]
    db.execute("INSERT INTO employees (employee_id, name, role, enabled, card_tag, card_hash,"
               " created_at) VALUES ('Z1', 'Zed', 'executive', 1, ?, ?, 'now')",
               [card_tag(track, card_secret(db)), hash_card(track, FAST_KDF)])
    assert authorise(db, track, Role.EXECUTIVE, "test").employee_id == "Z1"
    status, out = verify(db_path, capsys)
    assert status == 1
    assert "PROBLEM: employees: employee Z1 is on file but no staff event put it there" in out


def test_a_card_swapped_with_sql(db: Database, db_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    sql(db_path, "UPDATE employees SET (card_tag, card_hash) = (SELECT card_tag, card_hash"
                 " FROM employees WHERE employee_id = 'D1') WHERE employee_id = 'X1'")
    status, out = verify(db_path, capsys)
    assert status == 1
    assert ("employee X1 differs from the event log in card_tag (values not shown), "
            "card_hash (values not shown)") in out


def test_an_employee_deleted_with_sql(db: Database, db_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    sql(db_path, "DELETE FROM employees WHERE employee_id = 'S2'")
    status, out = verify(db_path, capsys)
    assert status == 1
    assert "employees: employee S2 is in the event log but not on file" in out


def test_a_deleted_employee_log_row(db: Database, db_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    entry = db.execute("SELECT entry FROM employee_log WHERE action = 'disable'"
                       " AND employee_id = 'S2'").fetchone()[0]
    sql(db_path, "DROP TRIGGER employee_log_no_delete",
        f"DELETE FROM employee_log WHERE entry = {entry}")
    status, out = verify(db_path, capsys)
    assert status == 1
    assert f"employee_log: entry {entry} (disable S2) is in the event log but not on file" in out


def test_an_altered_employee_log_row(db: Database, db_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    entry = db.execute("SELECT entry FROM employee_log WHERE action = 'add'"
                       " AND employee_id = 'D1'").fetchone()[0]
    sql(db_path, "DROP TRIGGER employee_log_no_update",
        f"UPDATE employee_log SET actor = 'S1' WHERE entry = {entry}")
    status, out = verify(db_path, capsys)
    assert status == 1
    assert (f"employee_log: entry {entry} (add D1) differs from the event log in actor "
            "('S1' on file, 'X1' in the event log)") in out


def test_an_employee_log_row_inserted_with_sql(db: Database, db_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    sql(db_path, "INSERT INTO employee_log (entry, recorded_at, employee_id, action, actor,"
                 " detail) VALUES (999, 'now', 'D1', 'add', 'X1', 'backdated')")
    status, out = verify(db_path, capsys)
    assert status == 1
    assert "employee_log: entry 999 (add D1) is on file but no staff event put it there" in out


def test_a_change_written_as_an_event_but_not_authorised(
        db: Database, db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tables and events agree, but the change names a supervisor as its authoriser (what code
    writing events directly, not through an executive's swipe, would leave)."""
    row = events.employee_row(db, "D1")
    row["role"] = "executive"
    with db.atomic():
        event = events.record(db, "role", "D1", "S1", "dealer to executive", row)
    status, out = verify(db_path, capsys)
    assert status == 1
    assert (f"event {event.seq} (employee_role_changed D1): authorised by 'S1', who was not an "
            "enabled executive then") in out


def test_a_second_setup_written_as_an_event(db: Database, db_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    row = {"employee_id": "Z2", "name": "Zoe", "role": "executive", "enabled": 1,
           "card_tag": "0000", "card_hash": "scrypt$", "created_at": "now"}
    with db.atomic():
        event = events.record(db, "setup", "Z2", "test", "a second first", row)
    status, out = verify(db_path, capsys)
    assert status == 1
    assert (f"event {event.seq} (employee_set_up Z2): a first executive set up when an "
            "executive had been on file already") in out
