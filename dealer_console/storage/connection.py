"""Opening a table's database.

One SQLite file per table. Every connection runs in WAL mode with ``synchronous=FULL`` so a
committed transition survives a power cut (the round procedure relies on this for crash
recovery), and foreign keys are enforced. The connection is in autocommit mode at the driver
level: transactions are opened explicitly (``Database.atomic``), never implicitly by a stray
statement.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlite_utils import Database

from dealer_console.errors import ConsoleError
from dealer_console.storage.schema import MIGRATIONS


class StorageError(ConsoleError):
    """A database that cannot be opened or does not hold what the console expects."""


def connect(path: str | Path) -> Database:
    """A connection with the console's pragmas, without touching the schema."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=30.0)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: cannot open the table database: {exc}") from exc
    return Database(conn, execute_plugins=False)


def open_table_db(path: str | Path) -> Database:
    """Open (creating if needed) a table database and bring its schema up to date."""
    from dealer_console.jackpot.store import apply_migrations as jackpot_migrations

    db = connect(path)
    try:
        MIGRATIONS.apply(db)
        # The jackpot's meters, hits and the employee registry live in the same file, so a
        # jackpot award and the round's event are one transaction (docs/jackpot.md).
        jackpot_migrations(db)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StorageError(f"{path}: cannot migrate the table database: {exc}") from exc
    return db


def open_for_reading(path: str | Path) -> Database:
    """Open a table database read-only, for recall, audit and reports.

    An auditor's copy must be exactly what the table wrote: nothing is migrated or written (the
    connection is read-only at the file and at the query level). A database whose schema is
    older than this console's is refused with the migrations it lacks, rather than upgraded
    behind the auditor's back.
    """
    from dealer_console.jackpot.store import MIGRATIONS as JACKPOT_MIGRATIONS

    file = Path(path)
    if not file.is_file():
        raise StorageError(f"{path}: no such table database")
    try:
        conn = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True,
                               isolation_level=None, timeout=30.0)
        conn.execute("PRAGMA query_only=ON")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: cannot read the table database: {exc}") from exc
    db = Database(conn, execute_plugins=False)
    try:
        missing = [m.name for m in (*MIGRATIONS.pending(db),
                                    *JACKPOT_MIGRATIONS.pending(db))]
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StorageError(f"{path}: not a table database: {exc}") from exc
    if missing:
        db.close()
        raise StorageError(
            f"{path}: its schema is older than this console's (missing {', '.join(missing)});"
            " read it with the console version that wrote it, or upgrade a copy by opening"
            " it with this console")
    return db


def pragmas(db: Database) -> dict[str, object]:
    """The pragmas that matter for durability, for tests and the audit."""
    out: dict[str, object] = {}
    for name in ("journal_mode", "synchronous", "foreign_keys"):
        row = db.execute(f"PRAGMA {name}").fetchone()
        out[name] = row[0] if row else None
    return out
