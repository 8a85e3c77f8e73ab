"""Employee ids are one id whatever their case; names, reasons and ids are checked."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.employees import changes
from dealer_console.employees.registry import NAME_MAX, RegistryError, Role, find, get
from tests.employees.conftest import CARDS, FAST_KDF


def add(db: Database, employee_id: str, name: str) -> changes.Change:
    return changes.add(db, CARDS["executive"], employee_id, name, Role.DEALER, CARDS["new"],
                       kdf=FAST_KDF)


def test_ids_are_the_same_whatever_their_case(db: Database, db_path: Path) -> None:
    with pytest.raises(RegistryError, match="s1 is taken by S1"):
        add(db, "s1", "Sam Lower")
    assert get(db, "s1").employee_id == "S1"
    assert changes.set_enabled(db, CARDS["executive"], "s1", False).employee.employee_id == "S1"
    raw = sqlite3.connect(db_path)
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        raw.execute("INSERT INTO employees (employee_id, name, role, enabled, card_tag,"
                    " card_hash, created_at) VALUES ('d1', 'Sneaky', 'executive', 1, 'x', 'y',"
                    " 'z')")
    raw.close()


@pytest.mark.parametrize(("name", "message"), [
    ("", "empty"),
    ("   ", "empty"),
    ("x" * (NAME_MAX + 1), f"at most {NAME_MAX}"),
    ("Pat\nBoss", "U+000A"),
    ("Pat\tBoss", "U+0009"),
    ("Pat\x00", "U+0000"),
    ("Pat\u202eBoss", "U+202E"),  # right-to-left override: shows as another name
    ("Pat\u200bBoss", "U+200B"),  # zero-width space
    ("Pat\u2028Boss", "U+2028"),
])
def test_bad_names_are_refused_before_any_swipe(db: Database, name: str, message: str) -> None:
    entries = db.execute("SELECT COUNT(*) FROM employee_log").fetchone()[0]
    with pytest.raises(RegistryError, match=re.escape(message)):
        add(db, "D9", name)
    assert find(db, "D9") is None
    assert db.execute("SELECT COUNT(*) FROM employee_log").fetchone()[0] == entries


def test_a_name_is_stored_trimmed_and_composed(db: Database) -> None:
    assert add(db, "D9", "  Jose\u0301 Nu\u0301n\u0303ez ").employee.name == "José Núñez"
    assert add_ok_at_the_limit(db).employee.name == "y" * NAME_MAX


def add_ok_at_the_limit(db: Database) -> changes.Change:
    return changes.add(db, CARDS["executive"], "D10", "y" * NAME_MAX, Role.DEALER,
                       "5000444400077=2912", kdf=FAST_KDF)


@pytest.mark.parametrize("employee_id", ["", "a b", "x" * 33, "-x", "ü1", "S1;DROP"])
def test_bad_ids_are_refused(db: Database, employee_id: str) -> None:
    with pytest.raises(RegistryError, match="employee id"):
        add(db, employee_id, "Some One")


@pytest.mark.parametrize("reason", ["left\nthe building", "r" * 201])
def test_bad_reasons_are_refused(db: Database, reason: str) -> None:
    with pytest.raises(RegistryError, match="the reason"):
        changes.set_enabled(db, CARDS["executive"], "D1", False, reason=reason)
    assert get(db, "D1").enabled
