"""A fresh table database per test, with the jackpot and registry tables and a staff on file."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.employees import changes
from dealer_console.employees.cardhash import KdfParams
from dealer_console.employees.registry import Role
from dealer_console.jackpot import games

FAST_KDF = KdfParams(n=2**8, r=8, p=1)
"""Cheap scrypt for tests; the format and checks are the same as the default's."""

CARDS = {
    "supervisor": "5000123400001=2912",
    "executive": "5000999900001=2912",
    "dealer": "5000555500001=2912",
    "technician": "5000777700001=2912",
    "disabled": "5000888800001=2912",
    "unknown": "5000000000001=2912",
}


def open_db(path: Path) -> Database:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    db = Database(conn)
    games.apply_migrations(db)
    return db


def add_staff(db: Database) -> None:
    """The first executive by the one-time set-up, everyone else on that executive's card."""
    executive = CARDS["executive"]
    changes.setup(db, "X1", "Ella Exec", executive, actor="admin", kdf=FAST_KDF)
    for emp_id, name, role, key in (
        ("S1", "Sam Super", Role.SUPERVISOR, "supervisor"),
        ("D1", "Dee Dealer", Role.DEALER, "dealer"),
        ("T1", "Tom Tech", Role.TECHNICIAN, "technician"),
        ("S2", "Gone Super", Role.SUPERVISOR, "disabled"),
    ):
        changes.add(db, executive, emp_id, name, role, CARDS[key], kdf=FAST_KDF)
    changes.set_enabled(db, executive, "S2", False, reason="left")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_db(tmp_path / "table.db")
    add_staff(database)
    yield database
    database.close()


def make_awarded(folder: Path) -> tuple[Database, int]:
    """A table (``table.db`` in ``folder``) with one confirmed award, seat 2's seven-card
    straight flush, and the award's number: the win page tests print it."""
    # here, not at the top: the round's test module imports this one
    from dealer_console.round import commands as c
    from tests.jackpot.swipes import swipe
    from tests.jackpot.test_round_integration import SEVEN_SF, _table, _to_settlement
    from tests.round.helpers import settle_all

    table, system = _table(folder)
    _to_settlement(table, {2: SEVEN_SF})
    settle_all(table)
    swipe(system, table, CARDS["executive"])
    table.handle(c.EndGame())
    hit = int(table.db.execute("SELECT MIN(hit_id) FROM jackpot_hits").fetchone()[0])
    return table.db, hit


@pytest.fixture
def awarded(tmp_path: Path) -> tuple[Database, int]:
    """:func:`make_awarded` in the test's folder."""
    return make_awarded(tmp_path)
