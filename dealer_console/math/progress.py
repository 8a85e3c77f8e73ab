"""A progress bar for long computations: drawn on a terminal only, silent otherwise.

It writes to stderr with carriage returns, so it never mixes into the figures on stdout, and it
is off whenever stderr is not a terminal or the caller asked for JSON.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

_WIDTH = 30


class Progress:
    """``update(done)`` as work goes; ``close()`` at the end (also on interruption)."""

    def __init__(self, total: int, label: str, *, enabled: bool | None = None,
                 stream: TextIO | None = None, every: float = 0.2) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.every = every
        self._last = 0.0
        self._drawn = False
        self._start = time.monotonic()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.every and done < self.total:
            return
        self._last = now
        filled = _WIDTH * min(done, self.total) // self.total
        bar = "#" * filled + "-" * (_WIDTH - filled)
        rate = done / max(now - self._start, 1e-9)
        self.stream.write(
            f"\r{self.label} [{bar}] {done:,}/{self.total:,} ({rate:,.0f}/s)"
        )
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
