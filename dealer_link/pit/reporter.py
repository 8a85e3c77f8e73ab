"""The table's reporter: a thread that sends the table's report to the pit, on every change
and as a heartbeat, on a connection of its own.

The owner thread only :meth:`PitReporter.offer` s a new report (a lock-guarded value and an
event), never waits for the network, as the link's sender (``link/sender.py``). The
reporter sends the newest report only (a change overtaken by another is not sent), and
every :data:`~dealer_link.pit.alerts.HEARTBEAT_S` even when nothing changed, so the pit
tells a quiet table from a lost one. A server that does not answer is retried with a
growing pause; the table plays on (the pit then shows the heartbeat lost).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.alerts import HEARTBEAT_S
from dealer_link.pit.report import TableReport
from dealer_link.settings import LinkError

MAX_PAUSE_S = 5.0
STATEMENT_TIMEOUT_S = 5.0

log = logging.getLogger(__name__)


class PitReporter(threading.Thread):
    """Sends ``table_id``'s reports to the link's server at ``dsn`` (the table's own login)."""

    def __init__(self, dsn: str, table_id: str, *, heartbeat_s: float = HEARTBEAT_S,
                 prepare: Callable[[TableReport], TableReport] | None = None,
                 on_stop: Callable[[], object] | None = None,
                 after_send: Callable[[link_server.Connection], object] | None = None,
                 on_fail: Callable[[], object] | None = None) -> None:
        """``prepare`` completes a report on this thread before it is sent (the shift's
        figures, read from the table's file); ``on_stop`` closes what it opened;
        ``after_send`` runs on the same connection after each report (the staff list's
        changes fetched), ``on_fail`` when a pass fails."""
        super().__init__(name=f"pit-reporter-{table_id}", daemon=True)
        self.dsn, self.table_id, self.heartbeat_s = dsn, table_id, heartbeat_s
        self._prepare, self._on_stop = prepare, on_stop
        self._after_send, self._on_fail = after_send, on_fail
        self._lock = threading.Lock()
        self._latest: TableReport | None = None
        self._fresh = False
        self._wake = threading.Event()
        self._halt = threading.Event()
        self._conn: link_server.Connection | None = None
        self.sent = 0
        """Reports the server accepted (for the tests and the benchmark)."""
        self.problem = ""
        """Why the last send failed, or empty."""

    def offer(self, report: TableReport) -> None:
        """The table's newest report (any thread; returns at once)."""
        with self._lock:
            if report == self._latest:
                return
            self._latest, self._fresh = report, True
        self._wake.set()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._halt.set()
        self._wake.set()
        if self.is_alive():
            self.join(timeout_s)

    def run(self) -> None:
        pause = 0.0
        last_sent = 0.0
        try:
            while not self._halt.is_set():
                due = last_sent + self.heartbeat_s - time.monotonic()
                self._wake.wait(pause if pause else max(due, 0.0))
                self._wake.clear()
                if self._halt.is_set():
                    break
                with self._lock:
                    report, fresh = self._latest, self._fresh
                if report is None or (not fresh and
                                      time.monotonic() - last_sent < self.heartbeat_s):
                    continue
                try:
                    ready = self._prepare(report) if self._prepare else report
                except Exception as exc:  # the figures unread: the rest is still worth sending
                    log.warning("pit report of %s without its figures: %s", self.table_id, exc)
                    ready = report
                try:
                    self.send(ready)
                except LinkError as exc:
                    self.problem = str(exc)
                    self._close()
                    if self._on_fail is not None:
                        self._on_fail()
                    pause = min(MAX_PAUSE_S, max(0.25, pause * 2))
                    continue
                with self._lock:
                    if self._latest is report:
                        self._fresh = False
                pause, last_sent = 0.0, time.monotonic()
        finally:
            self._close()
            if self._on_stop is not None:
                self._on_stop()

    def send(self, report: TableReport) -> None:
        """Send ``report`` now, on this thread (a :class:`LinkError` if the server fails)."""
        if self._conn is None or self._conn.closed:
            self._conn = link_server.connect(self.dsn, who=f"{self.table_id} pit",
                                             statement_timeout_s=STATEMENT_TIMEOUT_S)
        try:
            server.send_report(self._conn, report)
            if self._after_send is not None:
                self._after_send(self._conn)
        except LinkError:
            raise
        except Exception as exc:  # the driver's own error: the connection is not trusted
            raise LinkError(f"the pit's report was not sent: {exc}") from None
        self.sent += 1
        self.problem = ""

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
