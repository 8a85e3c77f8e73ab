"""The technician's service of the table, in the hash-chained event log: test-mode sessions
and device set-ups saved.

Issue 23: a test-mode session lived only in a table of its own (outside the chain, so a row
could be deleted unseen) and saving a device's port or baud recorded nothing of who changed
what. Each is now an event of the table's log (:mod:`dealer_console.storage.eventlog`) and the
tables are written from the events by :func:`project`, in the same transaction, so the audit
rebuilds them from the log and names any row changed, added or removed
(``dealer_console/audit/rebuild.py``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any, Final

from sqlite_utils import Database, Migrations

from dealer_console import clock
from dealer_console.storage import eventlog

MIGRATIONS = Migrations("dealer_console_test_mode")
"""The set the test-mode sessions' table was first made in (its name is kept: a table
database records the migrations it has by this name)."""

TEST_MODE_ENTERED: Final = "test_mode_entered"
TEST_MODE_LEFT: Final = "test_mode_left"
DEVICE_SETUP_SAVED: Final = "device_setup_saved"
KINDS: Final = (TEST_MODE_ENTERED, TEST_MODE_LEFT, DEVICE_SETUP_SAVED)
TABLES: Final = ("test_mode_sessions", "device_setups")


@MIGRATIONS(name="0001_test_mode_sessions")
def _sessions(db: Database) -> None:
    db.execute("""
        CREATE TABLE test_mode_sessions (
            session INTEGER PRIMARY KEY,
            employee_id TEXT NOT NULL,
            entered_at TEXT NOT NULL,
            left_at TEXT,
            seconds INTEGER CHECK (seconds IS NULL OR seconds >= 0)
        )
        """)


@MIGRATIONS(name="0002_device_setups")
def _device_setups(db: Database) -> None:
    db.execute("""
        CREATE TABLE device_setups (
            setup INTEGER PRIMARY KEY,
            recorded_at TEXT NOT NULL,
            device TEXT NOT NULL,
            old TEXT,
            new TEXT NOT NULL,
            employee_id TEXT NOT NULL,
            employee_name TEXT NOT NULL
        )
        """)


@MIGRATIONS(name="0003_sessions_in_the_event_log")
def _sessions_in_the_log(db: Database) -> None:
    """Sessions an older console logged only in their table: written to the event log now
    (marked ``backfilled``), so the audit holds the table to the log from here on (as the
    jackpot's ``0002_setup_in_the_event_log`` did for its games). Nothing happens in a
    database without an event log."""
    if not eventlog.has_log(db):
        return
    rows = db.execute("SELECT session, employee_id, entered_at, left_at, seconds FROM "
                      "test_mode_sessions ORDER BY session").fetchall()
    with db.atomic():
        for session, employee_id, entered_at, left_at, seconds in rows:
            eventlog.append(db, TEST_MODE_ENTERED, {
                "session": int(session), "employee_id": str(employee_id),
                "entered_at": str(entered_at), "backfilled": True}, round_id=None)
            if left_at is not None:
                eventlog.append(db, TEST_MODE_LEFT, {
                    "session": int(session), "left_at": str(left_at),
                    "seconds": None if seconds is None else int(seconds),
                    "backfilled": True}, round_id=None)


def _log(db: Database, kind: str, payload: Mapping[str, Any]) -> None:
    """The event and its row, one transaction (a table without an event log keeps the row)."""
    MIGRATIONS.apply(db)
    with db.atomic():
        if eventlog.has_log(db):
            eventlog.append(db, kind, payload, round_id=None)
        project(db, kind, payload)


def log_entered(db: Database, employee_id: str) -> int:
    """A test-mode session begins; returns its number."""
    MIGRATIONS.apply(db)
    row = db.execute("SELECT COALESCE(MAX(session), 0) + 1 FROM test_mode_sessions").fetchone()
    session = int(row[0])
    _log(db, TEST_MODE_ENTERED, {"session": session, "employee_id": employee_id,
                                 "entered_at": clock.stamp("seconds")})
    return session


def log_left(db: Database, session: int, seconds: int) -> None:
    _log(db, TEST_MODE_LEFT, {"session": session, "left_at": clock.stamp("seconds"),
                              "seconds": seconds})


def settings_text(settings: object | None) -> str | None:
    """A device's settings as the log keeps them: its fields as JSON (None: none before)."""
    if settings is None:
        return None
    values = dataclasses.asdict(settings) if dataclasses.is_dataclass(settings) \
        and not isinstance(settings, type) else settings
    return json.dumps(values, sort_keys=True, default=str)


def log_device_setup(db: Database, device: str, old: object | None, new: object,
                     employee_id: str, employee_name: str) -> int:
    """A device's settings saved in test mode: which device, before and after, by whom."""
    MIGRATIONS.apply(db)
    row = db.execute("SELECT COALESCE(MAX(setup), 0) + 1 FROM device_setups").fetchone()
    setup = int(row[0])
    _log(db, DEVICE_SETUP_SAVED, {
        "setup": setup, "recorded_at": clock.stamp("seconds"), "device": device,
        "old": settings_text(old),
        "new": settings_text(new), "employee_id": employee_id, "employee_name": employee_name})
    return setup


def project(db: Database, kind: str, p: Mapping[str, Any]) -> None:
    """Write an event's row (the console as it logs, the audit as it rebuilds)."""
    if kind == TEST_MODE_ENTERED:
        db.execute("INSERT INTO test_mode_sessions (session, employee_id, entered_at) "
                   "VALUES (?, ?, ?)", [p["session"], p["employee_id"], p["entered_at"]])
    elif kind == TEST_MODE_LEFT:
        db.execute("UPDATE test_mode_sessions SET left_at = ?, seconds = ? WHERE session = ?",
                   [p["left_at"], p["seconds"], p["session"]])
    elif kind == DEVICE_SETUP_SAVED:
        db.execute("INSERT INTO device_setups (setup, recorded_at, device, old, new, "
                   "employee_id, employee_name) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [p["setup"], p["recorded_at"], p["device"], p["old"], p["new"],
                    p["employee_id"], p["employee_name"]])
    else:
        raise ValueError(f"not a service event: {kind!r}")
