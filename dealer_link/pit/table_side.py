"""A table reporting to the pit: its report built from the controller's view on the owner
thread (cheap: no database, no network), the shift's drop and hold read on the reporter's
thread from a connection of its own, and the report sent there (``reporter.py``), followed
by where the table's records end, for the server's witness (``witness.py``).

A table reports when it has a login on the link's server: ``DEALER_CONSOLE_LINK_DSN`` and
``DEALER_CONSOLE_TABLE_ID`` set (``docs/pit.md``); otherwise nothing starts.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.controller.controller import TableController
from dealer_console.controller.table_root import OpenTable
from dealer_console.controller.view import TableSnapshot
from dealer_console.link.health import HealthView
from dealer_console.reports.shift import shift_report
from dealer_console.storage.connection import TableDatabase
from dealer_console.table_db import open_for_reading
from dealer_console.table_name import TABLE_ID_VARIABLE
from dealer_link import server as link_server
from dealer_link.pit.replica import StaffFeed, applied_change, apply_pending, keeps_casino_list
from dealer_link.pit.report import DeviceState, TableReport
from dealer_link.pit.reporter import PitReporter
from dealer_link.pit.witness import ChainWitness
from dealer_link.settings import LinkError, dsn_from_environment, has_link_login

EVENTS_KEPT = 12
SHIFT_HOURS = 8
"""The shift the drop and hold are counted over: since the start of the current eight-hour
shift (00:00, 08:00, 16:00 local time)."""


def shift_start(now: datetime) -> datetime:
    return now.replace(hour=now.hour - now.hour % SHIFT_HOURS, minute=0, second=0,
                       microsecond=0)


def report_of(view: TableSnapshot, *, self_test: str, table_open: bool, link: HealthView | None,
              events: tuple[str, ...]) -> TableReport:
    """What the pit needs of ``view`` (figures are filled in on the reporter's thread)."""
    r = view.round
    seats = sorted({seat for seat, _ in r.wagers})
    round_text = (f"seats {', '.join(map(str, seats))} in play" if seats else "no wagers yet")
    if view.waiting_for:
        round_text += f"; {view.waiting_for}"
    if view.jackpot_pending:
        round_text += "; jackpot: " + ", ".join(
            f"seat {p.seat} {p.label} needs {p.needs}" for p in view.jackpot_pending)
    link_state = "none" if link is None else ("up" if link.up else link.reason or "down")
    return TableReport(
        table_id="", phase=r.phase.value, round_id=r.round_id, round_text=round_text[:2000],
        table_open=table_open, self_test=self_test,
        devices=tuple(DeviceState(d.title, d.connected and d.fault is None, d.fault or "")
                      for d in view.devices),
        link_state=link_state[:500], jackpots_waiting=len(view.jackpot_pending),
        drop_cents=0, hold_cents=0, events=events)


class ShiftFigures:
    """The shift's drop and hold, read (on the reporter's thread) from a read-only connection
    of its own, again only when the round moved on."""

    def __init__(self, db_path: Path, clock: Callable[[], datetime] = clock.now) -> None:
        self.db_path, self.clock = db_path, clock
        self._db: TableDatabase | None = None
        self._key: tuple[int | None, str] | None = None
        self._figures = (0, 0)

    def fill(self, report: TableReport) -> TableReport:
        key = (report.round_id, report.phase)
        if key != self._key:
            if self._db is None:
                self._db = open_for_reading(self.db_path)
            now = self.clock().astimezone()
            start = shift_start(now)
            shift = shift_report(self._db, start.isoformat(),
                                 (now + timedelta(seconds=1)).isoformat())
            self._figures, self._key = (shift.drop_cents, shift.hold_cents), key
        return replace(report, drop_cents=self._figures[0], hold_cents=self._figures[1])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class TableReporting:
    """The controller's listener (owner thread): builds the report on every view and offers
    it to the reporter thread, keeping the table's recent events in words."""

    def __init__(self, reporter: PitReporter, *, self_test: str = "passed",
                 link: Callable[[], HealthView | None] = lambda: None,
                 staff: Callable[[], str] | None = None) -> None:
        self.reporter, self.self_test, self.link = reporter, self_test, link
        self.staff = staff
        self.events: deque[str] = deque(maxlen=EVENTS_KEPT)
        self._last: tuple[int, str] | None = None
        self._notice = 0

    def __call__(self, view: TableSnapshot) -> None:
        now = clock.now().astimezone().strftime("%H:%M:%S")  # the floor's time of day
        step = (view.round.round_id, view.round.phase.value)
        if step != self._last:
            self.events.appendleft(f"{now} round {step[0]}: {step[1].replace('_', ' ')}")
            self._last = step
        if self.staff is not None:
            said = self.staff()
            if "(link down" in said and not any(
                    said in e for e in self.events):
                self.events.appendleft(f"{now} {said}"[:300])
        if view.notice is not None and view.notice.number != self._notice:
            self._notice = view.notice.number
            self.events.appendleft(f"{now} {view.notice.what}"[:300])
        self.reporter.offer(report_of(view, self_test=self.self_test, table_open=True,
                                      link=self.link(), events=tuple(self.events)))


def reporter_from_environment(db_path: Path, feed: StaffFeed | None = None
                              ) -> PitReporter | None:
    """A reporter for this table if it has a login on the link's server (both variables set),
    else None; a bad address is a :class:`LinkError` (the console says it at start).
    ``feed``: the casino's staff list's changes are fetched on each pass."""
    if not has_link_login():
        return None
    figures = ShiftFigures(db_path)
    witness = ChainWitness(db_path)

    def after_send(conn: link_server.Connection) -> None:
        witness.tell(conn)  # the server witnesses where the table's records end
        if feed is not None:
            feed.fetch(conn)

    def on_stop() -> None:
        figures.close()
        witness.close()

    return PitReporter(dsn_from_environment(), os.environ[TABLE_ID_VARIABLE],
                       prepare=figures.fill, on_stop=on_stop, after_send=after_send,
                       on_fail=feed.failed if feed is not None else None)


@dataclass
class Reporting:
    """A table's reporting to the pit and, where it keeps the casino's staff list, its
    replica's feed; the owner thread calls :meth:`apply_staff` now and then."""

    reporter: PitReporter
    feed: StaffFeed | None

    def apply_staff(self, db: Database) -> int:
        """Apply the casino's list's fetched changes (owner thread); how many."""
        return apply_pending(db, self.feed) if self.feed is not None else 0

    def stop(self) -> None:
        self.reporter.stop()


def start_reporting(controller: TableController, opened: OpenTable, *,
                    staff: bool = True) -> Reporting | None:
    """Report this table to the pit from now on (None: it has no login on the link's
    server), and keep the casino's staff list where its configuration says so. The caller
    stops it when the table closes and applies the staff list's changes on its thread.
    ``staff`` False: report only (``simulate``, whose staff are its own, applies no list)."""
    feed = (StaffFeed(*applied_change(opened.db)) if staff and keeps_casino_list()
            else None)
    reporter = reporter_from_environment(opened.db_path, feed)
    if reporter is None:
        return None
    hook = opened.link
    listener = TableReporting(
        reporter, link=(lambda: hook.health.view()) if hook is not None else (lambda: None),
        staff=feed.status if feed is not None else None)
    if feed is not None:  # the supervisor's staff screen says whose list, since when
        controller.staff.list_status = feed.status
        controller.staff.list_trouble = feed.trouble
    controller.add_listener(listener)
    listener(controller.snapshot())
    reporter.start()
    return Reporting(reporter, feed)


def report_closed(db_path: Path, failures: list[str]) -> PitReporter | None:
    """A table whose self-test failed stays closed: it says so to the pit (its heartbeat goes
    on while the failure screen shows). None: the table has no login on the link's server, or
    its address is refused (the failure screen already says what to mend)."""
    try:
        reporter = reporter_from_environment(db_path)
    except LinkError:
        return None
    if reporter is None:
        return None
    words = "; ".join(failures)[:500] or "the self-test failed"
    reporter.offer(TableReport("", "closed", None, "the table stays closed", False, words,
                               (), "none", 0, 0, 0, (f"self-test failed: {words}"[:300],)))
    reporter.start()
    return reporter


__all__ = ["LinkError", "Reporting", "ShiftFigures", "TableReporting", "report_closed",
           "report_of", "reporter_from_environment", "start_reporting"]
