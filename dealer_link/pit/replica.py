"""A table keeping the casino's staff list: a replica of the server's, applied in the
server's order and recorded in the table's own chain, so the table authorises from it while
the link is down.

A table's configuration says which list it keeps: ``DEALER_CONSOLE_STAFF=casino`` (with the
link's address and the table's name, ``docs/pit.md``) keeps the casino's; anything else
keeps the table's own list as before.

- **Fetched** by the pit's reporter thread (:class:`StaffFeed`, on the table's own login):
  every pass (a change or a heartbeat, at least every 2 s) asks for the changes after the
  last it has, and notes when the server last answered.
- **Applied** on the owner thread (:func:`apply_pending`, the only writer of the table's
  database): each change is a staff event of the table's hash-chained log
  (``employees/events.py``) whose actor names the change's number, so the number applied is
  read back from the chain itself and a change is never applied twice or out of order. The
  first change applied also takes the server's tag key, so a swipe at the table finds the
  casino's cards as the server does.
- **Kept whole**: the table's own staff commands refuse while it keeps the casino's list
  (``employees/changes.still_executive``): no table changes the list alone.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from datetime import UTC, datetime

from sqlite_utils import Database

from dealer_console.employees import events
from dealer_console.employees.changes import STAFF_VARIABLE, keeps_casino_list
from dealer_console.employees.registry import find
from dealer_console.storage.identity import StorageError
from dealer_link.pit.server import StaffChange, staff_key, staff_since
from dealer_link.server import Connection

log = logging.getLogger(__name__)
ACTOR = events.CASINO_ACTOR
DISABLE_BOUND_S = 5.0
"""A change made on the server is in force at every connected table within this: the
reporter's pass (at least every 2 s, ``alerts.HEARTBEAT_S``) fetches it and the owner thread
applies it within half a second (``ui/app.py``), with room for a loaded machine."""
__all__ = ["STAFF_VARIABLE", "StaffFeed", "applied_version", "apply_pending",
           "keeps_casino_list"]


def applied_version(db: Database) -> int:
    """The last change of the casino's list this table applied, read from its own log."""
    row = db.execute("SELECT actor FROM employee_log WHERE actor LIKE ? ORDER BY entry DESC "
                     "LIMIT 1", [ACTOR + "%"]).fetchone()
    return int(str(row[0])[len(ACTOR):]) if row else 0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _clock(stamp: str) -> str:
    """A stamp of :func:`_now` as the table's local time of day (what the floor reads)."""
    return datetime.fromisoformat(stamp).astimezone().strftime("%H:%M:%S")


class StaffFeed:
    """The changes fetched from the server (reporter thread) waiting for the owner thread."""

    def __init__(self, start_after: int = 0) -> None:
        self._lock = threading.Lock()
        self._pending: list[StaffChange] = []
        self._seen = start_after
        self._key: bytes | None = None
        self.heard_at: str | None = None
        """When the server last answered (UTC), or None: not yet."""
        self.failing_since: str | None = None
        """When the server stopped answering (UTC), or None: it answers."""
        self.problem = ""
        """Why the last changes fetched could not be applied, or empty."""

    def fetch(self, conn: Connection) -> int:
        """Ask for the changes after the newest one held; how many came (reporter thread)."""
        key = self._key if self._key is not None else staff_key(conn)
        with self._lock:
            after = self._seen
        changes = staff_since(conn, after)
        with self._lock:
            self._key = key
            fresh = [c for c in changes if c.version > self._seen]
            self._pending.extend(fresh)
            if fresh:
                self._seen = fresh[-1].version
            self.heard_at, self.failing_since = _now(), None
        return len(fresh)

    def failed(self) -> None:
        with self._lock:
            if self.failing_since is None:
                self.failing_since = _now()

    def rewind(self, before: int, problem: str) -> None:
        """Changes taken but not applied (the table's file refused the write): forget them
        and everything after, so the next pass asks the server again from ``before`` (a
        change taken is never silently lost: a disable would then never reach this table)."""
        with self._lock:
            self._pending, self._seen = [], min(self._seen, before)
            self.problem = problem[:200]

    def settled(self) -> None:
        """The changes taken were applied: no problem to say."""
        with self._lock:
            self.problem = ""

    def take(self) -> tuple[bytes | None, list[StaffChange]]:
        with self._lock:
            pending, self._pending = self._pending, []
            return self._key, pending

    def status(self) -> str:
        """What the table says of its list, in words: while the server does not answer,
        since when its copy is (the last time the server answered; the same words for the
        whole outage, so the pit's events say it once)."""
        with self._lock:
            if self.failing_since is not None:
                if self.heard_at is None:
                    return (f"staff list: the casino's, copy as this table last applied it "
                            f"(link down since {_clock(self.failing_since)})")
                return (f"staff list: the casino's, copy from {_clock(self.heard_at)} "
                        f"(link down)")
            if self.problem:
                return (f"staff list: the casino's, changes after {self._seen} not applied "
                        f"yet ({self.problem}); asked again")
            if self.heard_at is None:
                return "staff list: the casino's, not yet heard from the server"
            return (f"staff list: the casino's, change {self._seen}, heard "
                    f"{_clock(self.heard_at)}")


