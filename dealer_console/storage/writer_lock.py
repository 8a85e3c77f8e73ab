"""One writer per table database: an exclusive lock held while a table has the file open.

A second console or ``simulate`` on a database already in use would otherwise run until it
died on a constraint or on "database is locked". The lock (``flock``; Windows' own there,
``os_files.lock``) is taken on a small file beside the database (``table.db-lock``), and, once
the file exists, on the database itself through a handle kept open until the process's last
writer connection has closed (closing any other handle on the database file would drop the
POSIX locks SQLite keeps there). The second lock holds when the lock file is tidied away in
play. The system releases the lock when its process ends, so a crash leaves nothing to clean
up; the file itself stays and holds the last writer's process number for the refusal
message. Readers (recall, the audits, the jackpot reports) never take it and work alongside
the writer.

Within one process the lock is shared: the process is one writer, however many connections it
opens (the round and the jackpot system, a test that reopens the table).

The lock file sits beside the file itself, not beside the name it was opened by: a second
writer through a symbolic link to the database would otherwise take a lock of its own and
write the same file alongside the first (``connection.open_table_db`` refuses a file with a
second hard link, whose name would give SQLite a second write-ahead log).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from dealer_console.storage import os_files
from dealer_console.storage.identity import StorageError
from dealer_console.storage.log_files import open_own_file


class DatabaseInUse(StorageError):
    """The database is open for writing in another process."""


@dataclass
class _Held:
    fd: int
    count: int = field(default=1)
    file_fd: int | None = None


_held: dict[str, _Held] = {}


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-lock")


@dataclass
class WriterLock:
    """The process's hold on one database; :meth:`release` once for each :func:`acquire`."""

    key: str
    released: bool = False

    def release(self) -> int | None:
        """Returns the handle on the database file once the process's last writer let go:
        its lock is released, but the caller closes it only when no connection of the
        process has the file open (closing it would drop their SQLite locks: an outside
        review saw a reader of the same process then read a "malformed" database)."""
        if self.released:
            return None
        self.released = True
        held = _held[self.key]
        held.count -= 1
        if held.count != 0:
            return None
        del _held[self.key]
        os_files.unlock(held.fd)
        os.close(held.fd)
        if held.file_fd is not None:
            os_files.unlock(held.file_fd)
        return held.file_fd

    def hold_file(self, db_path: Path) -> None:
        """The lock taken on the database file itself too, once it exists, held until the
        process's last writer connection has closed: the lock file can be tidied away in
        play (an outside review deleted it and a second writer came in). Never closed while
        a connection of the process has the file open, so SQLite's own locks stay
        (:meth:`release`)."""
        held = _held[self.key]
        if held.file_fd is not None:
            return
        fd = os.open(db_path, os.O_RDONLY | os_files.PRIVATE)
        try:
            taken = os_files.lock(fd)
        except OSError as exc:
            os.close(fd)
            raise StorageError(f"{db_path}: cannot lock it: {exc.strerror}") from None
        if not taken:
            os.close(fd)
            raise DatabaseInUse(
                f"{db_path}: is already open in another console or simulate (its lock "
                f"file {lock_path(db_path).name} was removed); one table writes a "
                "database at a time: close that one first")
        held.file_fd = fd


def _open_lock_file(db_path: Path, path: Path) -> int:
    """The lock file, never through a symbolic link and only a plain file of its own: it is
    emptied and written, and it lies in the console user's folder, where root may be the
    writer (a technician's ``sudo dealer-console upgrade-db``). Through a link planted there,
    root would empty the file it leads to (``/etc/shadow`` as well as any) and write its
    process number in."""
    def refused(linked: bool) -> StorageError:
        if linked:
            return StorageError(f"{db_path}: its lock file {path.name} is a symbolic link: "
                                "nothing was written through it (a lock file is never "
                                "written through a link); remove the link, then start again")
        return StorageError(f"{db_path}: its lock file {path.name} is not a plain file of its "
                            "own (a device, or a second name of another file): nothing was "
                            "written to it; remove it, then start again")

    try:
        fd = open_own_file(path, os.O_RDWR | os.O_CREAT, 0o644, refused)
    except StorageError:
        raise
    except OSError as exc:
        raise StorageError(f"{db_path}: cannot make its lock file {path.name} "
                           f"({exc.strerror}): a table's database needs a folder the console "
                           "can write") from None
    return fd


def acquire(db_path: Path) -> WriterLock:
    """Take the writer's lock of ``db_path`` now, or refuse at once naming the file."""
    real = db_path.resolve()
    key = str(real)
    if key in _held:
        _held[key].count += 1
        return WriterLock(key)
    path = lock_path(real)
    fd = _open_lock_file(db_path, path)
    try:
        taken = os_files.lock(fd)
    except OSError as exc:
        os.close(fd)
        raise StorageError(f"{db_path}: cannot lock {path.name}: {exc.strerror}") from None
    if not taken:
        try:
            holder = os_files.read_at(fd, 200, 0).decode("ascii", "replace").strip()
        except OSError:
            holder = ""
        os.close(fd)
        raise DatabaseInUse(
            f"{db_path}: is already open in another console or simulate"
            f"{f' ({holder})' if holder else ''}; one table writes a database at a time: "
            "close that one first")
    try:  # who holds it, for the message another writer gets; the lock does not need it
        os.ftruncate(fd, 0)
        os_files.write_at(fd, f"process {os.getpid()}: {_command()}\n".encode("ascii",
                                                                            "replace"), 0)
    except OSError:
        pass
    _held[key] = _Held(fd)
    return WriterLock(key)


def _command() -> str:
    words = [Path(sys.argv[0]).name, *sys.argv[1:2]] if sys.argv and sys.argv[0] else []
    return " ".join(words)[:80] or "python"
