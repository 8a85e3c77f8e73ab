"""A console in a process of its own, for the tests that kill one mid-step and start the
console again on its database (a power cut at the worst moment)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def console_child(module: str, db: Path, said: str) -> Iterator[subprocess.Popen[str]]:
    """``python -m module db`` started in a session of its own and read until it says ``said``
    (its own waits are bounded: ``ScreenPlayer``); killed with its session when the block ends
    if it still runs."""
    child = subprocess.Popen(
        [sys.executable, "-m", module, str(db)], cwd=Path(__file__).parents[2],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == said, child.stderr.read() if child.stderr else ""
        yield child
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