def apply_pending(db: Database, feed: StaffFeed) -> int:
    """Apply the fetched changes not yet in this table's log, in the server's order, each a
    staff event of the chain (owner thread). Returns how many were applied."""
    key, changes = feed.take()
    if not changes:
        return 0  # the usual case, every half second: nothing to write
    try:
        done = _apply_all(db, key, changes)
    except (sqlite3.Error, StorageError) as exc:  # a busy or full file: asked again
        log.warning("the casino's staff list's changes were not applied: %s", exc)
        feed.rewind(min(c.version for c in changes) - 1, str(exc))
        return 0
    feed.settled()
    return done


def _apply_all(db: Database, key: bytes | None, changes: list[StaffChange]) -> int:
    done = 0
    with db.atomic():
        last = applied_version(db)
        if key is not None:
            db.execute("UPDATE employee_secret SET secret = ? WHERE id = 1 AND secret <> ?",
                       [key, key])
        if last == 0:
            _set_aside(db, {c.employee_id.casefold() for c in changes})
        for change in sorted(changes, key=lambda c: c.version):
            if change.version <= last:
                continue
            _apply(db, change)
            last = change.version
            done += 1
    return done


def _set_aside(db: Database, casino: set[str]) -> None:
    """The first time: the table's own employees not on the casino's list are disabled (its
    list is the casino's from now on), each a staff event of the chain."""
    for (employee_id,) in db.execute("SELECT employee_id FROM employees WHERE enabled = 1 "
                                     "ORDER BY employee_id").fetchall():
        if str(employee_id).casefold() in casino:
            continue
        row = events.employee_row(db, str(employee_id))
        row["enabled"] = 0
        events.record(db, "disable", str(employee_id), f"{ACTOR}0",
                      "not on the casino's staff list, which this table now keeps", row)


def _apply(db: Database, change: StaffChange) -> None:
    old = find(db, change.employee_id)
    employee_id = change.employee_id if old is None else old.employee_id
    row: dict[str, object] = {
        "employee_id": employee_id, "name": change.name, "role": change.role,
        "enabled": int(change.enabled), "card_tag": change.card_tag,
        "card_hash": change.card_hash, "created_at": _now(), "pin_hash": None}
    if old is None:
        action = "add"
    else:
        before = events.employee_row(db, old.employee_id)
        row["employee_id"], row["created_at"] = employee_id, before["created_at"]
        row["pin_hash"] = before["pin_hash"]
        if old.enabled != change.enabled:
            action = "enable" if change.enabled else "disable"
        elif before["card_hash"] != change.card_hash:
            action = "recard"
        else:
            action = "role"
    detail = (f"{change.name}, {change.role}{'' if change.enabled else ', disabled'}: "
              f"applied from the casino's staff list")
    events.record(db, action, employee_id, f"{ACTOR}{change.version}", detail, row)
