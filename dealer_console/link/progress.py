"""The sender's mark: how far into a table's outbox the link has confirmed delivery.

Kept in a small SQLite file of its own beside the table database (``TABLE.db-link``), written
only by the sender's thread, so the sender never writes to the table's file. Losing it is
safe: the sender starts from the beginning and the server skips every wager it already has.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def progress_path(db_path: str | Path) -> Path:
    return Path(f"{db_path}-link")


_MARKS = ("sent", "sent_trays")
"""The wagers delivered (``sent``) and the tray pays reported (``sent_trays``), per link."""


class Progress:
    """The last outbox entry delivered, and the last tray pay reported, per link."""

    def __init__(self, db_path: str | Path) -> None:
        self._conn = sqlite3.connect(str(progress_path(db_path)), isolation_level=None,
                                     timeout=30.0)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        for table in _MARKS:
            self._conn.execute(f"CREATE TABLE IF NOT EXISTS {table} (link TEXT PRIMARY KEY, "
                               "last_entry INTEGER NOT NULL, at TEXT NOT NULL)")

    def _last(self, table: str, link: str) -> int:
        row = self._conn.execute(f"SELECT last_entry FROM {table} WHERE link = ?",
                                 [link]).fetchone()
        return int(row[0]) if row else 0

    def _advance(self, table: str, link: str, entry: int, at: str) -> None:
        self._conn.execute(
            f"INSERT INTO {table} (link, last_entry, at) VALUES (?, ?, ?) ON CONFLICT (link) "
            "DO UPDATE SET last_entry = max(last_entry, excluded.last_entry), at = excluded.at",
            [link, entry, at])

    def last(self, link: str) -> int:
        return self._last("sent", link)

    def advance(self, link: str, entry: int, at: str) -> None:
        self._advance("sent", link, entry, at)

    def rewind(self, link: str, at: str) -> None:
        """Deliver everything again (the server lost some: the key skips what it has)."""
        self._conn.execute("UPDATE sent SET last_entry = 0, at = ? WHERE link = ?", [at, link])

    def last_tray(self, link: str) -> int:
        """The last tray pay reported (``outbox.record_tray``); losing it only reports them
        again, and the server answers a repeat with the hit it already has."""
        return self._last("sent_trays", link)

    def advance_tray(self, link: str, entry: int, at: str) -> None:
        self._advance("sent_trays", link, entry, at)

    def close(self) -> None:
        self._conn.close()
