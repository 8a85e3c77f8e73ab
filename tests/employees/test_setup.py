"""The first executive: made once by the set-up, which refuses for good afterwards."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.employees import changes
from dealer_console.employees.registry import (
    Employee,
    RegistryError,
    Role,
    get,
    list_employees,
)
from tests.employees.conftest import CARDS, FAST_KDF


def test_setup_makes_the_first_executive_once(empty_db: Database) -> None:
    change = changes.setup(empty_db, "X1", "Ella Exec", CARDS["executive"], actor="test",
                           kdf=FAST_KDF)
    assert change.employee == Employee("X1", "Ella Exec", Role.EXECUTIVE, True)
    assert change.authorised_by is None
    assert empty_db.execute("SELECT employee_id, action, actor FROM employee_log"
                            ).fetchall() == [("X1", "setup", "test")]
    assert [r[0] for r in empty_db.execute("SELECT kind FROM events")] == ["employee_set_up"]
    with pytest.raises(RegistryError, match="set up already"):
        changes.setup(empty_db, "X7", "Second First", CARDS["new"], actor="test", kdf=FAST_KDF)
    assert [e.employee_id for e in list_employees(empty_db)] == ["X1"]
    assert empty_db.execute("SELECT COUNT(*) FROM employee_log").fetchone()[0] == 1


def test_setup_refuses_after_the_first_executive_is_disabled(empty_db: Database) -> None:
    changes.setup(empty_db, "X1", "Ella Exec", CARDS["executive"], actor="test", kdf=FAST_KDF)
    changes.add(empty_db, CARDS["executive"], "X2", "Max Exec", Role.EXECUTIVE,
                CARDS["executive_2"], kdf=FAST_KDF)
    changes.set_enabled(empty_db, CARDS["executive_2"], "X1", False)
    with pytest.raises(RegistryError, match="set up already"):
        changes.setup(empty_db, "X3", "Third", CARDS["new"], actor="test", kdf=FAST_KDF)


def test_setup_remembers_an_executive_even_when_sql_demoted_them_all(db_path: Path,
                                                                     empty_db: Database) -> None:
    changes.setup(empty_db, "X1", "Ella Exec", CARDS["executive"], actor="test", kdf=FAST_KDF)
    raw = sqlite3.connect(db_path)
    raw.execute("UPDATE employees SET role = 'dealer'")
    raw.commit()
    raw.close()
    with pytest.raises(RegistryError, match="set up already"):
        changes.setup(empty_db, "X3", "Usurper", CARDS["new"], actor="test", kdf=FAST_KDF)


def test_setup_is_not_a_way_round_an_executive(db: Database) -> None:
    with pytest.raises(RegistryError, match="set up already"):
        changes.setup(db, "Z1", "Another First", CARDS["new"], actor="test", kdf=FAST_KDF)
    with pytest.raises(RegistryError):
        get(db, "Z1")
