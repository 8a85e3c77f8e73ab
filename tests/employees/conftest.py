"""A real table database file per test, with its first executive set up and a staff on file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.employees import changes
from dealer_console.employees.cardhash import KdfParams
from dealer_console.employees.registry import Role
from dealer_console.table_db import open_table_db

FAST_KDF = KdfParams(n=2**8, r=8, p=1)
"""Cheap scrypt for tests; the format and checks are the same as the default's."""

CARDS = {
    "executive": "5000999900001=2912",
    "executive_2": "5000999900002=2912",
    "supervisor": "5000123400001=2912",
    "dealer": "5000555500001=2912",
    "technician": "5000777700001=2912",
    "disabled": "5000888800001=2912",
    "disabled_executive": "5000999900009=2912",
    "unknown": "5000000000001=2912",
    "new": "5000444400001=2912",
}

STAFF = (
    ("S1", "Sam Super", Role.SUPERVISOR, "supervisor"),
    ("D1", "Dee Dealer", Role.DEALER, "dealer"),
    ("T1", "Tom Tech", Role.TECHNICIAN, "technician"),
    ("S2", "Gone Super", Role.SUPERVISOR, "disabled"),
    ("X2", "Max Exec", Role.EXECUTIVE, "executive_2"),
    ("X9", "Old Exec", Role.EXECUTIVE, "disabled_executive"),
)


def put_staff_on_file(db: Database) -> None:
    """X1 by the set-up; the others on X1's card; S2 and X9 then disabled."""
    executive = CARDS["executive"]
    changes.setup(db, "X1", "Ella Exec", executive, actor="test", kdf=FAST_KDF)
    for emp_id, name, role, key in STAFF:
        changes.add(db, executive, emp_id, name, role, CARDS[key], kdf=FAST_KDF)
    changes.set_enabled(db, executive, "S2", False, reason="left")
    changes.set_enabled(db, executive, "X9", False, reason="retired")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def empty_db(db_path: Path) -> Iterator[Database]:
    database = open_table_db(db_path)
    yield database
    database.close()


@pytest.fixture
def db(empty_db: Database) -> Database:
    put_staff_on_file(empty_db)
    return empty_db
