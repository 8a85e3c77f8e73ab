"""The employee registry: who works the table, their role, and their card (as a hash only).

Every change (add, disable, enable, re-card) and every swipe, accepted or refused, is written
to ``employee_log``, which refuses UPDATE and DELETE. Functions take the table's database and
run each change in one transaction (a savepoint when the caller already holds one).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum

from sqlite_utils import Database, Migrations

from dealer_console.employees.cardhash import (
    DEFAULT_KDF,
    KdfParams,
    card_matches,
    card_tag,
    hash_card,
)
from dealer_console.errors import ConsoleError

MIGRATIONS = Migrations("employees")

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")
_TRACK_CHARS = frozenset("0123456789:<=>")
_TRACK_MAX = 37


class Role(Enum):
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    EXECUTIVE = "executive"
    TECHNICIAN = "technician"


class RegistryError(ConsoleError, ValueError):
    """A registry change refused: an unknown or duplicate id, an empty name, a bad card."""


@dataclass(frozen=True, slots=True)
class Employee:
    employee_id: str
    name: str
    role: Role
    enabled: bool


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


def apply_migrations(db: Database) -> None:
    """Create or upgrade the registry's tables in the table database."""
    MIGRATIONS.apply(db)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def check_track(track: str) -> str:
    """Track-2 data (sentinels stripped); the message never repeats the data."""
    if not 1 <= len(track) <= _TRACK_MAX or any(ch not in _TRACK_CHARS for ch in track):
        raise RegistryError(
            f"card data must be 1-{_TRACK_MAX} track-2 characters (0-9 : < = >)"
        )
    return track


def _secret(db: Database) -> bytes:
    row = db.execute("SELECT secret FROM employee_secret WHERE id = 1").fetchone()
    if row is None:
        raise RegistryError("the employee registry is not set up in this database")
    return bytes(row[0])


def log(db: Database, action: str, employee_id: str | None, actor: str, detail: str) -> None:
    db.execute(
        "INSERT INTO employee_log (recorded_at, employee_id, action, actor, detail) "
        "VALUES (?, ?, ?, ?, ?)",
        [now(), employee_id, action, actor, detail],
    )


def _row(row: tuple[object, ...]) -> Employee:
    employee_id, name, role, enabled = row
    return Employee(str(employee_id), str(name), Role(role), bool(enabled))


def get(db: Database, employee_id: str) -> Employee:
    row = db.execute(
        "SELECT employee_id, name, role, enabled FROM employees WHERE employee_id = ?",
        [employee_id],
    ).fetchone()
    if row is None:
        raise RegistryError(f"no employee {employee_id!r}")
    return _row(row)


def list_employees(db: Database) -> list[Employee]:
    rows = db.execute(
        "SELECT employee_id, name, role, enabled FROM employees ORDER BY employee_id"
    ).fetchall()
    return [_row(r) for r in rows]


def _card_in_use(db: Database, track: str, but: str | None = None) -> str | None:
    for employee_id, stored in db.execute(
        "SELECT employee_id, card_hash FROM employees WHERE card_tag = ?",
        [card_tag(track, _secret(db))],
    ).fetchall():
        if employee_id != but and card_matches(track, stored):
            return str(employee_id)
    return None


def add(
    db: Database, employee_id: str, name: str, role: Role, track: str, *,
    actor: str, kdf: KdfParams = DEFAULT_KDF,
) -> Employee:
    """Register an employee with their card; the card must not belong to anyone else."""
    if not _ID_RE.match(employee_id):
        raise RegistryError(
            f"employee id {employee_id!r}: use 1-32 letters, digits, '.', '_' or '-'"
        )
    if not name.strip():
        raise RegistryError(f"employee {employee_id}: the name is empty")
    check_track(track)
    with db.atomic():
        if db.execute("SELECT 1 FROM employees WHERE employee_id = ?",
                      [employee_id]).fetchone():
            raise RegistryError(f"employee {employee_id} is already registered")
        other = _card_in_use(db, track)
        if other is not None:
            raise RegistryError(f"that card already belongs to employee {other}")
        db.execute(
            "INSERT INTO employees (employee_id, name, role, enabled, card_tag, card_hash, "
            "created_at) VALUES (?, ?, ?, 1, ?, ?, ?)",
            [employee_id, name.strip(), role.value, card_tag(track, _secret(db)),
             hash_card(track, kdf), now()],
        )
        log(db, "add", employee_id, actor, f"{name.strip()}, {role.value}")
    return get(db, employee_id)


def set_enabled(db: Database, employee_id: str, enabled: bool, *, actor: str,
                reason: str = "") -> Employee:
    with db.atomic():
        current = get(db, employee_id)
        if current.enabled == enabled:
            state = "enabled" if enabled else "disabled"
            raise RegistryError(f"employee {employee_id} is already {state}")
        db.execute("UPDATE employees SET enabled = ? WHERE employee_id = ?",
                   [int(enabled), employee_id])
        log(db, "enable" if enabled else "disable", employee_id, actor, reason)
    return get(db, employee_id)


def recard(db: Database, employee_id: str, track: str, *, actor: str,
           kdf: KdfParams = DEFAULT_KDF) -> Employee:
    """Give an employee a new card; the old one stops working at once."""
    check_track(track)
    with db.atomic():
        get(db, employee_id)
        other = _card_in_use(db, track, but=employee_id)
        if other is not None:
            raise RegistryError(f"that card already belongs to employee {other}")
        db.execute(
            "UPDATE employees SET card_tag = ?, card_hash = ? WHERE employee_id = ?",
            [card_tag(track, _secret(db)), hash_card(track, kdf), employee_id],
        )
        log(db, "recard", employee_id, actor, "new card")
    return get(db, employee_id)


def find_by_card(db: Database, track: str) -> Employee | None:
    """The employee whose card this is, enabled or not; None for an unknown card."""
    try:
        check_track(track)
    except RegistryError:
        return None
    employee_id = _card_in_use(db, track)
    return None if employee_id is None else get(db, employee_id)
