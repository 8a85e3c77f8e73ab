"""Staff events: every change of ``employees`` and every ``employee_log`` entry as an event of
the table's hash-chained log, and the projection that writes the two tables from it.

The console writes a staff change by appending its event (``round_id`` NULL: it belongs to no
round) and projecting it, in one transaction; the audit replays the same events through the
same projection into an empty database and compares (``dealer_console/employees/audit.py``).
An event carries the whole employee row after the change (the card as its salted hash and tag,
never the track data) and the whole log entry, so a row changed, added or deleted with SQL
differs from the replay.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.storage import eventlog

KIND_OF_ACTION = {
    "setup": "employee_set_up",
    "add": "employee_added",
    "disable": "employee_disabled",
    "enable": "employee_enabled",
    "recard": "employee_recarded",
    "role": "employee_role_changed",
    "pin": "employee_pin_set",
    "swipe_accepted": "swipe_accepted",
    "swipe_refused": "swipe_refused",
}
"""The event kind of each ``employee_log`` action."""

ACTION_OF_KIND = {kind: action for action, kind in KIND_OF_ACTION.items()}

CASINO_ACTOR = "the casino's staff list, change "
"""The actor of a change a table keeping the casino's list applied from the link's server,
followed by the change's number (``dealer_link/pit/replica.py``): the server checked the
executive's card and logged who (``pit_staff_log``)."""

CARRIED_OVER = "employees_carried_over"
"""What a registry held before its changes were events (written once, by the migration)."""

STAFF_KINDS = (*ACTION_OF_KIND, CARRIED_OVER)

BASE_COLUMNS = ("employee_id", "name", "role", "enabled", "card_tag", "card_hash",
                "created_at")
"""The employee row before PINs (what ``carry_over``, run by migration 0002, reads)."""
EMPLOYEE_COLUMNS = (*BASE_COLUMNS, "pin_hash")
"""The employee row: ``pin_hash`` (salted like a card, or None: no PIN on file) since
migration 0003; an event written before it carries no ``pin_hash`` and means None."""
LOG_COLUMNS = ("entry", "recorded_at", "employee_id", "action", "actor", "detail")

Row = dict[str, Any]


def employee_row(db: Database, employee_id: str) -> Row:
    """The stored row of an employee, as an event carries it."""
    row = db.execute(f"SELECT {', '.join(EMPLOYEE_COLUMNS)} FROM employees"
                     " WHERE employee_id = ?", [employee_id]).fetchone()
    if row is None:
        raise LookupError(f"no employee {employee_id!r}")
    return dict(zip(EMPLOYEE_COLUMNS, row, strict=True))


def record(db: Database, action: str, employee_id: str | None, actor: str, detail: str,
           employee: Row | None) -> eventlog.Event:
    """Append the event of one log entry (and of the employee's row after the change, when
    there is one) and write both tables from it; inside the caller's transaction."""
    at = clock.stamp()
    entry = int(db.execute("SELECT COALESCE(MAX(entry), 0) + 1 FROM employee_log")
                .fetchone()[0])
    payload: Row = {"log": {"entry": entry, "recorded_at": at, "employee_id": employee_id,
                            "action": action, "actor": actor, "detail": detail}}
    if employee is not None:
        payload["employee"] = {column: employee.get(column) for column in EMPLOYEE_COLUMNS}
    event = eventlog.append(db, KIND_OF_ACTION[action], payload, round_id=None,
                            recorded_at=at)
    project(db, event.kind, event.payload)
    return event


def project(db: Database, kind: str, payload: Row) -> None:
    """Write what a staff event says into ``employees`` and ``employee_log``."""
    if kind == CARRIED_OVER:
        for row in payload["employees"]:
            _put_employee(db, row)
        for entry in payload["log"]:
            _put_log(db, entry)
        return
    action = ACTION_OF_KIND.get(kind)
    if action is None or payload["log"]["action"] != action:
        raise ValueError(f"a {kind!r} event is not a staff event of its own log action")
    _put_log(db, payload["log"])
    if payload.get("employee") is not None:
        _put_employee(db, payload["employee"])


def _put_employee(db: Database, row: Row) -> None:
    values = [row.get(c) for c in EMPLOYEE_COLUMNS]
    updates = ", ".join(f"{c} = excluded.{c}" for c in EMPLOYEE_COLUMNS[1:])
    db.execute(f"INSERT INTO employees ({', '.join(EMPLOYEE_COLUMNS)})"
               f" VALUES ({', '.join('?' * len(values))})"
               f" ON CONFLICT (employee_id) DO UPDATE SET {updates}", values)


def _put_log(db: Database, entry: Row) -> None:
    values = [entry[c] for c in LOG_COLUMNS]
    db.execute(f"INSERT INTO employee_log ({', '.join(LOG_COLUMNS)})"
               f" VALUES ({', '.join('?' * len(values))})", values)


def carry_over(db: Database) -> None:
    """Put what an older registry holds into the event log as one event (nothing when it is
    empty); inside the migration's transaction. The audit can vouch for these rows only as
    far as they were when carried over."""
    employees = [dict(zip(BASE_COLUMNS, r, strict=True)) for r in db.execute(
        f"SELECT {', '.join(BASE_COLUMNS)} FROM employees ORDER BY employee_id")]
    log = [dict(zip(LOG_COLUMNS, r, strict=True)) for r in db.execute(
        f"SELECT {', '.join(LOG_COLUMNS)} FROM employee_log ORDER BY entry")]
    if employees or log:
        eventlog.append(db, CARRIED_OVER, {"employees": employees, "log": log},
                        round_id=None)


def ever_named_executive(db: Database) -> bool:
    """Whether any staff event ever put an executive on file (canonical JSON has no spaces,
    and a name's quotes are escaped, so the text below only matches a role)."""
    kinds = (CARRIED_OVER, *(KIND_OF_ACTION[a] for a in ("setup", "add", "role")))
    row = db.execute(
        f"SELECT 1 FROM events WHERE kind IN ({', '.join('?' * len(kinds))})"
        " AND instr(payload, '\"role\":\"executive\"') > 0 LIMIT 1", list(kinds)).fetchone()
    return row is not None
