"""The sender: a thread that delivers a table's outbox to the link and keeps its health.

It never runs on the GUI thread or the controller's owner thread: those only read
:class:`LinkHealth` (a lock-guarded value), so a slow or dead server never blocks a touch or a
device. The sender opens its own connections, to the table's SQLite file and to the server.
Each pass sends the oldest undelivered wagers in one server transaction, then moves its mark
(``link/progress.py``; it never writes to the table's file); a crash between the two resends
them and the server's idempotency key skips them (nothing doubled). While the server cannot
be reached the health says so (the table then refuses new jackpot wagers at START GAME) and
the sender retries with a growing pause, up to :data:`MAX_PAUSE_S`.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path

import psycopg
from sqlite_utils import Database

from dealer_console.jackpot_values.config import GameConfig
from dealer_console.link import outbox
from dealer_console.link.health import LinkHealth, now
from dealer_console.link.progress import Progress
from dealer_console.money import format_cents
from dealer_console.storage.connection import connect
from dealer_console.storage.identity import StorageError
from dealer_link import server
from dealer_link.settings import LinkError, LinkRefused

MAX_PAUSE_S = 5.0
SEND_TIMEOUT_S = 5.0
"""The longest one delivery may take on the server (``statement_timeout``): a hung server (a
lock held, a frozen connection) turns the link down within it, saying so, instead of a
health that says "up" while nothing arrives."""
DRAIN_BOUND_S = 8.0
"""How long a closing table keeps delivering what it owes (inside ``stop``'s 10 s)."""

log = logging.getLogger(__name__)




class OutboxSender(threading.Thread):
    """Delivers ``table_id``'s wagers owed to ``link`` from the table database at ``db_path``."""

    def __init__(self, db_path: str | Path, *, link: str, table_id: str, dsn: str,
                 game: GameConfig, health: LinkHealth | None = None,
                 interval_s: float = 0.2, timeout_s: float = SEND_TIMEOUT_S) -> None:
        super().__init__(name=f"link-sender-{link}", daemon=True)
        self.db_path = str(db_path)
        self.link, self.table_id, self.dsn, self.game = link, table_id, dsn, game
        self.health = health or LinkHealth()
        self.interval_s = interval_s
        self.timeout_s = timeout_s
        self.still_owed = 0
        """What the table still owed the link when it stopped (0: everything delivered)."""
        self._halt = threading.Event()
        self._conn: server.Connection | None = None
        self._db: Database | None = None
        self._progress: Progress | None = None
        self._disk_trouble = False

    def stop(self, timeout_s: float = 10.0) -> None:
        self._halt.set()
        if self.is_alive():
            self.join(timeout_s)

    def run(self) -> None:
        pause = self.interval_s
        try:
            while not self._halt.is_set():
                try:
                    sent = self.drain_once()
                    pause = self.interval_s
                    if sent:
                        continue
                except LinkError as exc:
                    self._drop(str(exc))
                    pause = min(MAX_PAUSE_S, pause * 2)
                except (sqlite3.Error, OSError, StorageError) as exc:
                    # the table PC's own disk (full, failing), not the link: this thread died
                    # on a full disk (a test of a linked hit on one found it), and no wager
                    # was delivered again until the console restarted. A batch sent but not
                    # noted is sent again, and the server counts it once.
                    self._disk_trouble = True
                    self.health.warn(f"deliveries to the link cannot be noted on this table "
                                     f"PC ({exc}): they go on once its disk takes writes")
                    pause = min(MAX_PAUSE_S, pause * 2)
                else:
                    if self._disk_trouble:
                        self._disk_trouble = False
                        self.health.warn("")
                self._halt.wait(pause)
            self._last_deliveries()
        finally:
            self._close()

    def _last_deliveries(self) -> None:
        """As the table closes: deliver what it owes, up to :data:`DRAIN_BOUND_S`, and say
        what is still owed (it stays in the table's outbox, sent when the table next runs).
        A link down as the table closes is tried too, on a new connection: a cut or a server
        restart a moment before had left the sender waiting out its pause, and the table
        closed owing wagers a server already back would have taken (the soak's tables did,
        one run in seven). The first failure ends it."""
        deadline = time.monotonic() + DRAIN_BOUND_S
        while time.monotonic() < deadline:
            try:
                if not self.drain_once():
                    break
            except LinkError as exc:
                self._drop(str(exc))
                break
            except (sqlite3.Error, OSError, StorageError):
                break  # the table PC's disk: what is owed stays owed, sent at the next start
        self.still_owed = self.owed()
        if self.still_owed:
            log.warning("link %s: table %s closes owing %d jackpot wagers to the link (kept in "
                        "its outbox, sent when it next runs)", self.link, self.table_id,
                        self.still_owed)

    def drain_once(self, limit: int = 500) -> int:
        """One pass: deliver up to ``limit`` owed wagers; returns how many were sent.
        A failure of the link is a :class:`LinkError` (the health says it too)."""
        db, progress = self._local()
        try:
            conn = self._server()  # a reconnect may rewind the mark (the server lost some)
            batch = outbox.undelivered(db, self.link, self.table_id, progress.last(self.link),
                                       limit)
            if batch:
                server.contribute(conn, self.link, self.table_id, [o for _, o in batch])
            else:  # every wager delivered first: the server knows a reported tray pay's wager
                server.touch(conn, self.link, self.table_id)
                self._report_trays(conn, db, progress)
            self.health.set_meters(self.link, server.meter_states(conn, self.link))
        except psycopg.errors.QueryCanceled:
            ended = self._end_stuck()
            raise LinkError(f"the link server did not answer within {self.timeout_s:g} s "
                            + (f": it {ended}" if ended else
                               "(it may be hung or its connection frozen)")) from None
        except psycopg.Error as exc:
            raise LinkError(f"the link server stopped answering: "
                            f"{str(exc).strip().splitlines()[0] if str(exc).strip() else exc}"
                            ) from None
        if batch:
            progress.advance(self.link, batch[-1][0], now())
        self.health.up(self.owed())
        return len(batch)

    def _end_stuck(self) -> str | None:
        """A delivery timed out: have the server end a table's connection that holds the
        link's locks in a transaction it does not end, if there is one (what it ended, in
        words; None when nothing was stuck or the server did not answer that either)."""
        conn = self._conn
        if conn is None or conn.closed:
            return None
        try:
            ended = server.end_stuck(conn, self.link)
        except (LinkError, psycopg.Error):
            return None
        if ended:
            log.warning("link %s: the server %s", self.link, ended)
        return ended

    def _report_trays(self, conn: server.Connection, db: Database, progress: Progress) -> None:
        """Report the tray pays this table paid while the link was down (``round_hook``:
        Washington, Rules of Play item 9 b). The server records each as its hit, checking the
        line, the amount and the confirmers as for any hit, and answers a repeat with the hit
        it has; a refusal or another amount is told to the supervisor and the link's
        administrator, never retried for ever (the award was paid: a person decides)."""
        for entry, report in outbox.trays_undelivered(db, self.link, self.table_id,
                                                      progress.last_tray(self.link)):
            where = (f"seat {report.seat}'s {format_cents(report.amount_cents)} tray pay of "
                     f"round {report.round_id}, paid at the table while the link was down")
            try:
                hit = server.confirm_hit(
                    conn, self.link, self.table_id, round_id=report.round_id,
                    spot=report.spot, seat=report.seat, line_no=report.line_no,
                    employee_id=report.employee_id,
                    second_employee_id=report.second_employee_id)
            except LinkRefused as exc:
                log.warning("link %s refused the report of %s: %s", self.link, where, exc)
                self.health.warn(f"the link refused the report of {where}: {exc}; call the "
                                 "link administrator")
            else:
                if (hit.amount_cents, hit.from_meter_cents) != (report.amount_cents, 0):
                    self.health.warn(f"the link records {where} as "
                                     f"{format_cents(hit.amount_cents)} (its hit "
                                     f"{hit.hit_id}); call the link administrator")
            progress.advance_tray(self.link, entry, now())

    def owed(self) -> int:
        """How many wagers (and tray pays paid at the table) wait for delivery to the link."""
        db, progress = self._local()
        delivered, taken = outbox.counted(db, self.link, self.table_id,
                                          progress.last(self.link))
        trays = outbox.trays_owed(db, self.link, self.table_id, progress.last_tray(self.link))
        return taken - delivered + trays

    def _local(self) -> tuple[Database, Progress]:
        if self._db is None or self._progress is None:  # opened on this thread
            self._db = connect(self.db_path)  # the console's pragmas; only read here
            self._progress = Progress(self.db_path)
        return self._db, self._progress

    def _server(self) -> server.Connection:
        if self._conn is None or self._conn.closed:
            conn = server.connect(self.dsn, who=self.table_id,
                                  statement_timeout_s=self.timeout_s)
            try:
                self._hello(conn)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _hello(self, conn: server.Connection) -> None:
        """On every (re)connect: tell the server the last hit number this table recorded
        (its numbers go on after it), and learn how many of this table's wagers it holds.
        Fewer than delivered: the server lost some (a restore), so everything is sent again
        (the key skips what it has). More than this table ever took: another table with
        this name, or this table's file is an older copy. Either is said in plain words."""
        db, progress = self._local()
        server.claim(conn, self.link, self.table_id)
        hello = server.register_table(conn, self.link, self.table_id, self.game,
                                      seen_hit=outbox.last_hit_number(db, self.link))
        delivered, taken = outbox.counted(db, self.link, self.table_id,
                                          progress.last(self.link))
        warnings = [hello.went_back] if hello.went_back else []
        if hello.held < delivered:
            progress.rewind(self.link, now())
            warnings.append(f"the link server has lost {delivered - hello.held} of this "
                            f"table's jackpot wagers (restored from an older copy?): this "
                            "table sends them again")
        elif hello.held > taken:
            warnings.append(f"the link server holds {hello.held} jackpot wagers from table "
                            f"{self.table_id}, but this table took only {taken}: another table "
                            "uses this name, or this table's file is an older copy; call the "
                            "link administrator")
        if warnings:
            self.health.warn("; ".join(warnings))

    def _drop(self, reason: str) -> None:
        self.health.down(reason, self.owed())
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._progress is not None:
            self._progress.close()
            self._progress = None
