"""The few file operations the table's storage needs that Linux and Windows spell differently:
open flags, reading and writing at an offset, the writer's exclusive lock, and a folder's new
name forced to disk.

Everything else in ``storage/`` calls these, never ``fcntl``, ``os.pread`` or
``os.O_NOFOLLOW`` itself (``log_files``, which the installed launcher loads alone, spells the
flags again): those names do not exist on Windows, and one of them imported at the top of a
module stopped the Windows console from opening any table database.

On Windows:
- a file is opened in binary mode (``O_BINARY``: the C runtime's default text mode would
  write each newline as two bytes and read a Ctrl-Z as the end of the file) and not inherited
  by child processes (``O_NOINHERIT``);
- there is no ``O_NOFOLLOW``: :func:`dealer_console.storage.log_files.open_own_file` looks for
  a symbolic link at the name before opening and again after, and refuses it. Only a link
  swapped in between those looks is followed, and making a link needs an administrator's
  right on Windows;
- the lock is ``msvcrt.locking`` on one byte far past any data (Windows' locks are mandatory:
  a locked byte inside the file could not be read by SQLite or by the refusal's reader). The
  system drops it when the process ends, as ``flock``'s.

Nothing here has run on Windows (no Windows machine builds or tests the project). What holds
it: ``mypy --platform win32`` over the console's packages (``scripts/run-tests``), which
knows the names each system lacks, and :class:`WindowsLock` run here with a stand-in of
``msvcrt.locking`` (``tests/storage/test_os_files.py``).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

NO_FOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
"""Refuse a symbolic link at the name (POSIX); 0 where the system has no such flag."""

PRIVATE: int = (getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
                | getattr(os, "O_NOINHERIT", 0) | getattr(os, "O_BINARY", 0))
"""Not inherited by the processes the console starts, never a controlling terminal, and
bytes as they are: for every file the storage opens itself."""

NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)
"""Do not wait at open (a pipe planted at a name); 0 where opening never waits so."""

WINDOWS_LOCK_OFFSET = 1 << 40
"""The byte Windows' lock is taken on: past the end of any table database (1 TiB) and of
SQLite's own lock bytes (at 1 GiB)."""


def read_at(fd: int, size: int, offset: int) -> bytes:
    """Up to ``size`` bytes from ``offset``; the file's position moves only on Windows."""
    if sys.platform == "win32":
        os.lseek(fd, offset, os.SEEK_SET)
        return os.read(fd, size)
    return os.pread(fd, size, offset)


def write_at(fd: int, data: bytes, offset: int) -> None:
    """All of ``data`` at ``offset`` (not for a file opened to append)."""
    while data:
        if sys.platform == "win32":
            os.lseek(fd, offset, os.SEEK_SET)
            done = os.write(fd, data)
        else:
            done = os.pwrite(fd, data, offset)
        data, offset = data[done:], offset + done


Locking = Callable[[int, int, int], None]
"""``msvcrt.locking``'s shape: (handle, mode, bytes from the handle's position)."""


class WindowsLock:
    """The lock as Windows takes it, kept apart from ``msvcrt`` so that it runs anywhere
    given a function of ``msvcrt.locking``'s shape and meaning (the tests give one)."""

    def __init__(self, locking: Locking, lock_now: int, unlock: int) -> None:
        self._locking, self._lock_now, self._unlock = locking, lock_now, unlock

    def lock(self, fd: int) -> bool:
        os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            self._locking(fd, self._lock_now, 1)
        except PermissionError:  # EACCES: another process holds the byte
            return False
        return True

    def unlock(self, fd: int) -> None:
        os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        self._locking(fd, self._unlock, 1)


if sys.platform == "win32":
    import msvcrt

    _WINDOWS = WindowsLock(msvcrt.locking, msvcrt.LK_NBLCK, msvcrt.LK_UNLCK)
    _lock, _unlock = _WINDOWS.lock, _WINDOWS.unlock
else:
    import fcntl

    def _lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def lock(fd: int) -> bool:
    """Take the exclusive lock on ``fd``'s file now: True when taken, False when another
    process holds it; any other failure is the ``OSError``. Released by :func:`unlock`, by
    closing ``fd`` (POSIX), or when the process ends."""
    return _lock(fd)


def unlock(fd: int) -> None:
    _unlock(fd)


def _fsync(path: Path, flags: int) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_file(path: Path) -> None:
    """A file written by another handle (SQLite's) forced to disk. Windows flushes only
    through a handle that may write."""
    _fsync(path, (os.O_RDWR if sys.platform == "win32" else os.O_RDONLY) | PRIVATE)


def sync_folder(folder: Path) -> None:
    """A name just made or replaced in ``folder`` forced to disk (POSIX). Windows cannot open
    a folder so; NTFS journals the name change itself."""
    if sys.platform != "win32":
        _fsync(folder, os.O_RDONLY)


def read_own_file(path: Path) -> bytes | None:
    """``path``'s bytes, or None when nothing is there or it is not a plain file; never
    through a symbolic link (OSError, as for any other failure to read), and without waiting
    on a pipe planted at the name, which would hold the reader for good. For files root reads
    in a folder another user can write (a table's checkpoint journal)."""
    try:
        fd = os.open(path, os.O_RDONLY | NO_FOLLOW | NONBLOCK | PRIVATE)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read()
