"""A table's backup put back in place of its database, with what was there kept aside.

Copying a backup over ``table.db`` by hand leaves what SQLite keeps beside the old file: after
a crash, ``table.db-wal`` still holds the old database's last pages, and SQLite writes them
over the restored file at its first open, so one file holds pages of two databases. An outside
review did that: the self-test called the restored file damaged and said to restore the
backup, which it just had; pages that had passed SQLite's check would have mixed two states
without a word. So a restore here:

- holds the table's writer lock throughout (no console or ``simulate`` is writing it);
- copies the backup with SQLite's backup API under a temporary name beside the database, and
  checks that copy (``PRAGMA integrity_check``, the event log's hash chain, its own checkpoint
  journal), not the backup file, which could change meanwhile;
- lets the caller check the copy (that it is this table's, the executive's card on its staff
  list) before anything is moved;
- moves the database, its ``-wal``, ``-shm`` and ``-journal`` and its checkpoint journal into
  a folder of their own beside it (evidence: nothing is deleted), then gives the copy the
  database's name and its journal the journal's.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.storage import anchor, os_files, writer_lock
from dealer_console.storage.backup import copy_journal, copy_snapshot, made_new, verify_copy
from dealer_console.storage.connection import StorageError
from dealer_console.storage.identity import SQLITE_COMPANIONS

_ACT = "a restore"


@dataclass(frozen=True, slots=True)
class Restored:
    db: Path
    kept: Path | None
    """The folder the replaced files were moved to; None when nothing was there."""
    events: int
    head_seq: int
    journal: bool
    """Whether the backup's checkpoint journal came with it."""
    journal_problem: str = ""
    """Why the backup's journal could not be put beside the restored database, if so (the
    database is restored all the same: the audit then has the shift reports' digests)."""


@dataclass
class Staged:
    """The backup copied beside the database and checked, not yet in its place."""

    db: Path
    copy: Path
    events: int
    head_seq: int
    journal_text: str | None
    backup_journal: Path

    @contextmanager
    def read(self) -> Iterator[Database]:
        """The copy, for the caller's own checks before it is put in place."""
        conn = sqlite3.connect(self.copy)
        try:
            yield Database(conn)
        finally:
            conn.close()

    def first_event(self) -> str | None:
        with self.read() as db:
            row = db.execute("SELECT hash FROM events ORDER BY seq LIMIT 1").fetchone()
        return None if row is None else str(row[0])

    def put_in_place(self) -> Restored:
        """Everything there moved aside, then the copy in its place; if the copy cannot be
        given the name, what was moved goes back (a StorageError: nothing changed)."""
        kept = _move_aside(self.db)
        try:
            os.replace(self.copy, self.db)
        except OSError as exc:
            _move_back(kept, self.db.parent)
            raise StorageError(f"{self.db}: cannot put the copy in place: {exc.strerror}"
                               ) from None
        os_files.sync_folder(self.db.parent)
        if self.journal_text is None:
            return Restored(self.db, kept, self.events, self.head_seq, False)
        try:
            copy_journal(self.journal_text, self.backup_journal, anchor.journal_for(self.db),
                         self.head_seq, act=_ACT)
        except (OSError, StorageError) as exc:
            return Restored(self.db, kept, self.events, self.head_seq, False,
                            str(exc) if isinstance(exc, StorageError) else
                            f"{exc.strerror or exc}")
        return Restored(self.db, kept, self.events, self.head_seq, True)


@contextmanager
def staged(backup: Path, db: Path) -> Iterator[Staged]:
    """The backup copied and checked beside ``db``, under the table's writer lock; the copy is
    removed on the way out unless it was put in place."""
    if not backup.is_file():
        raise StorageError(f"{backup}: no such backup file")
    if db.is_symlink():
        raise StorageError(f"{db}: is a symbolic link; a restore writes the table's database "
                           "by its own name only: name the file itself")
    if not db.parent.is_dir():
        raise StorageError(f"{db.parent}: no such folder")
    lock = writer_lock.acquire(db)  # refused, naming who, while a console writes it
    copy = db.with_name(f".{db.name}.restore-{os.getpid()}")
    try:
        made_new(copy, act=_ACT).close()
        copy_snapshot(backup, copy)
        events, head_seq, _head = verify_copy(copy)
        backup_journal = anchor.journal_for(backup)
        text = _journal_text(backup_journal)
        _check_against_journal(copy, text, backup_journal)
        os_files.sync_file(copy)
        yield Staged(db, copy, events, head_seq, text, backup_journal)
    finally:
        copy.unlink(missing_ok=True)
        lock.release()


def _journal_text(journal: Path) -> str | None:
    """The backup's checkpoint journal, or None when it has none; never read through a link."""
    try:
        data = os_files.read_own_file(journal)
    except OSError as exc:
        what = "is a symbolic link" if journal.is_symlink() else f"cannot be read: {exc.strerror}"
        raise StorageError(f"{journal}: the backup's checkpoint journal {what}; a restore "
                           "never reads a journal through a link: put the backup's own "
                           "journal there, or move the link away to restore without "
                           "one") from None
    return None if data is None else data.decode("ascii", "replace")


def _check_against_journal(copy: Path, text: str | None, journal: Path) -> None:
    """The copy's log held to the backup's own checkpoints (the audit key is not needed to
    see a log rewritten or cut back against them)."""
    if text is None:
        return
    lines = [x for x in text.splitlines() if x.strip() and not x.startswith("#")]
    try:
        checkpoints = [anchor.parse(x, f"{journal.name} line {n}")
                       for n, x in enumerate(lines, 1)]
    except anchor.AnchorError as exc:
        raise StorageError(f"the backup's checkpoint journal: {exc}; run audit verify on the "
                           "backup") from None
    conn = sqlite3.connect(copy)
    try:
        held = anchor.check(Database(conn), checkpoints, None)
    finally:
        conn.close()
    if held.problems:
        raise StorageError(f"the backup does not match its checkpoint journal "
                           f"({held.problems[0]}); run audit verify on the backup")


def _move_aside(db: Path) -> Path | None:
    """The database and everything SQLite and the console keep beside it, moved into a new
    folder ``table.db.replaced-<time>`` beside it; None when none of them is there."""
    names = [db, *(db.with_name(db.name + s) for s, _what in SQLITE_COMPANIONS),
             anchor.journal_for(db)]
    there = [p for p in names if p.exists() or p.is_symlink()]
    if not there:
        return None
    stamp = clock.stamp("seconds").replace(":", "").replace("+0000", "Z")
    kept = db.with_name(f"{db.name}.replaced-{stamp}")
    try:
        kept.mkdir(mode=0o750)
    except FileExistsError:
        raise StorageError(f"{kept}: already there; wait a second and restore again") from None
    try:
        for path in there:
            os.rename(path, kept / path.name)
    except OSError as exc:
        _move_back(kept, db.parent)
        raise StorageError(f"{path}: cannot move it aside: {exc.strerror}") from None
    os_files.sync_folder(kept)
    os_files.sync_folder(db.parent)
    return kept


def _move_back(kept: Path | None, folder: Path) -> None:
    """What :func:`_move_aside` moved, put back (a restore that cannot finish changes
    nothing); the folder is left, empty, if it can be."""
    if kept is None:
        return
    for path in kept.iterdir():
        os.rename(path, folder / path.name)
    kept.rmdir()
    os_files.sync_folder(folder)
