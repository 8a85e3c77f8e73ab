"""Running ``dealer-console`` where file permissions really apply.

The suite may run as root, for whom a read-only file or folder is writable anyway. The command
then runs in a child whose capability bounding set lacks the three that let root ignore
permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER); root keeps its uid, so the
owner's permission bits decide, as they would for the console's own account.
"""

from __future__ import annotations

import ctypes
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

CLI = [sys.executable, "-m", "dealer_console.cli"]
PR_CAPBSET_DROP = 24
CAPS_OVER_PERMISSIONS = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER


def _obey_permissions() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in CAPS_OVER_PERMISSIONS:
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "cannot drop a capability for the test")


def run_obeying_permissions(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``dealer-console ARGS`` in a child process that file permissions apply to."""
    preexec: Callable[[], None] | None = _obey_permissions if os.geteuid() == 0 else None
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                          timeout=300, preexec_fn=preexec)


@contextmanager
def read_only(folder: Path, *, files_only: bool = False) -> Iterator[None]:
    """Every file in ``folder`` (and, unless ``files_only``, the folder itself) read-only for
    the duration, then writable again (so pytest can clean up)."""
    files = [p for p in folder.iterdir() if p.is_file()]
    for path in files:
        path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    if not files_only:
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH
                     | stat.S_IXOTH)
    try:
        yield
    finally:
        folder.chmod(stat.S_IRWXU)
        for path in files:
            path.chmod(stat.S_IRUSR | stat.S_IWUSR)
