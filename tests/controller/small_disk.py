"""A small disk of its own (tmpfs, mounted as root) that a test fills to the last byte and
frees again: the disk filling up under a table in play."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


class Disk:
    def __init__(self, where: Path) -> None:
        self.where = where
        self.filler = where / "filler"

    def fill(self) -> None:
        """Every free byte taken."""
        chunk = b"\0" * 4096
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            while True:
                try:
                    os.write(fd, chunk)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
            for size in (512, 64, 1):  # the last partial page too
                while True:
                    try:
                        os.write(fd, b"\0" * size)
                    except OSError as exc:
                        if exc.errno != errno.ENOSPC:
                            raise
                        break
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small disk needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield Disk(where)
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
