"""Opening a table's database.

One SQLite file per table. Every connection runs in WAL mode with ``synchronous=FULL`` so a
committed transition survives a power cut (the round procedure relies on this for crash
recovery), and foreign keys are enforced. The connection is in autocommit mode at the driver
level: transactions are opened explicitly (``Database.atomic``), never implicitly by a stray
statement.

Two ways in. :func:`open_table_db` is for a table (the console, ``simulate``, the set-up
commands): it refuses a file that is not a table database, a damaged one or one from a later
console, takes the one-writer lock, upgrades the schema and marks the file as ours.
:func:`open_for_reading` is for reports and audits: read-only at the file and the query level,
it never creates, upgrades or writes anything.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlite_utils import Database

from dealer_console.storage import compat, os_files, writer_lock
from dealer_console.storage.failures import WriteFailed, explain
from dealer_console.storage.identity import (
    APPLICATION_ID,
    SQLITE_COMPANIONS,
    LaterSchema,
    NotATableDatabase,
    Schema,
    StorageError,
    check_contents,
    check_one_name,
    check_path,
    has_log,
    inode,
    mark,
    read_header,
)

__all__ = [
    "LaterSchema",
    "NotATableDatabase",
    "StorageError",
    "TableDatabase",
    "WriteFailed",
    "check_table_file",
    "connect",
    "open_for_reading",
    "open_table_db",
    "pragmas",
]

_MEMORY = (":memory:", "")

# Table database files this process has open. Their headers are not read again with plain
# file reads: closing such a handle would drop the POSIX locks SQLite holds on the file.
_open_here: Counter[tuple[int, int, str]] = Counter()
# The writer's handles on a database file (writer_lock.hold_file), unlocked, waiting for the
# process's last connection to that file to close before they may be closed.
_unlocked_handles: dict[tuple[int, int, str] | None, list[int]] = {}


class TableDatabase(Database):
    """A connection to one table database file.

    It knows its file, so a failed write (disk full, disk error, read-only) is reported as a
    :class:`WriteFailed` naming the file and what to do, after SQLite has rolled the whole
    transaction back; and :meth:`close` releases the writer's lock and the file's entry in
    the process's list of open databases."""

    def __init__(self, conn: sqlite3.Connection, file: str,
                 lock: writer_lock.WriterLock | None = None) -> None:
        super().__init__(conn, execute_plugins=False)
        self.file = file
        self._lock = lock
        self._inode: tuple[int, int, str] | None = None
        self._companions: dict[str, tuple[int, int] | None] | None = None
        self._looked_at = float("-inf")
        if file not in _MEMORY:
            self._inode = inode(Path(file))
            _open_here[self._inode] += 1

    @contextmanager
    def atomic(self) -> Iterator[Database]:
        if self._lock is not None and not self.conn.in_transaction:
            self._companions_in_place()
        try:
            with super().atomic() as db:
                yield db
        except sqlite3.Error as exc:
            failure = explain(exc, self.file)
            if failure is None:
                raise
            raise failure from exc

    def _companions_in_place(self) -> None:
        """Before a writer's transaction: the write-ahead log and shared-memory file beside
        the database are still the ones this connection writes. An outside review deleted
        them in play: SQLite went on committing into the unlinked log, the table reported
        each step done, and a power cut then lost every round not yet copied into the file.
        Now the steps saved so far are copied into the database through the connection's
        own handle (a checkpoint), and the step is refused: the console must start again.
        Looked at most every ``_LOOK_EVERY_S``: a look on every write of a burst cost
        ``simulate`` a tenth of its rounds (the two file lookups hand the other threads the
        interpreter mid-step); a step a dealer takes is always looked at."""
        at = time.monotonic()
        if at - self._looked_at < _LOOK_EVERY_S:
            return
        self._looked_at = at
        now = {suffix: _file_id(self.file + suffix) for suffix in _WRITTEN_BESIDE}
        if self._companions is None or None in self._companions.values():
            self._companions = now  # the first write makes them
            return
        if now == self._companions:
            return
        try:
            self.conn.execute("PRAGMA wal_checkpoint(FULL)")
            rescued = "every step saved so far is now in the database file itself"
        except sqlite3.Error as exc:
            rescued = f"the steps saved so far could not be copied into it ({exc})"
        raise WriteFailed(
            f"{self.file}: its write-ahead log or shared-memory file was removed or replaced "
            f"while the table played: {rescued}; nothing of this step was written. Stop, "
            "find what removes files beside the database, then start the console again",
            "a file beside the database was removed")

    def close(self) -> None:
        try:
            super().close()
        finally:
            file = self._inode
            self._inode = None
            if file is not None:
                _open_here[file] -= 1
                if _open_here[file] <= 0:
                    del _open_here[file]
            if self._lock is not None:
                _let_go(file, self._lock.release())
                self._lock = None
            elif file is not None:
                _let_go(file, None)


