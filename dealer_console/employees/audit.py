"""The audit of the staff list: ``employees`` and ``employee_log`` rebuilt from the staff events
of the hash-chained log and compared row for row, and every change checked to have been
authorised by an executive enabled at the time.

This catches an employee added, promoted, re-carded, enabled or deleted with SQL, and an
employee-log entry deleted, altered or inserted: the tables no longer match their events. A
rewrite of the events themselves is the hash chain's to catch. Each jackpot hit's confirmers
are held to the list as it stood then (a hit written naming a dealer as a supervisor).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from sqlite_utils import Database

from dealer_console.employees import events
from dealer_console.employees.registry import MIGRATIONS, apply_migrations

JACKPOT_HIT = "jackpot_hit"
"""Its confirmers are held to the list as it stood (the staff events before it)."""
BACKED_OUT = "jackpot_backed_out"
"""Its executive too (``jackpot/schema.BACKED_OUT``)."""
_CHANGES = ("add", "disable", "enable", "recard", "role", "pin")
"""Log actions that need an executive's swipe (the set-up is the one change that does not)."""

_CARD_COLUMNS = ("card_tag", "card_hash", "pin_hash")
_SHOWN = 5
"""Problems printed per table (the count says how many more)."""


def verify_staff(db: Database) -> list[str]:
    """Every difference between the registry and its events, and every change whose
    authoriser was not an enabled executive then; empty when all agree."""
    if "employees" not in db.table_names():
        return []
    pending = [m.name for m in MIGRATIONS.pending(db)]
    if pending:
        return [f"employee registry: its schema is older than this console's (missing "
                f"{', '.join(pending)}), so its changes are not in the event log; audit a copy "
                "opened once with this console"]
    shadow = Database(memory=True)
    apply_migrations(shadow)
    problems: list[str] = []
    try:
        with shadow.atomic():
            _replay(db, shadow, problems)
    except (ValueError, KeyError, TypeError, LookupError, sqlite3.DatabaseError) as exc:
        problems.append(f"the staff events cannot be replayed into the registry ({exc})")
        return problems
    problems.extend(_compare(db, shadow, "employees", events.EMPLOYEE_COLUMNS))
    problems.extend(_compare(db, shadow, "employee_log", events.LOG_COLUMNS))
    shadow.close()
    return problems


def _replay(db: Database, shadow: Database, problems: list[str]) -> None:
    kinds = (*events.STAFF_KINDS, JACKPOT_HIT, BACKED_OUT)
    rows = db.execute(
        f"SELECT seq, round_id, kind, payload FROM events WHERE kind IN "
        f"({', '.join('?' * len(kinds))}) ORDER BY seq", list(kinds))
    executive_seen = False
    first = True
    for seq, round_id, kind, text in rows:
        payload: dict[str, Any] = json.loads(text)
        if kind in (JACKPOT_HIT, BACKED_OUT):
            if first:  # before the list was in the log (an older console's)
                continue
            problems.extend(_confirmers(shadow, seq, payload) if kind == JACKPOT_HIT
                            else _backed_out_by(shadow, seq, payload))
            continue
        if round_id is not None:
            problems.append(f"event {seq} ({kind}): a staff event belongs to no round, but "
                            f"this one names round {round_id}")
        if kind == events.CARRIED_OVER and not first:
            problems.append(f"event {seq}: a registry carried over after staff events")
        if kind != events.CARRIED_OVER:
            problems.extend(_authorised(shadow, seq, kind, payload, executive_seen))
        events.project(shadow, kind, payload)
        rows_after = payload.get("employees") or [payload.get("employee") or {}]
        executive_seen = executive_seen or any(r.get("role") == "executive" for r in rows_after)
        first = False


def _standing(shadow: Database, employee_id: str) -> tuple[str, int] | None:
    """``(role, enabled)`` of an employee on the list as replayed so far, or None."""
    row = shadow.execute("SELECT role, enabled FROM employees WHERE employee_id = ?",
                         [employee_id]).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


