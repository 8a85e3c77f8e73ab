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
- **A server gone back** (restored from a backup) reuses the lost changes' numbers, never
  their random marks: each pass first asks whether the server still holds the table's last
  change (:meth:`StaffFeed.fetch`); when not, the whole list is taken and only what gives no
  right back is applied (:func:`_take_whole`), the rest held back until made again.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
from datetime import datetime

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.employees import events
from dealer_console.employees.changes import STAFF_VARIABLE, keeps_casino_list
from dealer_console.employees.pins import WRONG_MARK
from dealer_console.employees.registry import find
from dealer_console.storage.identity import StorageError
from dealer_link.pit.server import StaffChange, pin_wrong, staff_holds, staff_key, staff_since
from dealer_link.server import Connection

log = logging.getLogger(__name__)
ACTOR = events.CASINO_ACTOR
DISABLE_BOUND_S = 5.0
"""A change made on the server is in force at every connected table within this: the
reporter's pass (at least every 2 s, ``alerts.HEARTBEAT_S``) fetches it and the owner thread
applies it within half a second (``ui/app.py``), with room for a loaded machine."""
__all__ = ["STAFF_VARIABLE", "StaffFeed", "applied_change", "applied_version",
           "apply_pending", "keeps_casino_list", "parse_actor"]

Point = tuple[int, str]
"""A change of the casino's list by its number and its mark: where a table's fetch resumes."""

_ACTOR_TAIL = re.compile(r"^(\d+)(?: \((?:mark ([0-9a-f]+))?(?:; )?"
                         r"(?:the list taken whole at change (\d+), mark ([0-9a-f]*))?\))?$")


def _actor(version: int, mark: str, whole: Point | None = None) -> str:
    """The actor of a change applied from the list: its number, its mark, and after the
    server went back the point the list was taken whole at (where the next fetch resumes,
    so a change held back then is not applied by a restart)."""
    parts = [f"mark {mark}"] if mark else []
    if whole is not None:
        parts.append(f"the list taken whole at change {whole[0]}, mark {whole[1]}")
    return f"{ACTOR}{version}" + (f" ({'; '.join(parts)})" if parts else "")


def parse_actor(actor: str) -> Point | None:
    """The change (number, mark) an actor of :func:`_actor` names, or None for another form."""
    found = _ACTOR_TAIL.match(actor[len(ACTOR):]) if actor.startswith(ACTOR) else None
    return None if found is None else (int(found.group(1)), found.group(2) or "")


def applied_change(db: Database) -> Point:
    """Where this table's replica resumes, read from its own log: the last change of the
    casino's list it applied (or the point it last took the whole list at)."""
    row = db.execute("SELECT actor FROM employee_log WHERE actor LIKE ? ORDER BY entry DESC "
                     "LIMIT 1", [ACTOR + "%"]).fetchone()
    if row is None:
        return 0, ""
    found = _ACTOR_TAIL.match(str(row[0])[len(ACTOR):])
    if found is None:  # not a form this console writes: the list is taken whole again
        return 1, ""
    if found.group(3) is not None:
        return int(found.group(3)), found.group(4)
    return int(found.group(1)), found.group(2) or ""


def applied_version(db: Database) -> int:
    """The number of the last change of the casino's list this table applied."""
    return applied_change(db)[0]


def _now() -> str:
    return clock.stamp("seconds")


def _clock(stamp: str) -> str:
    """A stamp of :func:`_now` as the table's local time of day (what the floor reads)."""
    return datetime.fromisoformat(stamp).astimezone().strftime("%H:%M:%S")


