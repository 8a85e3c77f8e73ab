"""Serve a double on a pseudo-terminal, the way a USB serial adapter would present it.

The console opens the slave side with pyserial like any serial port. With ``link`` set, the
server keeps a symbolic link to the current slave (as ``/dev/serial/by-id/...`` does for real
adapters), so :meth:`PtyServer.unplug` and :meth:`PtyServer.replug` look to the console
exactly like pulling the cable and plugging it back: the open port fails, the name vanishes,
then a new device appears under the same name.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import time
from pathlib import Path

from drivers.sim import Double
from drivers.sim.faults import FaultInjector

SPLIT_GAP = 0.002
"""Pause between the pieces of a split frame, so that they reach the reader separately."""


class PtyServer:
    def __init__(
        self,
        double: Double,
        link: str | os.PathLike[str] | None = None,
        faults: FaultInjector | None = None,
        tick: float = 0.002,
    ) -> None:
        self.double = double
        self.faults = faults or FaultInjector()
        self._link = Path(link) if link is not None else None
        self._tick = tick
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.bytes_in = 0
        self.bytes_out = 0

    @property
    def path(self) -> str:
        """What the console opens: the link when there is one, else the slave device."""
        return str(self._link) if self._link is not None else self._slave_name

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def start(self) -> PtyServer:
        self._open()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="sim-pty", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self._close()

    def __enter__(self) -> PtyServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self) -> None:
        """The cable is pulled: the console's port fails and the link disappears."""
        self._close()

    def replug(self) -> None:
        """A new device node appears (under the same link)."""
        if self._master is None:
            self._open()

    def _open(self) -> None:
        if sys.platform == "win32":
            raise OSError("pseudo-terminals exist on Linux only: simulate with the in-process "
                          "link (--devices in-process) on Windows")
        import tty  # imports termios: not at the top, so the in-process link runs on Windows

        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        name = os.ttyname(slave)
        with self._lock:
            self._master, self._slave, self._slave_name = master, slave, name
        if self._link is not None:
            tmp = self._link.with_name(self._link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(name)
            tmp.replace(self._link)

    def _close(self) -> None:
        with self._lock:
            master, slave = self._master, self._slave
            self._master = self._slave = None
        if self._link is not None:
            with contextlib.suppress(FileNotFoundError):
                self._link.unlink()
        for fd in (master, slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            if master is None:
                # Unplugged: the device runs on, its output goes nowhere.
                self.double.poll(time.monotonic())
                self._stop.wait(self._tick)
                continue
            try:
                ready, _, _ = select.select([master], [], [], self._tick)
                if ready:
                    data = os.read(master, 4096)
                    if data:
                        self.bytes_in += len(data)
                        self.double.feed(data, time.monotonic())
                chunks = self.faults.apply(self.double.poll(time.monotonic()))
                for i, chunk in enumerate(chunks):
                    if i:
                        time.sleep(SPLIT_GAP)
                    self._write(master, chunk)
            except OSError:
                # The fds were closed under us by unplug(); the next turn sees it.
                continue

    def _write(self, fd: int, data: bytes) -> None:
        try:
            written = os.write(fd, data)
        except BlockingIOError:
            return  # nobody reads: a UART would drop these bytes too
        self.bytes_out += written
