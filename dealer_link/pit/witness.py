"""The table's side of the server's witness (``sql_witness.py``): after each report, on the
reporter's thread and connection, say where the table's event log ends and what it holds at
the mark the server answered last. Read from a read-only connection of its own; a file that
cannot be read is not said (the table's self-test and screens say what is wrong with it)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import psycopg

from dealer_console.storage.connection import TableDatabase
from dealer_console.storage.eventlog import GENESIS, last_event
from dealer_console.table_db import open_for_reading
from dealer_link import server as link_server
from dealer_link.pit import server

log = logging.getLogger(__name__)
UNHEARD_RETRY_S = 300.0
"""A server without the witness (not yet upgraded) is asked again after this long, so a
``link init`` there is taken up without restarting the tables."""


class ChainWitness:
    """Tells the server this table's log's end; keeps the mark it answers (one thread)."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._db: TableDatabase | None = None
        self.mark: int | None = None
        """The point of the log the server vouched for last (None: not asked yet)."""
        self._said = ""
        self.unheard_until: float | None = None
        """The server had no witness (not yet upgraded): nothing is said until then."""

    def tell(self, conn: link_server.Connection) -> None:
        if self.unheard_until is not None and time.monotonic() < self.unheard_until:
            return
        try:
            seq, digest, at = self._read()
        except Exception as exc:  # an unreadable file is the self-test's to say, not this
            if str(exc) != self._said:  # once, not at every heartbeat
                log.warning("the pit's witness: the table's log was not read: %s", exc)
                self._said = str(exc)
            self.close()
            return
        self._said = ""
        try:
            self.mark = server.witness(conn, seq, digest, self.mark, at)
        except psycopg.errors.UndefinedFunction:
            if self.unheard_until is None:
                log.warning("the link's server keeps no witness of the table's records "
                            "(run link init there to upgrade it)")
            self.unheard_until = time.monotonic() + UNHEARD_RETRY_S
            return
        self.unheard_until = None

    def _read(self) -> tuple[int, str, str | None]:
        """The log's newest event (number, hash) and the hash it holds at the mark."""
        if self._db is None:
            self._db = open_for_reading(self.db_path)
        with self._db.atomic():  # one snapshot: the end and the mark read together
            seq, digest = last_event(self._db)
            at: str | None = None
            if self.mark is not None:
                held = self._db.execute("SELECT hash FROM events WHERE seq = ?",
                                        [self.mark]).fetchone()
                at = GENESIS if self.mark == 0 else (None if held is None else str(held[0]))
        return seq, digest, at

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