class StaffFeed:
    """The changes fetched from the server (reporter thread) waiting for the owner thread."""

    def __init__(self, start_after: int = 0, mark: str = "") -> None:
        self._lock = threading.Lock()
        self._pending: list[StaffChange] = []
        self._whole = False
        """The pending changes are the whole list, taken after the server went back."""
        self._seen: Point = (start_after, mark)
        self._applied: Point = (start_after, mark)
        self._key: bytes | None = None
        self.heard_at: str | None = None
        """When the server last answered (UTC), or None: not yet."""
        self.failing_since: str | None = None
        """When the server stopped answering (UTC), or None: it answers."""
        self.problem = ""
        """Why the last changes fetched could not be applied, or empty."""
        self._gone_back: tuple[int, str] | None = None
        """The change the server no longer held and when the list was taken whole, or
        None: it never went back while this console ran."""
        self._went_back_shown = False
        """The dealer's top strip says the server went back, until a change made after it
        is applied here (the floor has acted) or the console restarts."""
        self._held_back = 0
        """Changes held back when the list was last taken whole."""
        self._wrong_pins: list[tuple[str, int]] = []
        """Wrong PINs typed here (employee, the table's log entry) not yet reported."""
        self._wrong_after: int | None = None
        """The last log entry looked at for wrong PINs (None: not yet: from now on)."""

    @property
    def went_back(self) -> str:
        """What the table did when the server no longer held its last change, or empty."""
        if self._gone_back is None:
            return ""
        lost, at = self._gone_back
        words = (f"the server no longer holds change {lost} this table applied (restored "
                 f"from a backup?): its list taken whole at {at}")
        if self._held_back:
            words += (f"; {self._held_back} change(s) held back (an enable, a role, a card or "
                      f"a PIN the server's older list would give back): an executive makes "
                      f"them again at the pit")
        return words

    def fetch(self, conn: Connection) -> int:
        """Ask for the changes after the newest one held; how many came (reporter thread).

        A server restored from a backup numbers its next changes as the lost ones were: the
        table would skip them (a disable among them). So each pass first asks whether the
        server still holds the table's last change, by number and mark; when it does not,
        the whole list is taken (:func:`apply_pending` says what it applies of it)."""
        key = self._key if self._key is not None else staff_key(conn)
        self._report_wrong_pins(conn)  # before the changes: a PIN taken off comes with them
        with self._lock:
            after, mark = self._seen
        whole = after > 0 and not staff_holds(conn, after, mark)
        changes = staff_since(conn, 0 if whole else after)
        with self._lock:
            self._key = key
            self.heard_at, self.failing_since = _now(), None
            if whole:
                self._pending, self._whole = list(changes), True
                self._seen = (changes[-1].version, changes[-1].mark) if changes else (0, "")
                self._gone_back = (after, _clock(self.heard_at))
                self._held_back = 0  # counted again by this taking
                self._went_back_shown = True
                return len(changes)
            fresh = [c for c in changes if c.version > self._seen[0]]
            self._pending.extend(fresh)
            if fresh:
                self._seen = (fresh[-1].version, fresh[-1].mark)
                self._went_back_shown = False
        return len(fresh)

    def note_wrong_pins(self, db: Database) -> None:
        """Owner thread: queue the wrong PINs typed here since the last look, for the
        server's count over the floor (``pit/sql_pins.py``). The first look starts from
        now: the log's older wrong PINs were this table's alone."""
        if self._wrong_after is None:
            row = db.execute("SELECT COALESCE(MAX(entry), 0) FROM employee_log").fetchone()
            self._wrong_after = int(row[0])
            return
        rows = db.execute("SELECT entry, employee_id FROM employee_log WHERE entry > ? AND "
                          "action = 'swipe_refused' AND detail LIKE ? ORDER BY entry",
                          [self._wrong_after, f"%{WRONG_MARK}%"]).fetchall()
        last = db.execute("SELECT COALESCE(MAX(entry), 0) FROM employee_log").fetchone()
        self._wrong_after = int(last[0])
        with self._lock:
            self._wrong_pins.extend((str(e), int(n)) for n, e in rows if e is not None)

    def _report_wrong_pins(self, conn: Connection) -> None:
        """Reporter thread: each wrong PIN queued, to the server; one that fails stays for
        the next pass (the server counts a resent one once)."""
        while True:
            with self._lock:
                if not self._wrong_pins:
                    return
                employee_id, entry = self._wrong_pins[0]
            answer = pin_wrong(conn, employee_id, entry)
            if answer == "locked":
                log.warning("the server took %s's PIN off the casino's list after wrong PINs "
                            "across the floor", employee_id)
            with self._lock:
                self._wrong_pins.pop(0)

    def failed(self) -> None:
        with self._lock:
            if self.failing_since is None:
                self.failing_since = _now()

    def rewind(self, problem: str) -> None:
        """Changes taken but not applied (the table's file refused the write): forget them,
        so the next pass asks the server again from the last point applied (a change taken
        is never silently lost: a disable would then never reach this table)."""
        with self._lock:
            self._pending, self._whole = [], False
            self._seen = self._applied
            self.problem = problem[:200]

    def settled(self, point: Point, held_back: int = 0) -> None:
        """The changes taken were applied up to ``point``: no problem to say."""
        with self._lock:
            self._applied = point
            self.problem = ""
            if held_back:
                self._held_back = held_back

    def take(self) -> tuple[bytes | None, list[StaffChange], bool]:
        with self._lock:
            pending, self._pending = self._pending, []
            whole, self._whole = self._whole, False
            return self._key, pending, whole

    def trouble(self) -> tuple[str, str] | None:
        """What is wrong with the table's copy and what to do, for the dealer's top strip
        and the table's report to the pit (None: the copy is the server's as last heard)."""
        with self._lock:
            if self.failing_since is not None:
                since = (f"from {_clock(self.heard_at)}" if self.heard_at is not None
                         else "as this table last applied it")
                # one line in the dealer's top strip, nothing for the dealer to do (the
                # link's own line says to call the technician); the risk, a card disabled
                # at the pit since then still working here, is the staff screen's and
                # docs/pit.md's
                return f"this table's copy {since} (link down)", ""
            if self.problem:
                return (f"the casino's changes after {self._seen[0]} are not applied yet",
                        "asked again every few seconds; call the technician if it stays")
            if self._went_back_shown:
                held = self._held_back
                return ("the link's server went back (restored?)"
                        + (f"; {held} change(s) held back" if held else ""),
                        "an executive makes them again at the pit" if held else "")
            return None

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
                return (f"staff list: the casino's, changes after {self._seen[0]} not "
                        f"applied yet ({self.problem}); asked again")
            if self.went_back:
                return f"staff list: the casino's; {self.went_back}"
            if self.heard_at is None:
                return "staff list: the casino's, not yet heard from the server"
            return (f"staff list: the casino's, change {self._seen[0]}, heard "
                    f"{_clock(self.heard_at)}")


