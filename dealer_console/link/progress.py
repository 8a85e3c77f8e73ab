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


class Progress:
    """The last outbox entry delivered, per link."""

    def __init__(self, db_path: str | Path) -> None:
        self._conn = sqlite3.connect(str(progress_path(db_path)), isolation_level=None,
                                     timeout=30.0)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("CREATE TABLE IF NOT EXISTS sent (link TEXT PRIMARY KEY, "
                           "last_entry INTEGER NOT NULL, at TEXT NOT NULL)")
        self._conn.execute("CREATE TABLE IF NOT EXISTS sent_trays (link TEXT PRIMARY KEY, "
                           "last_entry INTEGER NOT NULL, at TEXT NOT NULL)")

    def last(self, link: str) -> int:
        row = self._conn.execute("SELECT last_entry FROM sent WHERE link = ?", [link]).fetchone()
        return int(row[0]) if row else 0

    def advance(self, link: str, entry: int, at: str) -> None:
        self._conn.execute(
            "INSERT INTO sent (link, last_entry, at) VALUES (?, ?, ?) ON CONFLICT (link) DO "
            "UPDATE SET last_entry = max(last_entry, excluded.last_entry), at = excluded.at",
            [link, entry, at])

    def rewind(self, link: str, at: str) -> None:
        """Deliver everything again (the server lost some: the key skips what it has)."""
        self._conn.execute("UPDATE sent SET last_entry = 0, at = ? WHERE link = ?", [at, link])

    def last_tray(self, link: str) -> int:
        """The last tray pay reported (``outbox.record_tray``); losing it only reports them
        again, and the server answers a repeat with the hit it already has."""
        row = self._conn.execute("SELECT last_entry FROM sent_trays WHERE link = ?",
                                 [link]).fetchone()
        return int(row[0]) if row else 0

    def advance_tray(self, link: str, entry: int, at: str) -> None:
        self._conn.execute(
            "INSERT INTO sent_trays (link, last_entry, at) VALUES (?, ?, ?) ON CONFLICT (link) "
            "DO UPDATE SET last_entry = max(last_entry, excluded.last_entry), at = excluded.at",
            [link, entry, at])

    def close(self) -> None:
        self._conn.close()
