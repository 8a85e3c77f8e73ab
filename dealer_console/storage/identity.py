"""Telling a table database from every other file, before the console writes a byte.

A table database carries two marks in its SQLite header: ``PRAGMA application_id`` is
:data:`APPLICATION_ID`, and ``PRAGMA user_version`` is the schema version
(:meth:`Schema.version`, the number of migrations a console knows) of the oldest console that
may open it (``compat.py``). A file is refused (:class:`NotATableDatabase`) when it is a
folder, empty, not SQLite, another program's SQLite file, truncated or damaged; the refusal
comes from reading the header with plain file reads, so SQLite never opens such a file and
nothing is written beside it. A database made before the marks existed (application id 0, but
the console's ``_sqlite_migrations`` rows present) is still ours and is marked on its first
writable open. ``docs/storage.md`` describes all of this for auditors.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database, Migrations

from dealer_console.errors import ConsoleError

APPLICATION_ID = 0x50474443
"""``PRAGMA application_id`` of every table database: the ASCII letters ``PGDC`` (Pai Gow
Dealer Console) read as a big-endian 32-bit number, 1346847811."""

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100


class StorageError(ConsoleError):
    """A database that cannot be opened or does not hold what the console expects."""


class NotATableDatabase(StorageError):
    """A file that is not one of the console's table databases, or is damaged."""


class LaterSchema(StorageError):
    """A table database written by a later version of the console."""


@dataclass(frozen=True, slots=True)
class Schema:
    """The migration sets a table database holds, in the order they are applied. The
    composition root (``dealer_console/table_db.py``) lists them, test mode's included, and
    hands them to storage, which imports none of the packages that own them."""

    sets: tuple[Migrations, ...]

    def known(self) -> dict[str, frozenset[str]]:
        """Each set's name to the names of the migrations this console knows."""
        empty = Database(memory=True)
        try:
            return {s.name: frozenset(m.name for m in s.pending(empty)) for s in self.sets}
        finally:
            empty.close()

    def version(self) -> int:
        """What a database fully upgraded by this console holds in ``user_version``."""
        return sum(len(names) for names in self.known().values())

    def apply(self, db: Database) -> None:
        """Bring ``db`` up to date, every set in order."""
        for migrations in self.sets:
            migrations.apply(db)

    def missing(self, db: Database) -> list[str]:
        """The migrations this console has that ``db`` lacks."""
        return [m.name for s in self.sets for m in s.pending(db)]


@dataclass(frozen=True)
class Header:
    """The parts of an SQLite header that say whose file it is and how long it should be."""

    page_size: int
    page_count: int | None  # None when the header's own count is not valid
    user_version: int
    application_id: int