def apply_pending(db: Database, feed: StaffFeed) -> int:
    """Apply the fetched changes not yet in this table's log, in the server's order, each a
    staff event of the chain (owner thread). Returns how many were applied."""
    feed.note_wrong_pins(db)
    key, changes, whole = feed.take()
    if not changes:
        return 0  # the usual case, every half second: nothing to write
    try:
        if whole:
            done, held_back = _take_whole(db, key, changes)
        else:
            done, held_back = _apply_all(db, key, changes), 0
    except (sqlite3.Error, StorageError) as exc:  # a busy or full file: asked again
        log.warning("the casino's staff list's changes were not applied: %s", exc)
        feed.rewind(str(exc))
        return 0
    feed.settled(applied_change(db) if done else (changes[-1].version, changes[-1].mark),
                 held_back)
    return done


def _apply_all(db: Database, key: bytes | None, changes: list[StaffChange]) -> int:
    done = 0
    with db.atomic():
        last = applied_version(db)
        _take_key(db, key)
        if last == 0:
            _set_aside(db, {c.employee_id.casefold() for c in changes})
        for change in sorted(changes, key=lambda c: c.version):
            if change.version <= last:
                continue
            _apply(db, change)
            last = change.version
            done += 1
    return done


def _take_key(db: Database, key: bytes | None) -> None:
    if key is not None:
        db.execute("UPDATE employee_secret SET secret = ? WHERE id = 1 AND secret <> ?",
                   [key, key])


