"""The employee registry: who works the table, their role, and their card (as a hash only).

``employees`` and ``employee_log`` are written only from staff events in the table's
hash-chained event log (:mod:`dealer_console.employees.events`), in the same transaction, so the
audit can rebuild both from the log. Changes to the staff list are made by
:mod:`dealer_console.employees.changes` (an executive's swipe, or the one-time set-up of the
first executive); this module holds the schema, the checks on ids, names and cards, and the
reads.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from enum import Enum

from sqlite_utils import Database, Migrations

from dealer_console.employees import events
from dealer_console.employees.cardhash import card_matches, card_tag
from dealer_console.errors import ConsoleError

MIGRATIONS = Migrations("employees")

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")
_TRACK_CHARS = frozenset("0123456789:<=>")
_TRACK_MAX = 37
NAME_MAX = 64
"""Longest name, in characters: it must fit the win page and the supervisor's screen."""
REASON_MAX = 200


class Role(Enum):
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    EXECUTIVE = "executive"
    TECHNICIAN = "technician"


class RegistryError(ConsoleError, ValueError):
    """A registry change refused: an unknown or duplicate id, a bad name, a bad card."""


class DuplicateEmployeeIds(sqlite3.IntegrityError):
    """An older registry holds ids that differ only in case; it cannot be upgraded as is.

    A database error, so opening the table database reports it as a migration failure and the
    migration is rolled back (nothing is changed)."""


@dataclass(frozen=True, slots=True)
class Employee:
    employee_id: str
    name: str
    role: Role
    enabled: bool
    card_tag: str = field(default="", compare=False, repr=False)
    """The card on file when this was read, as its tag (the table's keyed hash of the track,
    the same whichever list or key stretching wrote the row): a session opened by a card ends
    when the employee is given another (``authorize.session_ended``)."""


@MIGRATIONS(name="0001_employees")
def _employees_v1(db: Database) -> None:
    for statement in (
        """
        CREATE TABLE employees (
            employee_id TEXT PRIMARY KEY,
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            role TEXT NOT NULL
                CHECK (role IN ('dealer', 'supervisor', 'executive', 'technician')),
            enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
            card_tag TEXT NOT NULL,
            card_hash TEXT NOT NULL,
            created_at TEXT NOT NULL
        )
        """,
        "CREATE INDEX employees_card_tag ON employees (card_tag)",
        """
        CREATE TABLE employee_secret (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            secret BLOB NOT NULL
        )
        """,
        """
        CREATE TABLE employee_log (
            entry INTEGER PRIMARY KEY,
            recorded_at TEXT NOT NULL,
            employee_id TEXT,
            action TEXT NOT NULL CHECK (action IN ('add', 'disable', 'enable', 'recard',
                                                   'swipe_accepted', 'swipe_refused')),
            actor TEXT NOT NULL,
            detail TEXT NOT NULL
        )
        """,
        """
        CREATE TRIGGER employee_log_no_update BEFORE UPDATE ON employee_log
        BEGIN SELECT RAISE(ABORT, 'the employee log is append-only: UPDATE refused'); END
        """,
        """
        CREATE TRIGGER employee_log_no_delete BEFORE DELETE ON employee_log
        BEGIN SELECT RAISE(ABORT, 'the employee log is append-only: DELETE refused'); END
        """,
    ):
        db.execute(statement)
    db.execute(
        "INSERT INTO employee_secret (id, secret) VALUES (1, ?)", [secrets.token_bytes(32)]
    )


_LOG_V2 = (
    """
    CREATE TABLE employee_log_v2 (
        entry INTEGER PRIMARY KEY,
        recorded_at TEXT NOT NULL,
        employee_id TEXT,
        action TEXT NOT NULL CHECK (action IN ('setup', 'add', 'disable', 'enable', 'recard',
                                               'role', 'swipe_accepted', 'swipe_refused')),
        actor TEXT NOT NULL,
        detail TEXT NOT NULL
    )
    """,
    "INSERT INTO employee_log_v2 SELECT entry, recorded_at, employee_id, action, actor, detail"
    " FROM employee_log ORDER BY entry",
    # DROP TABLE does not fire the DELETE trigger; the rows were copied just above.
    "DROP TABLE employee_log",
    "ALTER TABLE employee_log_v2 RENAME TO employee_log",
    """
    CREATE TRIGGER employee_log_no_update BEFORE UPDATE ON employee_log
    BEGIN SELECT RAISE(ABORT, 'the employee log is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER employee_log_no_delete BEFORE DELETE ON employee_log
    BEGIN SELECT RAISE(ABORT, 'the employee log is append-only: DELETE refused'); END
    """,
    "CREATE UNIQUE INDEX employees_id_nocase ON employees (employee_id COLLATE NOCASE)",
)


@MIGRATIONS(name="0002_ids_without_case_and_staff_events")
def _employees_v2(db: Database) -> None:
    """Ids unique without regard to case; the log takes set-up and role changes; what an
    older registry holds is carried into the event log as one event, so the audit can rebuild
    the tables from the log from here on."""
    clashes = db.execute(
        "SELECT group_concat(employee_id, ' and ') FROM employees"
        " GROUP BY employee_id COLLATE NOCASE HAVING COUNT(*) > 1 ORDER BY 1"
    ).fetchall()
    if clashes:
        raise DuplicateEmployeeIds(
            "employee ids that differ only in case: " + "; ".join(str(c[0]) for c in clashes)
            + " (ids are now the same without regard to case; the registry's administrator"
            " must settle which is which, see docs/storage.md)")
    for statement in _LOG_V2:
        db.execute(statement)
    events.carry_over(db)


