"""Telling systemd the console is up and its event loop alive (``sd_notify``).

Under the kiosk unit (``Type=notify``, ``WatchdogSec=``) the console sends ``READY=1`` once
its window is shown and ``WATCHDOG=1`` from a timer on the GUI thread at half the watchdog's
period: a hung event loop stops the pings and systemd restarts the console instead of leaving
it frozen at the table. Outside systemd (no ``NOTIFY_SOCKET``) all of it does nothing.

The protocol is one datagram on a Unix socket, so it is written here rather than taken from
a library: ``python-systemd`` needs libsystemd's headers to build, and the small ``sdnotify``
package has had no release for years. The console runs as sway's child, so its pid is not
the unit's ``WATCHDOG_PID``; the unit says ``NotifyAccess=all`` and the pid is not compared.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Mapping

from PySide6.QtCore import QObject, QTimer


def sd_notify(message: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send ``message`` (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``) to systemd; False when
    not under systemd or the socket is gone (a lost ping is never an error at the table)."""
    if sys.platform == "win32":  # no systemd (the kiosk's watchdog watches the window there)
        return False
    address = environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError:
        return False
    return True


def ping_interval_ms(environ: Mapping[str, str] = os.environ) -> int | None:
    """Half the unit's ``WatchdogSec`` in milliseconds, or None when no watchdog is set."""
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return max(1, usec // 2000) if usec > 0 else None


class SystemdWatchdog(QObject):
    """Pings systemd's watchdog from the GUI thread's event loop."""

    def __init__(self, environ: Mapping[str, str] = os.environ,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._environ = environ
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.ping)
        interval = ping_interval_ms(environ)
        if interval is not None and environ.get("NOTIFY_SOCKET"):
            self.timer.start(interval)

    def ping(self) -> None:
        sd_notify("WATCHDOG=1", self._environ)

    def ready(self, status: str) -> None:
        """The window is shown: startup is over (``status`` shows in ``systemctl status``)."""
        sd_notify(f"READY=1\nSTATUS={status}", self._environ)