def _rights(before: dict[str, object], change: StaffChange) -> bool:
    """Whether the change leaves the employee's role, card and PIN as the table has them."""
    return (before["role"], before["card_hash"], before["pin_hash"]) == (
        change.role, change.card_hash, change.pin_hash)


def _takes_away(before: dict[str, object], change: StaffChange) -> bool:
    """Whether a change of the whole list may be applied after the server went back: the
    server's older list may still give rights the table's newer copy took away (a card
    disabled or replaced, a role lowered, a PIN changed after it leaked), so only what gives
    none back is applied."""
    if not change.enabled:
        return True  # disabled, whatever else it says
    return bool(before["enabled"]) and _rights(before, change)


def _take_whole(db: Database, key: bytes | None,
                changes: list[StaffChange]) -> tuple[int, int]:
    """The server went back (``StaffFeed.fetch``): its whole list against the table's copy.
    Applied: employees it has that the table lacks, disables, names; the table's employees
    of the casino's list it no longer has are disabled. Held back: an enable, a role, a PIN or a
    card it would give back, until an executive makes the change again at the pit (a new
    change, applied as any). Every event written names the point taken, where the next
    fetch resumes. Returns (applied, held back)."""
    point = (changes[-1].version, changes[-1].mark)
    done = held_back = 0
    with db.atomic():
        _take_key(db, key)
        listed = {c.employee_id.casefold() for c in changes}
        for (employee_id,) in db.execute(
                "SELECT DISTINCT l.employee_id FROM employee_log l JOIN employees e ON "
                "e.employee_id = l.employee_id WHERE e.enabled = 1 AND l.actor LIKE ? "
                "ORDER BY l.employee_id", [ACTOR + "%"]).fetchall():
            if str(employee_id).casefold() in listed:
                continue
            row = events.employee_row(db, str(employee_id))
            row["enabled"] = 0
            events.record(db, "disable", str(employee_id), _actor(0, "", point),
                          "no longer on the casino's staff list (the server went back)", row)
            done += 1
        for change in changes:
            old = find(db, change.employee_id)
            if old is not None:
                before = events.employee_row(db, old.employee_id)
                if (old.enabled == change.enabled and before["name"] == change.name
                        and _rights(before, change)):  # nothing to apply
                    continue
                if not _takes_away(before, change):
                    held_back += 1
                    continue
            _apply(db, change, point)
            done += 1
    return done, held_back


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


def _apply(db: Database, change: StaffChange, whole: Point | None = None) -> None:
    old = find(db, change.employee_id)
    employee_id = change.employee_id if old is None else old.employee_id
    row: dict[str, object] = {
        "employee_id": employee_id, "name": change.name, "role": change.role,
        "enabled": int(change.enabled), "card_tag": change.card_tag,
        "card_hash": change.card_hash, "created_at": _now(), "pin_hash": change.pin_hash}
    before: dict[str, object] = {"pin_hash": change.pin_hash}
    if old is None:
        action = "add"
    else:
        before = events.employee_row(db, old.employee_id)
        row["employee_id"], row["created_at"] = employee_id, before["created_at"]
        if old.enabled != change.enabled:
            action = "enable" if change.enabled else "disable"
        elif before["card_hash"] != change.card_hash:
            action = "recard"
        elif before["pin_hash"] != change.pin_hash:
            action = "pin"  # the table's PIN lock counts again from here, as at a table
        else:
            action = "role"
    pin_words = ("" if action != "pin" else ", PIN taken off" if change.pin_hash is None
                 else ", PIN changed")
    detail = (f"{change.name}, {change.role}{'' if change.enabled else ', disabled'}"
              f"{pin_words}: applied from the casino's staff list")
    actor = _actor(change.version, change.mark, whole)
    events.record(db, action, employee_id, actor, detail, row)
    if action not in ("add", "pin") and before["pin_hash"] != change.pin_hash:
        # a new PIN with another change: its own entry, so the PIN lock counts from it
        events.record(db, "pin", employee_id, actor,
                      f"{change.name}: PIN changed, applied from the casino's staff list", row)