def check_path(path: Path, *, must_exist: bool) -> bool:
    """Refuse a folder or a device where a database file belongs; True when the file exists.

    ``must_exist`` refuses a missing file instead of answering False (a report or an audit
    never creates a database)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        if must_exist:
            raise NotATableDatabase(f"{path}: no such table database") from None
        if not path.parent.is_dir():
            raise StorageError(f"{path}: the folder {path.parent} does not exist") from None
        return False
    except OSError as exc:
        raise StorageError(f"{path}: cannot reach the file: {exc.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise NotATableDatabase(f"{path}: is a folder, not a table database file")
    if not stat.S_ISREG(info.st_mode):
        raise NotATableDatabase(f"{path}: is not a regular file, so not a table database")
    _check_companions(path)
    return True


SQLITE_COMPANIONS = (("-wal", "write-ahead log"), ("-shm", "shared-memory file"),
                     ("-journal", "rollback journal"))
"""The files SQLite keeps beside a database, by the suffix of their name."""


def _check_companions(path: Path) -> None:
    """Refuse a folder, a device or a symbolic link where SQLite keeps a file of the
    database's (SQLite itself refuses the link, as "unable to open database file"). An outside
    review left a folder named ``table.db-wal`` (said to be a damaged database, whose advice,
    restoring the last backup, loses rounds) and one named ``table.db-shm`` (the self-test
    passed, then the console blamed a read-only folder)."""
    for suffix, what in SQLITE_COMPANIONS:
        side = path.with_name(path.name + suffix)
        try:
            info = side.lstat()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StorageError(f"{side}: cannot reach the database's {what}: "
                               f"{exc.strerror}") from None
        if not stat.S_ISREG(info.st_mode):
            kind = ("symbolic link" if stat.S_ISLNK(info.st_mode)  # SQLite: "unable to open"
                    else "folder" if stat.S_ISDIR(info.st_mode) else "device")
            raise StorageError(f"{side}: a {kind} where the table database's {what} belongs, "
                               "so the database cannot be opened; the database itself is not "
                               f"damaged: move {side.name} out of the folder, then start "
                               "again")


def check_one_name(path: Path) -> None:
    """Refuse a table database with a second name (a hard link) for writing. SQLite names its
    write-ahead log and the console its writer's lock after the name opened, so a writer
    through the other name would keep a log and a lock of its own: two writers on one file,
    each one's rounds invisible to a reader through the other name. A symbolic link is fine:
    it leads to the one file, whose log and lock both writers find."""
    try:
        links = path.stat().st_nlink
    except OSError:
        return
    if links > 1:
        raise StorageError(
            f"{path}: the file has {links} names (hard links): a table's database must have "
            "one name, or a writer through another name keeps its rounds apart. Remove the "
            "other link (find it with: find / -samefile on this file) and start again")


def read_header(path: Path) -> Header:
    """The header of ``path``, refusing anything that is not a whole SQLite file.

    Plain reads, never SQLite: a text file, an empty file or a truncated database is refused
    before SQLite could create a ``-wal`` or ``-shm`` beside it. The size checks apply only
    when no write-ahead log is beside the file (its pages may still be in the log)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(HEADER_BYTES)
        size = path.stat().st_size
    except OSError as exc:
        raise StorageError(f"{path}: cannot read the file: {exc.strerror}") from None
    if not head:
        raise NotATableDatabase(f"{path}: is an empty file, not a table database")
    if not head.startswith(SQLITE_MAGIC):
        raise NotATableDatabase(f"{path}: is not a table database (not an SQLite file)")
    if len(head) < HEADER_BYTES:
        raise NotATableDatabase(f"{path}: is truncated ({size} bytes, less than an SQLite "
                                "header): not a usable table database")
    (raw_page_size,) = struct.unpack(">H", head[16:18])
    page_size = 65536 if raw_page_size == 1 else raw_page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise NotATableDatabase(f"{path}: is damaged (its header gives a page size of "
                                f"{raw_page_size})")
    change_counter, count = struct.unpack(">II", head[24:32])
    (valid_for,) = struct.unpack(">I", head[92:96])
    page_count = count if count and change_counter == valid_for else None
    user_version, application_id = struct.unpack(">iI", head[60:64] + head[68:72])
    if not has_log(path):
        if size % page_size:
            raise NotATableDatabase(f"{path}: is truncated or damaged ({size} bytes is not a "
                                    f"whole number of {page_size}-byte pages)")
        if page_count is not None and size < page_count * page_size:
            raise NotATableDatabase(f"{path}: is truncated ({size // page_size} of its "
                                    f"{page_count} pages are in the file)")
    if application_id not in (0, APPLICATION_ID):
        raise NotATableDatabase(f"{path}: is another program's SQLite database (application "
                                f"id {application_id:#010x}), not a table database")
    return Header(page_size, page_count, user_version, application_id)


def has_log(path: Path) -> bool:
    """A non-empty write-ahead log beside ``path``: pages of the database may be there."""
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


def check_contents(db: Database, path: str, schema: Schema, *, writing: bool,
                   full: bool = False) -> None:
    """Refuse a database SQLite can open that is still not ours, is damaged, or (for a
    writer) was written by a later console.

    ``full`` runs ``PRAGMA integrity_check`` (every index against its table: the audits);
    otherwise ``PRAGMA quick_check``, which checks every page and row in time linear in the
    file's size but skips the index comparison (every other open)."""
    check = "integrity_check" if full else "quick_check"
    try:
        found = [str(row[0]) for row in db.execute(f"PRAGMA {check}(5)").fetchall()]
        application_id = int(db.execute("PRAGMA application_id").fetchone()[0])
        user_version = int(db.execute("PRAGMA user_version").fetchone()[0])
        applied = _applied_migrations(db)
    except sqlite3.DatabaseError as exc:
        raise NotATableDatabase(f"{path}: is damaged or not a table database: {exc}") from None
    if found != ["ok"]:
        raise NotATableDatabase(f"{path}: is damaged ({check} found: {'; '.join(found)}); "
                                "nothing was written to it: restore the table's last backup "
                                "(`dealer-console table-db restore`)")
    ours = application_id == APPLICATION_ID or (
        application_id == 0 and "dealer_console" in {s for s, _ in applied})
    if not ours:
        raise NotATableDatabase(f"{path}: is an SQLite database of another program, not a "
                                "table database")
    if writing:  # which consoles may write it: storage/compat.py
        from dealer_console.storage.compat import refusal

        why = refusal(db, floor=user_version, current=schema.version(), known=schema.known())
        if why is not None:
            raise LaterSchema(f"{path}: {why}")


def _applied_migrations(db: Database) -> list[tuple[str, str]]:
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                        "'_sqlite_migrations'").fetchone()
    if exists is None:
        return []
    return [(str(s), str(n)) for s, n in
            db.execute("SELECT migration_set, name FROM _sqlite_migrations")]


def mark(db: Database, floor: int) -> None:
    """Write the console's marks: the application id and the schema version of the oldest
    console that may open the file (``storage/compat.py``)."""
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {floor}")


def inode(path: Path) -> tuple[int, int, str]:
    """The file's identity: its disk, its inode and its full name (an inode alone may be
    reused by a new file once the old one is deleted)."""
    info = os.stat(path)
    return info.st_dev, info.st_ino, str(path.resolve())
