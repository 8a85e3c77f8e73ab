"""Whether the system clock is synchronised, as the kernel says (``adjtimex``: the time
daemon, timesyncd, chrony or ntpsec, clears the kernel's unsynchronised state once it has
set the clock). Round times are evidence; the self-test reports the clock's state at every
start. It is a note, not a failure: a time server out of reach must not close every table
of a casino, and the unit waits for the clock at boot (``time-sync.target``)."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

TIME_ERROR = 5
"""``adjtimex``'s answer when the clock is not synchronised."""


def clock_synchronised() -> bool | None:
    """True or False as the kernel says; None where it cannot be asked (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        timex = ctypes.create_string_buffer(512)  # struct timex, modes 0: only read
        state = int(libc.adjtimex(timex))
    except (OSError, AttributeError):
        return None
    if state < 0:
        return None
    return state != TIME_ERROR


def clock_note() -> str:
    synced = clock_synchronised()
    if synced is None:
        return "clock: its synchronisation cannot be asked on this system"
    if synced:
        return "clock: synchronised with its time servers"
    return ("clock: NOT synchronised (the kernel says so): round times may be wrong; check "
            "the time servers (timedatectl timesync-status)")
