"""A manual back-out of a confirmed award (Washington, Rules of Play item 9 h): the award's
meter entries reversed exactly, the hit kept on record, the adjustment naming who and why.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.employees import registry
from dealer_console.employees.authorize import Refused as SwipeRefused
from dealer_console.employees.authorize import log_accepted, permits
from dealer_console.employees.registry import Employee, Role
from dealer_console.jackpot.games import JackpotError, ledger
from dealer_console.jackpot.hits import HitRecord, get_hit
from dealer_console.jackpot.schema import BACKED_OUT
from dealer_console.storage import eventlog


def back_out_by(db: Database, *, hit_id: int, reason: str, employee_id: str) -> int:
    """Back a confirmed award out for ``employee_id``, whose executive's swipe was already
    authorised and logged (the console's card prompt): the employee is checked again (a
    withdrawn card or a lower role is refused, nothing written), never by their card.

    The meter entries of the hit are reversed exactly (the award returns to the meter; a 100%
    award's reset is taken back and the reserve restored). The hit itself stays on record; the
    adjustment refers to it and names who backed it out and why. Returns the adjustment's id.
    """
    hit = _backable(db, hit_id, reason)
    allowed = permits(registry.get(db, employee_id), Role.EXECUTIVE)
    if isinstance(allowed, SwipeRefused):
        raise allowed
    return _back_out(db, hit, reason, allowed, log_swipe=None)


def back_out_problem(db: Database, hit_id: int, reason: str) -> str | None:
    """Why award ``hit_id`` cannot be backed out with ``reason`` now, or None (nothing is
    written): a screen asks before it wants the executive's card."""
    try:
        _backable(db, hit_id, reason)
    except JackpotError as exc:
        return str(exc)
    return None


def _backable(db: Database, hit_id: int, reason: str) -> HitRecord:
    if not reason.strip():
        raise JackpotError("a back-out needs a reason")
    hit = get_hit(db, hit_id)
    if hit.backed_out:
        raise JackpotError(f"jackpot hit {hit_id} is already backed out")
    if hit.link is not None:  # the shared meter is the link server's, not this table's
        raise JackpotError(f"jackpot hit {hit_id} was paid from the shared meter of link "
                           f"{hit.link} (its hit {hit.link_hit_id}): a back-out is made on the "
                           "link's server by its operator, not at a table")
    link = _tray_reported_to(db, hit)
    if link is not None:  # the link counts it paid; a back-out here would never reach it
        raise JackpotError(f"jackpot hit {hit_id} is a tray pay of link {link}'s game, "
                           "reported to the link as paid (the link was down when it was "
                           "paid): a back-out is made on the link's server by its operator, "
                           "not at a table")
    return hit


def _tray_reported_to(db: Database, hit: HitRecord) -> str | None:
    """The link a tray pay of a linked game was owed to as a report (``link/outbox.py``)."""
    if not db["link_tray_owed"].exists():
        return None
    row = db.execute("SELECT link FROM link_tray_owed WHERE round_id = ? AND spot = ? AND "
                     "seat = ? LIMIT 1", [hit.round_id, hit.spot, hit.seat]).fetchone()
    return None if row is None else str(row[0])


def _back_out(db: Database, hit: HitRecord, reason: str, employee: Employee, *,
              log_swipe: str | None) -> int:
    with db.atomic():
        at = clock.stamp()
        adjustment_id = 1 + int(db.execute(
            "SELECT COALESCE(MAX(adjustment_id), 0) FROM jackpot_adjustments").fetchone()[0])
        fact = {"hit_id": hit.hit_id, "adjustment_id": adjustment_id,
                "reason": reason.strip(), "employee_id": employee.employee_id,
                "employee_name": employee.name}
        if eventlog.has_log(db):
            eventlog.append(db, BACKED_OUT, fact, round_id=None, recorded_at=at)
        write_back_out(db, hit, fact, recorded_at=at)
        if log_swipe is not None:
            log_accepted(db, employee, f"{log_swipe} (adjustment {adjustment_id})")
    return adjustment_id


def write_back_out(db: Database, hit: HitRecord, fact: dict[str, Any], *,
                   recorded_at: str) -> None:
    """The adjustment's row and the reversed meter entries (console and audit rebuild)."""
    db.execute(
        "INSERT INTO jackpot_adjustments (adjustment_id, hit_id, reason, employee_id, "
        "employee_name, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
        [fact["adjustment_id"], hit.hit_id, fact["reason"], fact["employee_id"],
         fact["employee_name"], recorded_at],
    )
    entries = db.execute(
        "SELECT level, SUM(meter_delta_micro), SUM(reserve_delta_micro) FROM jackpot_ledger "
        "WHERE hit_id = ? GROUP BY level ORDER BY level", [hit.hit_id],
    ).fetchall()
    for level, meter_delta, reserve_delta in entries:
        ledger(db, hit.spot, str(level), "adjustment", -int(meter_delta),
                -int(reserve_delta), round_id=hit.round_id, seat=hit.seat,
                hit_id=hit.hit_id, adjustment_id=int(fact["adjustment_id"]))
