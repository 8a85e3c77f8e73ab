"""Appending a line to a log file that may sit in a folder the console's service user owns
(``/var/log/dealer-console``), when root may be the one writing (a technician's
``sudo dealer-console self-test``, ``table-db new``).

Opened by name, such a file could be a symbolic link the service user left there, and root
would append wherever it points: an outside review had root write into ``/etc/ld.so.preload``
that way. The file is opened without following a link, and written only when it is a plain
file with no other name (a hard link to a file elsewhere is refused too).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

# os_files' flags, spelled here again: the installed launcher loads this file alone, before
# any of the release's packages may be imported (tests/installers/test_program_files.py), so
# it imports only the standard library. tests/storage/test_os_files.py holds the two equal.
_NO_FOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
_PRIVATE: int = (getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
                 | getattr(os, "O_NOINHERIT", 0) | getattr(os, "O_BINARY", 0))


class LogFileRefused(OSError):
    """The log file is a link, or not a plain file: nothing was written to it."""


def open_own_file(path: Path, flags: int, mode: int,
                  refusal: Callable[[bool], Exception]) -> int:
    """``path`` opened with ``flags`` (made with ``mode``), never through a symbolic link and
    only when it is a plain file with no other name; else ``refusal(linked)`` is raised,
    ``linked`` True for a link. Any other failure to open is the ``OSError`` itself. The
    rule for every file the console writes where root may be the writer in the service
    user's folder: the logs, the checkpoint journal, the writer's lock file."""
    if not _NO_FOLLOW and os.path.islink(path):  # Windows: no flag refuses it, so look first
        raise refusal(True)
    try:
        fd = os.open(path, flags | _NO_FOLLOW | _PRIVATE, mode)
    except OSError:
        if os.path.islink(path):
            raise refusal(True) from None
        raise
    if not _NO_FOLLOW and os.path.islink(path):  # and again: one put there since is refused
        os.close(fd)
        raise refusal(True)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        raise refusal(False)
    return fd


def append_line(path: Path, text: str, *, sync: bool = True) -> None:
    """Append ``text`` to ``path`` (made 0640 if missing), forced to disk when ``sync``."""

    def refused(linked: bool) -> LogFileRefused:
        if linked:
            return LogFileRefused(f"{path} is a symbolic link: the log line was not written "
                                  "(a log file is never written through a link)")
        return LogFileRefused(f"{path} is not a plain file of its own (a device, a folder or "
                              "a second name of another file): the log line was not written")

    try:
        fd = open_own_file(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640, refused)
    except LogFileRefused:
        raise
    except OSError as exc:
        raise LogFileRefused(f"{path}: cannot write the log ({exc.strerror})") from None
    try:
        data = text.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)
