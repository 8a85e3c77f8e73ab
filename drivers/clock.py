"""The time a driver's I/O thread reads and waits on, so a test can unplug a device for ten
thousand reconnection attempts without waiting for them (issue 22: a long unplug used to kill
the thread).

The real clock is ``time.monotonic`` and ``Event.wait``. :class:`SkippingClock` keeps real time
running (the protocol's own timers still work against a live double) but makes every wait
return at once, adding the skipped seconds to what it reports, so a test's "hour unplugged"
takes as long as the attempts themselves.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds from an arbitrary start; never goes back."""

    def wait(self, stop: threading.Event, seconds: float) -> bool:
        """Wait ``seconds`` or until ``stop`` is set; True when it is set."""


class RealClock:
    def monotonic(self) -> float:
        return time.monotonic()

    def wait(self, stop: threading.Event, seconds: float) -> bool:
        return stop.wait(seconds)


REAL_CLOCK = RealClock()


class SkippingClock:
    """Real time plus every wait skipped; counts the waits and the seconds skipped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._skipped = 0.0
        self.waits = 0

    def monotonic(self) -> float:
        with self._lock:
            return time.monotonic() + self._skipped

    def wait(self, stop: threading.Event, seconds: float) -> bool:
        with self._lock:
            self._skipped += max(seconds, 0.0)
            self.waits += 1
        time.sleep(0)  # let other threads run: the waiting thread would have slept
        return stop.is_set()

    @property
    def skipped(self) -> float:
        with self._lock:
            return self._skipped
