"""The Windows console's file operations, run here (``dealer_console/storage/os_files.py``):
the lock through a stand-in of ``msvcrt.locking`` (``msvcrt_standin.py``), and a table's
writer's lock built on it, across two processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_console.storage import log_files, os_files
from dealer_console.storage.writer_lock import DatabaseInUse, lock_path
from dealer_console.table_db import open_table_db
from tests.storage import msvcrt_standin
from tests.storage.msvcrt_standin import LK_NBLCK, LK_UNLCK, WINDOWS

REPO = Path(__file__).resolve().parents[2]


def test_the_log_files_open_as_os_files_says() -> None:
    """``log_files`` spells the flags again (the launcher loads it alone): the same flags."""
    assert (log_files._NO_FOLLOW, log_files._PRIVATE) == (os_files.NO_FOLLOW, os_files.PRIVATE)
    assert os_files.NO_FOLLOW and os_files.PRIVATE & os.O_CLOEXEC  # on this Linux


def test_without_o_nofollow_a_link_is_refused_and_nothing_written_through_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no ``O_NOFOLLOW``: the log, the journal and the lock file look for a link
    themselves, before opening (a link to a missing file would otherwise make that file) and
    after (one put there in between)."""
    monkeypatch.setattr(log_files, "_NO_FOLLOW", 0)
    target = tmp_path / "shadow"
    target.write_text("root's\n")
    missing = tmp_path / "ld.so.preload"
    for name, leads_to in (("self-test.log", target), ("table.db-lock", missing)):
        link = tmp_path / name
        link.symlink_to(leads_to)
        with pytest.raises(log_files.LogFileRefused, match="symbolic link"):
            log_files.append_line(link, "a line\n")
    assert target.read_text() == "root's\n" and not missing.exists()
    opened: list[Path] = []

    def open_then_link(path: Path, flags: int, mode: int = 0o777) -> int:
        """A link put at the name between the look and the open (the open follows it)."""
        fd = real_open(path, flags, mode)
        opened.append(Path(path))
        Path(path).unlink()
        Path(path).symlink_to(target)
        return fd

    real_open = os.open
    monkeypatch.setattr(log_files.os, "open", open_then_link)
    with pytest.raises(log_files.LogFileRefused, match="symbolic link"):
        log_files.append_line(tmp_path / "service.log", "a line\n")
    assert opened == [tmp_path / "service.log"] and target.read_text() == "root's\n"


def test_reading_and_writing_at_an_offset_leave_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"0123456789")
    fd = os.open(path, os.O_RDWR | os_files.PRIVATE)
    try:
        os_files.write_at(fd, b"ab", 3)
        assert os_files.read_at(fd, 4, 2) == b"2ab5"
        assert os_files.read_at(fd, 100, 8) == b"89"
    finally:
        os.close(fd)
    assert path.read_bytes() == b"012ab56789"


def test_the_windows_lock_lies_past_any_data_and_refuses_a_second_holder(
        tmp_path: Path) -> None:
    path = tmp_path / "table.db-lock"
    path.write_bytes(b"process 1: gui\n")
    first, second = (os.open(path, os.O_RDWR | os_files.PRIVATE) for _ in range(2))
    msvcrt_standin.calls.clear()
    try:
        assert WINDOWS.lock(first)
        assert not WINDOWS.lock(second)  # another handle, as another process's: refused
        WINDOWS.unlock(first)
        assert WINDOWS.lock(second)
    finally:
        os.close(first)
        os.close(second)
    far = os_files.WINDOWS_LOCK_OFFSET
    assert msvcrt_standin.calls == [(LK_NBLCK, far, 1), (LK_NBLCK, far, 1),
                                    (LK_UNLCK, far, 1), (LK_NBLCK, far, 1)]
    assert far > 1 << 30 and path.read_bytes() == b"process 1: gui\n"  # past SQLite's bytes
    with pytest.raises(OSError):  # anything but "held elsewhere" is an error, not a refusal
        WINDOWS.lock(first)


HOLDER = ("import sys; from tests.storage.msvcrt_standin import use_windows_lock; "
          "use_windows_lock(); from dealer_console.table_db import open_table_db; "
          "db = open_table_db(sys.argv[1]); print('open', flush=True); sys.stdin.readline()")


def test_a_table_locked_as_on_windows_refuses_a_second_writer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both processes lock as the Windows console does: the second writer is refused naming
    the first (its process number is read from the lock file's first bytes, which Windows'
    mandatory lock would have made unreadable had it lain there), also once the lock file is
    removed in play; the first's end frees the table."""
    monkeypatch.setattr(os_files, "lock", WINDOWS.lock)
    monkeypatch.setattr(os_files, "unlock", WINDOWS.unlock)
    path = tmp_path / "t.db"
    open_table_db(path, create=True).close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(DatabaseInUse, match=f"already open.*process {holder.pid}"):
            open_table_db(path)
        lock_path(path).unlink()
        with pytest.raises(DatabaseInUse, match=r"its lock file t\.db-lock was removed"):
            open_table_db(path)
    finally:
        holder.kill()
        holder.wait()
    msvcrt_standin.calls.clear()
    open_table_db(path).close()
    far = os_files.WINDOWS_LOCK_OFFSET
    assert [(mode, at) for mode, at, _n in msvcrt_standin.calls] == [
        (LK_NBLCK, far), (LK_NBLCK, far), (LK_UNLCK, far), (LK_UNLCK, far)]
