"""Who may read the audit key file, asked the way each system keeps it: POSIX permission
bits on Linux, the file's access-control list on Windows (where the bits ``os.stat`` gives
always look open, so a bits check would refuse every key there).

``problem(path)`` is the one question :func:`dealer_console.storage.anchor.load_key` asks:
None when only the key's owner (and, on Windows, the system and administrators, who can read
any file anyway) may read it, else what to fix."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

TRUSTED_WINDOWS = ("NT AUTHORITY\\SYSTEM", "BUILTIN\\Administrators")
"""Principals that may read any file on Windows; the key's owner is added to them."""


def posix_problem(path: Path) -> str | None:
    if path.stat().st_mode & 0o077:
        return "the audit key is readable by others; chmod 600 it"
    return None


def icacls_readers(output: str, path: str) -> list[str]:
    """The principals ``icacls FILE`` lists with any allowed access (deny entries left out):
    its first line starts with the file's name, then one ``PRINCIPAL:(rights)`` a line."""
    readers = []
    for line in output.splitlines():
        entry = line.strip()
        if entry.lower().startswith(path.lower()):
            entry = entry[len(path):].strip()
        principal, sep, rights = entry.partition(":(")
        if not sep or not principal or "(DENY)" in f"({rights}".upper():
            continue
        readers.append(principal.strip())
    return readers


def windows_problem_from(readers: list[str], owner: str) -> str | None:
    """Anyone but the owner, the system and administrators may read: the problem, named."""
    allowed = {p.lower() for p in (*TRUSTED_WINDOWS, owner)}
    others = [r for r in readers if r.lower() not in allowed]
    if others:
        return (f"the audit key is readable by {', '.join(others)}; leave only {owner} "
                "(icacls KEY /inheritance:r /grant:r %USERNAME%:R)")
    return None


def windows_problem(path: Path) -> str | None:
    """Asks ``icacls`` (every Windows has it) for the file's access list. A console program
    writes to a pipe in the OEM code page, not in the one Python would assume; a name that
    still reads wrong shows as a reader to remove, never as a crash."""
    done = subprocess.run(["icacls", str(path)], capture_output=True, text=True, timeout=30,
                          encoding="oem", errors="replace")
    if done.returncode != 0:
        return f"cannot read the key file's access list (icacls: {done.stderr.strip()})"
    owner = f"{os.environ.get('USERDOMAIN', '')}\\{os.environ.get('USERNAME', '')}"
    return windows_problem_from(icacls_readers(done.stdout, str(path)), owner)


def checker(platform: str = sys.platform) -> Callable[[Path], str | None]:
    return windows_problem if platform.startswith("win") else posix_problem


def problem(path: Path) -> str | None:
    return checker()(path)
