"""A stand-in for ``msvcrt.locking`` on Linux, so the Windows console's lock
(``os_files.WindowsLock``) runs here: the same call shape (handle, mode, bytes from the
handle's position), the same refusal (``PermissionError``, EACCES, when another holder has
it), and the lock dropped when its holder's process ends. It is ``flock`` underneath, so it
holds the whole file, not the one byte; each call's position is recorded, which is what
makes Windows' real, byte-range and mandatory, lock safe (it must lie past any data)."""

from __future__ import annotations

import errno
import fcntl
import os

from dealer_console.storage import os_files

LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2  # msvcrt's values
calls: list[tuple[int, int, int]] = []
"""(mode, position, bytes) of every call made in this process."""


def locking(fd: int, mode: int, nbytes: int) -> None:
    calls.append((mode, os.lseek(fd, 0, os.SEEK_CUR), nbytes))
    if mode == LK_UNLCK:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return
    if mode != LK_NBLCK:
        raise ValueError(f"the stand-in takes only LK_NBLCK and LK_UNLCK, not {mode}")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise PermissionError(errno.EACCES, "Permission denied") from None


WINDOWS = os_files.WindowsLock(locking, LK_NBLCK, LK_UNLCK)


def use_windows_lock() -> None:
    """This process's table storage locks as the Windows console does (the child's half of
    a test; the test's own process uses pytest's monkeypatch)."""
    os_files.lock = WINDOWS.lock
    os_files.unlock = WINDOWS.unlock
