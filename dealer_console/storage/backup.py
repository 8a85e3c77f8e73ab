"""A consistent copy of a table database, made with SQLite's backup API and verified.

Copying ``table.db`` with a file copy while the table runs (or after a power cut) can miss what
is still in ``table.db-wal``, or catch the file half written: the copy is behind or damaged.
SQLite's backup API (``sqlite3.Connection.backup``) copies the database as one reader sees it,
WAL included, in one consistent snapshot. The copy is written beside the target under a
temporary name, checked (``PRAGMA integrity_check`` and the event log's hash chain) and only
then given its name, so a failed backup leaves nothing that looks like a backup. The copy is
in rollback-journal mode: one file, readable from read-only media.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from sqlite_utils import Database

from dealer_console.storage import os_files
from dealer_console.storage.anchor import AnchorError, journal_for, parse
from dealer_console.storage.connection import StorageError
from dealer_console.storage.eventlog import has_log, last_event, verify_chain


@dataclass(frozen=True, slots=True)
class Backup:
    target: Path
    events: int
    head_seq: int
    head: str
    journal: Path | None
    """The checkpoint journal copied beside the backup, if the table had one."""


def backup(source: Path, target: Path) -> Backup:
    """Copy ``source`` to ``target`` (which must not exist) and verify the copy."""
    if not source.is_file():
        raise StorageError(f"{source}: no such table database")
    for taken in (target, journal_for(target)):
        if taken.exists() or taken.is_symlink():
            raise StorageError(f"{taken}: already exists; a backup never overwrites a file")
    if not target.parent.is_dir():
        raise StorageError(f"{target.parent}: no such folder")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        made_new(partial).close()
        copy_snapshot(source, partial)
        events, seq, head = verify_copy(partial)
        os_files.sync_file(partial)
        os.replace(partial, target)
        os_files.sync_folder(target.parent)
    finally:
        partial.unlink(missing_ok=True)
    journal = journal_for(source)
    text = _journal_text(journal, target)
    copied = None
    if text is not None:
        copied = journal_for(target)
        copy_journal(text, journal, copied, seq)
    return Backup(target, events, seq, head, copied)


def _journal_text(journal: Path, target: Path) -> str | None:
    """The table's checkpoint journal, or None when it has none; never read through a
    symbolic link (whose file root, backing up, would copy beside the backup)."""
    try:
        data = os_files.read_own_file(journal)
    except OSError as exc:
        if journal.is_symlink():
            raise StorageError(f"the backup {target} is made and verified, but {journal} is "
                               "a symbolic link, so it was not copied (a journal is never "
                               "read through a link): remove the link, put back the table's "
                               "own journal and back up again") from None
        raise StorageError(f"the backup {target} is made and verified, but {journal} cannot "
                           f"be read: {exc.strerror}") from None
    return None if data is None else data.decode("ascii", "replace")


def made_new(path: Path, act: str = "a backup") -> BinaryIO:
    """``path`` made new and empty, never through a symbolic link nor over anything there:
    the backups' folder may be the console user's and the one backing up root, and SQLite
    writes a database through a link planted at its name, wherever the link leads."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os_files.NO_FOLLOW
                     | os_files.PRIVATE, 0o644)
    except FileExistsError:
        raise StorageError(f"{path}: something is already there (a leftover, or a link): "
                           f"{act} never writes through it; remove it, then try "
                           "again") from None
    except OSError as exc:
        raise StorageError(f"{path}: cannot write {act}'s copy: {exc.strerror}") from None
    return os.fdopen(fd, "wb")


def copy_journal(text: str, journal: Path, copied: Path, head_seq: int,
                 act: str = "a backup") -> None:
    """The journal's lines up to the copy's last event. The table goes on while it is backed
    up, so the journal, read after the snapshot, may already hold checkpoints of rounds the
    copy does not have: copied whole, it made the backup's own audit call it BEHIND (an
    outside review, six backups of six during a long run). A line that does not read as a
    checkpoint is kept as it is: it is evidence, and the audit says what is wrong with it."""
    kept = []
    for line in text.splitlines(keepends=True):
        try:
            beyond = parse(line, str(journal)).seq > head_seq
        except AnchorError:
            beyond = False
        if not beyond:
            kept.append(line)
    partial = copied.with_name(f".{copied.name}.partial-{os.getpid()}")
    try:
        with made_new(partial, act) as out:
            out.write("".join(kept).encode("ascii", errors="replace"))
        os_files.sync_file(partial)
        os.replace(partial, copied)
    finally:
        partial.unlink(missing_ok=True)


def copy_snapshot(source: Path, partial: Path) -> None:
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0)
    except sqlite3.Error as exc:
        raise StorageError(f"{source}: cannot read the table database: {exc}") from None
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # one step: a single consistent snapshot, WAL included
            # One self-contained file (no -wal beside it), readable from read-only media; the
            # console puts it back in WAL mode when it opens the copy as a table.
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise StorageError(f"{source}: cannot copy the table database: {exc}") from None
    finally:
        src.close()


def verify_copy(copy: Path) -> tuple[int, int, str]:
    conn = sqlite3.connect(copy)
    try:
        db = Database(conn)
        result = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
        if result != ["ok"]:
            raise StorageError(f"the copy fails SQLite's integrity check: {result[0]}")
        if not has_log(db):
            raise StorageError("the copy holds no event log: this is not a table database")
        broken = verify_chain(db)
        if broken:
            raise StorageError(f"the copy's hash chain is broken ({broken[0]}); run audit "
                               "verify on the table's database")
        events = int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        seq, head = last_event(db)
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"the copy cannot be read back: {exc}") from None
    finally:
        conn.close()
    return events, seq, head

