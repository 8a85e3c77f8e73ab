"""An older registry (before staff events) upgraded: ids that differ only in case are refused
clearly and nothing changes; otherwise its rows are carried into the event log and audited from
there on."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.cli import main
from dealer_console.employees import changes, registry
from dealer_console.employees.audit import verify_staff
from dealer_console.employees.cardhash import card_tag, hash_card
from dealer_console.employees.registry import RegistryError, Role
from dealer_console.jackpot import schema as jackpot_schema
from dealer_console.storage.connection import StorageError, connect
from dealer_console.storage.schema import MIGRATIONS as STORAGE
from dealer_console.table_db import open_for_reading, open_table_db
from tests.employees.conftest import CARDS, FAST_KDF

V2 = "0002_ids_without_case_and_staff_events"


def older_registry(path: Path, staff: list[tuple[str, str, str, str]]) -> None:
    """A table database as the console wrote it before staff events: the registry's first
    migration only, rows written the way that console wrote them (``--by`` names)."""
    db = connect(path)
    STORAGE.apply(db)
    registry.MIGRATIONS.apply(db, stop_before=V2)
    jackpot_schema.MIGRATIONS.apply(db)
    secret = registry.card_secret(db)
    with db.atomic():
        for emp_id, name, role, key in staff:
            db.execute("INSERT INTO employees VALUES (?, ?, ?, 1, ?, ?, '2024-01-01')",
                       [emp_id, name, role, card_tag(CARDS[key], secret),
                        hash_card(CARDS[key], FAST_KDF)])
            db.execute("INSERT INTO employee_log (recorded_at, employee_id, action, actor,"
                       " detail) VALUES ('2024-01-01', ?, 'add', 'admin', ?)", [emp_id, name])
    db.close()


def pending(path: Path) -> list[str]:
    db = Database(path)
    names = [m.name for m in registry.MIGRATIONS.pending(db)]
    db.close()
    return names


def test_ids_differing_only_in_case_are_refused_and_nothing_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.db"
    older_registry(path, [("S1", "Sam", "supervisor", "supervisor"),
                          ("s1", "Sue", "dealer", "dealer"),
                          ("X1", "Ella", "executive", "executive")])
    with pytest.raises(StorageError, match="employee ids that differ only in case: S1 and s1"):
        open_table_db(path)
    assert pending(path)[:1] == [V2]  # 0002 and everything after it, still to apply
    db = Database(path)
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM employees").fetchone()[0] == 3
    db.close()
    monkeypatch.setattr("sys.stdin", io.StringIO(CARDS["executive"] + "\n"))
    assert main(["employees", "disable", "--db", str(path), "S1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "differ only in case: S1 and s1" in err


def test_an_older_registry_is_carried_into_the_event_log(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    older_registry(path, [("S1", "Sam", "supervisor", "supervisor"),
                          ("X1", "Ella", "executive", "executive")])
    with pytest.raises(StorageError, match="schema is older"):  # read-only: never upgraded
        open_for_reading(path)

    db = open_table_db(path)
    assert pending(path) == []
    kinds = [r[0] for r in db.execute("SELECT kind FROM events")]
    assert kinds == ["employees_carried_over"]
    assert verify_staff(db) == []
    assert [r[0] for r in db.execute("SELECT actor FROM employee_log")] == ["admin", "admin"]
    # the carried-over executive counts: no second first executive
    with pytest.raises(RegistryError, match="set up already"):
        changes.setup(db, "X2", "New First", CARDS["new"], actor="test", kdf=FAST_KDF)
    # and authorises changes as any executive does
    changes.add(db, CARDS["executive"], "D1", "Dee", Role.DEALER, CARDS["dealer"], kdf=FAST_KDF)
    assert verify_staff(db) == []
    db.execute("UPDATE employees SET role = 'executive' WHERE employee_id = 'S1'")
    assert verify_staff(db) == ["employees: employee S1 differs from the event log in role "
                                "('executive' on file, 'supervisor' in the event log)"]
    db.close()


def test_an_older_registry_without_an_executive_may_still_set_one_up(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    older_registry(path, [("D1", "Dee", "dealer", "dealer")])
    db = open_table_db(path)
    changes.setup(db, "X1", "Ella", CARDS["executive"], actor="test", kdf=FAST_KDF)
    assert verify_staff(db) == []
    db.close()