def _let_go(file: tuple[int, int, str] | None, handle: int | None) -> None:
    """A writer's handle on ``file`` let go (``writer_lock.WriterLock.release``): closed
    once no connection of the process has the file open, with any kept for that."""
    if handle is not None:
        _unlocked_handles.setdefault(file, []).append(handle)
    if file is None or file not in _open_here:
        for kept in _unlocked_handles.pop(file, []):
            os.close(kept)


_WRITTEN_BESIDE = ("-wal", "-shm")
_LOOK_EVERY_S = 0.02
"""How often the files beside the database are looked at, at the most (a burst of device
reports writes faster; a power cut would have to fall inside this after their removal)."""


def _file_id(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _set_pragmas(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")


def connect(path: str | Path) -> Database:
    """A connection with the console's pragmas, without checking or touching the schema (for
    tests and tools that already know the file is a table database)."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=30.0)
        _set_pragmas(conn)
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: cannot open the table database: {exc}") from None
    return Database(conn, execute_plugins=False)


def _migrate(db: Database, schema: Schema) -> None:
    # The jackpot's meters, hits and the employee registry live in the same file, so a
    # jackpot award and the round's event are one transaction (docs/jackpot.md).
    before = compat.applied(db)
    marked = int(db.execute("PRAGMA application_id").fetchone()[0]) == APPLICATION_ID
    previous = int(db.execute("PRAGMA user_version").fetchone()[0])
    schema.apply(db)
    newly = compat.applied(db) - before
    compat.record(db, newly)
    mark(db, compat.new_floor(previous=previous, marked=marked, newly=newly,
                              current=schema.version()))


def _seen_here(file: Path) -> bool:
    try:
        return inode(file) in _open_here
    except OSError:
        return False


def _verify(file: Path, schema: Schema, *, writing: bool, full: bool = False) -> None:
    """Refuse a file that is not a table database in good order before SQLite opens it for
    real, so nothing is written to it or beside it: first its header (plain reads), then its
    contents through a probe that writes nothing (``check_contents``)."""
    if not _seen_here(file):  # a file this process has open was read when it was opened
        read_header(file)
    probe = Database(_probe(file), execute_plugins=False)
    try:
        check_contents(probe, str(file), schema, writing=writing, full=full)
    finally:
        probe.close()


def _probe(file: Path) -> sqlite3.Connection:
    """A connection that cannot write: with no write-ahead log beside it the file is the
    whole database and is read ``immutable`` (SQLite makes no ``-shm`` for it); with one,
    as any reader reads it."""
    if has_log(file):
        return _connect_read_only(file)
    try:
        return _read_only(f"{file.resolve().as_uri()}?mode=ro&immutable=1")
    except sqlite3.Error as exc:
        raise NotATableDatabase(f"{file}: is damaged or not a table database: {exc}") from None


def _check_writable(file: Path) -> None:
    """Refuse before any write rather than fail in the middle of one."""
    if not os.access(file, os.W_OK):
        raise StorageError(f"{file}: the file is read-only, so a table cannot write it: make "
                           "it writable, or read it with recall, audit or the jackpot reports")
    if not os.access(file.parent, os.W_OK):
        raise StorageError(f"{file}: its folder is read-only, so a table cannot write it (SQLite "
                           "keeps its write-ahead log beside it): use a writable folder, or read "
                           "it with recall, audit or the jackpot reports")


def open_table_db(path: str | Path, schema: Schema, *, create: bool = True) -> TableDatabase:
    """Open a table database for a table and bring its schema (the composition root's migration
    sets: ``dealer_console/table_db.py``) up to date.

    ``create`` makes a new database when the file does not exist: only the commands that start
    a table pass it (the console, ``simulate`` without ``--resume``, set-up steps); any other
    caller refuses a missing file. An existing file must be a table database in good order,
    written by this console or an earlier one; it is refused while another process has it
    open for writing (:mod:`dealer_console.storage.writer_lock`)."""
    if str(path) in _MEMORY:
        memory = TableDatabase(sqlite3.connect(":memory:", isolation_level=None), ":memory:")
        _set_pragmas(memory.conn)
        _migrate(memory, schema)
        return memory
    file = Path(path)
    exists = check_path(file, must_exist=False)
    if not exists and not create:
        raise NotATableDatabase(f"{file}: no such table database (the console makes it on its "
                                "first start)")
    if exists:  # refused before the lock file is made beside it
        check_one_name(file)
        _verify(file, schema, writing=True)
        _check_writable(file)
    elif not os.access(file.parent, os.W_OK):
        raise StorageError(f"{file}: its folder is read-only: a new table database needs a "
                           "writable folder")
    lock = writer_lock.acquire(file)
    db: TableDatabase | None = None
    try:
        if not exists and check_path(file, must_exist=False):  # made meanwhile by another
            _verify(file, schema, writing=True)
            exists = True
        if not exists:
            _create_whole(file, schema)
        lock.hold_file(file.resolve())
        conn = sqlite3.connect(str(file), isolation_level=None, timeout=30.0)
        db = TableDatabase(conn, str(file), lock)
        _set_pragmas(conn)
        _migrate(db, schema)
    except BaseException as exc:
        if db is not None:
            db.close()
        else:
            _let_go(inode(file) if file.exists() else None, lock.release())
        if isinstance(exc, sqlite3.Error):
            failure = explain(exc, str(file))
            raise (failure or StorageError(f"{file}: cannot open the table database: {exc}")
                   ) from None
        raise
    return db


def _create_whole(file: Path, schema: Schema) -> None:
    """A new table database appears under its name whole, or not at all: it is made beside
    it, marked (the mark first: no unmarked table database), migrated and closed, then moved
    into place. A table killed while its file was being made had left an empty file under the
    name, which no start could ever open again; a half-made file beside it is only a leftover,
    removed by the next start."""
    made = file.with_name(f".{file.name}.new")
    for leftover in (made, *(Path(f"{made}{s}") for s, _what in SQLITE_COMPANIONS)):
        leftover.unlink(missing_ok=True)
    conn = sqlite3.connect(str(made), isolation_level=None, timeout=30.0)
    try:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        _set_pragmas(conn)
        _migrate(Database(conn, execute_plugins=False), schema)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    os.replace(made, file)
    os_files.sync_folder(file.parent)  # the new name on disk before anything is under it


def check_table_file(path: str | Path, schema: Schema) -> None:
    """Refuse now what :func:`open_table_db` (without ``create``) would refuse later: for a
    command that has devices or a window to start first and should fail before them."""
    open_table_db(path, schema, create=False).close()


def open_for_reading(path: str | Path, schema: Schema, *,
                     full_check: bool = False) -> TableDatabase:
    """Open a table database read-only, for recall, audit and reports.

    An auditor's copy must be exactly what the table wrote: nothing is migrated or written (the
    connection is read-only at the file and at the query level), and a read-only file or
    folder will do. A database whose schema is older than this console's is refused with the
    migrations it lacks, rather than upgraded behind the auditor's back; one that is not a
    table database or is damaged is refused with the reason. ``full_check`` runs SQLite's
    full ``integrity_check`` (the audits) instead of ``quick_check``."""
    file = Path(path)
    check_path(file, must_exist=True)
    _verify(file, schema, writing=False, full=full_check)
    db = TableDatabase(_connect_read_only(file), str(file))
    try:
        missing = schema.missing(db)
    except BaseException as exc:
        db.close()
        if isinstance(exc, sqlite3.DatabaseError):
            raise NotATableDatabase(f"{path}: not a table database: {exc}") from None
        raise
    if missing:
        db.close()
        raise StorageError(
            f"{path}: its schema is older than this console's (missing {', '.join(missing)});"
            " read it with the console version that wrote it, or upgrade a copy by opening"
            " it with this console")
    return db


def _connect_read_only(file: Path) -> sqlite3.Connection:
    """A read-only connection. In a read-only folder SQLite cannot make the ``-shm`` file a
    WAL database needs; when no write-ahead log is there either, the file alone is the whole
    database and is opened ``immutable`` (nothing can change it there)."""
    uri = file.resolve().as_uri()
    try:
        return _read_only(f"{uri}?mode=ro")
    except sqlite3.Error as exc:
        primary = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        wal = file.with_name(file.name + "-wal")
        log_pending = wal.exists() and wal.stat().st_size > 0
        if primary not in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN):
            raise NotATableDatabase(f"{file}: cannot read the table database: {exc}") from None
        if log_pending:
            raise StorageError(
                f"{file}: its write-ahead log ({wal.name}) holds changes that SQLite cannot "
                "read in this read-only folder: copy the .db with its -wal and -shm files to a "
                "writable folder and read the copy") from None
    try:
        return _read_only(f"{uri}?mode=ro&immutable=1")
    except sqlite3.Error as exc:
        raise NotATableDatabase(f"{file}: cannot read the table database: {exc}") from None


def _read_only(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0)
    try:
        conn.execute("PRAGMA query_only=ON")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def pragmas(db: Database) -> dict[str, object]:
    """The pragmas that matter for durability, for tests and the audit."""
    out: dict[str, object] = {}
    for name in ("journal_mode", "synchronous", "foreign_keys"):
        row = db.execute(f"PRAGMA {name}").fetchone()
        out[name] = row[0] if row else None
    return out
