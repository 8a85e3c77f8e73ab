"""What to tell the operator when SQLite cannot finish a write.

A round's transition is one transaction (``Database.atomic``): when the disk fills or fails
in the middle, SQLite rolls the whole transaction back, so nothing is half written and the
round resumes from its last complete step once the disk is fixed. This module turns SQLite's
error into that message, naming the file and what to do.
"""

from __future__ import annotations

import sqlite3

from dealer_console.storage.identity import StorageError


class WriteFailed(StorageError):
    """The disk or the file refused a write; the transaction in progress was rolled back.
    ``cause`` is the failure in a few words, for a notice that says its own what-to-do."""

    def __init__(self, message: str, cause: str) -> None:
        super().__init__(message)
        self.cause = cause


_NOTHING_WRITTEN = ("nothing of the step in progress was written (it was rolled back whole); "
                    "the table resumes from its last complete step when started again")


def explain(exc: sqlite3.Error, path: str) -> StorageError | None:
    """The operator's message for a storage failure of ``path``, or None when ``exc`` is not
    one (a constraint, a programming error: those keep their own meaning)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return None
    primary = code & 0xFF
    if primary == sqlite3.SQLITE_FULL:
        return WriteFailed(f"{path}: the disk is full: {_NOTHING_WRITTEN}; free space on the "
                           "disk (or move the table's files to a larger one), then start again",
                           "the disk is full")
    if primary == sqlite3.SQLITE_IOERR:
        return WriteFailed(f"{path}: the disk failed while writing ({exc}): {_NOTHING_WRITTEN}; "
                           "check or replace the disk, then start again",
                           "the disk failed while writing")
    if primary == sqlite3.SQLITE_READONLY:
        return WriteFailed(f"{path}: the file or its folder is read-only, so the console "
                           "cannot write it: make them writable, or use a read-only command "
                           "(recall, audit, jackpot reports)", "the database is read-only")
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return WriteFailed(f"{path}: is damaged ({exc}); stop using it and restore the table's "
                           "last backup", "the database is damaged")
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return WriteFailed(f"{path}: another program holds the database locked ({exc}): close "
                           "it, then start again", "the database is locked")
    if primary == sqlite3.SQLITE_CANTOPEN:
        return WriteFailed(f"{path}: cannot open the file or its write-ahead log ({exc})",
                           "the database cannot be opened")
    return None