def _confirmers(shadow: Database, seq: int, payload: dict[str, Any]) -> list[str]:
    """Who a jackpot hit says confirmed it, held to the staff list as it stood then: on it,
    in service, in the role the hit records (the jackpot's rules judge the role's rights)."""
    out = []
    for who, role in (("employee_id", "employee_role"),
                      ("second_employee_id", "second_employee_role")):
        if payload.get(who) is None or role not in payload:
            continue  # not recorded (a hit paid by another jackpot system, an older console)
        employee, said = str(payload[who]), str(payload[role])
        row = _standing(shadow, employee)
        if row is None:
            out.append(f"event {seq} (jackpot hit): confirmed by {employee!r}, who was not on "
                       "the staff list then")
        elif not row[1]:
            out.append(f"event {seq} (jackpot hit): confirmed by {employee!r}, whose card "
                       "was withdrawn then")
        elif row[0] != said:
            out.append(f"event {seq} (jackpot hit): confirmed by {employee!r} as a {said}, "
                       f"but the staff list had them as a {row[0]} then")
    return out


def _backed_out_by(shadow: Database, seq: int, payload: dict[str, Any]) -> list[str]:
    """A back-out is an executive's: the one it names must have been an enabled executive on
    the list then (the jackpot's rebuild takes the employee from the event)."""
    employee = payload.get("employee_id")
    if employee is None:
        return []
    if _standing(shadow, str(employee)) != ("executive", 1):
        return [f"event {seq} (jackpot award backed out): by {employee!r}, who was not an "
                "enabled executive then"]
    return []


def _authorised(shadow: Database, seq: int, kind: str, payload: dict[str, Any],
                executive_seen: bool) -> list[str]:
    """What is wrong with who made this change, judged on the registry just before it."""
    log = payload["log"]
    action, actor, target = log["action"], str(log["actor"]), log["employee_id"]
    if action == "setup":
        if executive_seen:
            return [f"event {seq} ({kind} {target}): a first executive set up when an "
                    "executive had been on file already"]
        return []
    if action not in _CHANGES or actor.startswith(events.CASINO_ACTOR):
        return []  # a change of the casino's list: the server checked its executive's card
    if _standing(shadow, actor) != ("executive", 1):
        return [f"event {seq} ({kind} {target}): authorised by {actor!r}, who was not an "
                "enabled executive then"]
    if action == "role" and str(target).casefold() == actor.casefold():
        return [f"event {seq} ({kind} {target}): an executive changed their own role"]
    return []


def _compare(db: Database, shadow: Database, table: str,
             columns: tuple[str, ...]) -> list[str]:
    """Rows keyed by their first column: on file but not in the events, in the events but not
    on file, and differing columns (a card's values are not printed)."""
    select = f"SELECT {', '.join(columns)} FROM {table}"
    stored = {r[0]: tuple(r) for r in db.execute(select)}
    replayed = {r[0]: tuple(r) for r in shadow.execute(select)}
    found: list[str] = []
    for key in sorted(stored.keys() | replayed.keys(), key=repr):
        on_file, logged = stored.get(key), replayed.get(key)
        if logged is None and on_file is not None:
            found.append(f"{table}: {_label(table, on_file)} is on file but no staff event "
                         "put it there")
        elif on_file is None and logged is not None:
            found.append(f"{table}: {_label(table, logged)} is in the event log but not on "
                         "file")
        elif on_file is not None and logged is not None and on_file != logged:
            differing = [_difference(c, a, b)
                         for c, a, b in zip(columns, on_file, logged, strict=True) if a != b]
            found.append(f"{table}: {_label(table, logged)} differs from the event log in "
                         + ", ".join(differing))
    if len(found) > _SHOWN:
        found[_SHOWN:] = [f"{table}: {len(found) - _SHOWN} more differences"]
    return found


def _difference(column: str, on_file: object, logged: object) -> str:
    if column in _CARD_COLUMNS:
        return f"{column} (values not shown)"
    return f"{column} ({on_file!r} on file, {logged!r} in the event log)"


def _label(table: str, row: tuple[Any, ...]) -> str:
    if table == "employees":
        return f"employee {row[0]}"
    return f"entry {row[0]} ({row[3]} {row[2]})"
