"""Simulated doubles of the table's devices, speaking the same wire protocols.

Each double is sans I/O (``feed(bytes, now)`` / ``poll(now) -> frames``), so it runs three
ways: in-process in a test, behind a pseudo-terminal (:mod:`drivers.sim.pty`, which
``dealer-console sim`` uses), and with faults injected on its output
(:mod:`drivers.sim.faults`). Scripting methods are safe from any thread.
"""

from __future__ import annotations

from typing import Protocol


class Double(Protocol):
    """A simulated device: bytes from the console in, frames for the console out."""

    def feed(self, data: bytes, now: float) -> None: ...

    def poll(self, now: float) -> list[bytes]: ...
