"""An in-process transport pair: a real driver talking to a double in the same process, with no
pseudo-terminal between them (pymodbus's ``NullModem`` is the model).

The driver's framer, link layer, retries and reconnection all run exactly as on a serial port;
only the bytes travel through a function call instead of the kernel. ``simulate`` and its crash
test, the benchmarks and the console's quick simulated mode use it, so every path the console
runs is the path they run. :class:`InProcessLink` can be unplugged and plugged back like a
cable, and can damage bytes on the way (the same :class:`~drivers.sim.faults.FaultInjector` as
the pseudo-terminal server).
"""

from __future__ import annotations

import threading
import time
from collections import deque

from drivers.sim import Double
from drivers.sim.faults import FaultInjector
from drivers.transport import TransportError


class InProcessLink:
    """The cable between one double and its driver; :meth:`open` is the driver's
    ``TransportFactory``."""

    def __init__(self, double: Double, name: str, faults: FaultInjector | None = None,
                 poll_interval: float = 0.002) -> None:
        self.double = double
        self.name = name
        self.faults = faults or FaultInjector()
        self.poll_interval = poll_interval
        self._plugged = threading.Event()
        self._plugged.set()
        self._generation = 0

    @property
    def port(self) -> str:
        return f"inprocess://{self.name}"

    @property
    def plugged(self) -> bool:
        return self._plugged.is_set()

    def open(self) -> InProcessTransport:
        if not self.plugged:
            raise TransportError(f"{self.port}: nothing is plugged in")
        return InProcessTransport(self, self._generation)

    def unplug(self) -> None:
        """The cable is pulled: the open transport fails on its next read or write."""
        self._generation += 1
        self._plugged.clear()

    def replug(self) -> None:
        self._plugged.set()


class InProcessTransport:
    """One opened connection over an :class:`InProcessLink` (a ``Transport``)."""

    def __init__(self, link: InProcessLink, generation: int) -> None:
        self._link = link
        self._generation = generation
        self._pending: deque[bytes] = deque()
        self._closed = False
        self._wake = threading.Event()

    @property
    def port(self) -> str:
        return self._link.port

    def _check(self) -> None:
        if self._closed or self._generation != self._link._generation:
            raise TransportError(f"{self.port}: the device went away")

    def read(self) -> bytes:
        self._check()
        if not self._pending:
            self._pending.extend(self._link.faults.apply(self._link.double.poll(time.monotonic())))
        if not self._pending:
            # wait for the double's clock, or less when the driver has a command to send
            self._wake.wait(self._link.poll_interval)
            self._wake.clear()
            self._check()
            self._pending.extend(self._link.faults.apply(self._link.double.poll(time.monotonic())))
        # a split frame arrives in pieces, as it would from a UART
        return self._pending.popleft() if self._pending else b""

    def write(self, data: bytes) -> None:
        self._check()
        self._link.double.feed(data, time.monotonic())

    def interrupt(self) -> None:
        """The driver has something to send: stop waiting for the double (any thread)."""
        self._wake.set()

    def close(self) -> None:
        self._closed = True
        self._wake.set()