_LOG_V3 = (
    "ALTER TABLE employees ADD COLUMN pin_hash TEXT",
    *(statement.replace("'role', 'swipe_accepted'", "'role', 'pin', 'swipe_accepted'")
      for statement in _LOG_V2[:-1]),
)
"""Migration 0003: the PIN's salted hash on the employee's row, and the log's ``pin`` action
(a PIN set or changed); the log is copied into a table with the wider CHECK, as in 0002."""


@MIGRATIONS(name="0003_pins")
def _employees_v3(db: Database) -> None:
    """A PIN per employee (``dealer_console/employees/pins.py``); none is on file at first."""
    for statement in _LOG_V3:
        db.execute(statement)


def apply_migrations(db: Database) -> None:
    """Create or upgrade the registry's tables in the table database.

    The registry writes its changes into the table's event log, so the log's own schema is
    applied first (a no-op in a table database, which already has it)."""
    from dealer_console.storage.schema import MIGRATIONS as STORAGE_MIGRATIONS

    STORAGE_MIGRATIONS.apply(db)
    MIGRATIONS.apply(db)


# -- checks on what a change is given -------------------------------------------------------


def check_id(employee_id: str) -> str:
    if not _ID_RE.match(employee_id):
        shown = employee_id if len(employee_id) <= 40 else employee_id[:40] + "..."
        raise RegistryError(
            f"employee id {shown!r}: use 1-32 letters, digits, '.', '_' or '-', starting with "
            "a letter or digit")
    return employee_id


def _check_text(label: str, text: str, longest: int, *, may_be_empty: bool) -> str:
    """Text as stored: NFC, without surrounding spaces, no control or format characters
    (a newline or a right-to-left override would let a name pose as another on a screen or
    in the log), at most ``longest`` characters."""
    cleaned = unicodedata.normalize("NFC", text).strip()
    if not cleaned and not may_be_empty:
        raise RegistryError(f"{label} is empty")
    if len(cleaned) > longest:
        raise RegistryError(f"{label} is {len(cleaned)} characters long; at most {longest}")
    for ch in cleaned:
        if unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp"):
            raise RegistryError(
                f"{label} holds a control or formatting character (U+{ord(ch):04X})")
    return cleaned


def check_name(name: str) -> str:
    return _check_text("the name", name, NAME_MAX, may_be_empty=False)


def check_reason(reason: str) -> str:
    return _check_text("the reason", reason, REASON_MAX, may_be_empty=True)


def check_track(track: str) -> str:
    """Track-2 data (sentinels stripped); the message never repeats the data."""
    if not 1 <= len(track) <= _TRACK_MAX or any(ch not in _TRACK_CHARS for ch in track):
        raise RegistryError(
            f"card data must be 1-{_TRACK_MAX} track-2 characters (0-9 : < = >)"
        )
    return track


# -- reads ----------------------------------------------------------------------------------


def card_secret(db: Database) -> bytes:
    row = db.execute("SELECT secret FROM employee_secret WHERE id = 1").fetchone()
    if row is None:
        raise RegistryError("the employee registry is not set up in this database")
    return bytes(row[0])


def log(db: Database, action: str, employee_id: str | None, actor: str, detail: str) -> None:
    """One entry of the employee log (a swipe), written through its event; inside the
    caller's transaction."""
    events.record(db, action, employee_id, actor, detail, None)


def _row(row: tuple[object, ...]) -> Employee:
    employee_id, name, role, enabled, tag = row
    return Employee(str(employee_id), str(name), Role(role), bool(enabled), str(tag))


def find(db: Database, employee_id: str) -> Employee | None:
    """The employee with this id, whatever its case (``s1`` finds ``S1``)."""
    row = db.execute(
        "SELECT employee_id, name, role, enabled, card_tag FROM employees"
        " WHERE employee_id = ? COLLATE NOCASE",
        [employee_id],
    ).fetchone()
    return None if row is None else _row(row)


def get(db: Database, employee_id: str) -> Employee:
    employee = find(db, employee_id)
    if employee is None:
        shown = employee_id if len(employee_id) <= 40 else employee_id[:40] + "..."
        raise RegistryError(f"no employee {shown!r}")
    return employee


def list_employees(db: Database) -> list[Employee]:
    rows = db.execute(
        "SELECT employee_id, name, role, enabled, card_tag FROM employees ORDER BY employee_id"
    ).fetchall()
    return [_row(r) for r in rows]


def enabled_executives(db: Database) -> list[str]:
    return [str(r[0]) for r in db.execute(
        "SELECT employee_id FROM employees WHERE role = 'executive' AND enabled = 1"
        " ORDER BY employee_id")]


def executive_ever_made(db: Database) -> bool:
    """Whether any executive was ever on file, even one since disabled or given another role
    (the staff events keep what the table no longer shows)."""
    if db.execute("SELECT 1 FROM employees WHERE role = 'executive' LIMIT 1").fetchone():
        return True
    return events.ever_named_executive(db)


def card_in_use(db: Database, track: str, but: str | None = None) -> str | None:
    """The id of the employee holding this card (other than ``but``), or None."""
    for employee_id, stored in db.execute(
        "SELECT employee_id, card_hash FROM employees WHERE card_tag = ?",
        [card_tag(track, card_secret(db))],
    ).fetchall():
        if employee_id != but and card_matches(track, stored):
            return str(employee_id)
    return None


def find_by_card(db: Database, track: str) -> Employee | None:
    """The employee whose card this is, enabled or not; None for an unknown card."""
    try:
        check_track(track)
    except RegistryError:
        return None
    employee_id = card_in_use(db, track)
    return None if employee_id is None else get(db, employee_id)
