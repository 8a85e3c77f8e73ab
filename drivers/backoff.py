"""Delays between reconnection attempts: exponential, capped, with optional jitter.

The delay is kept, not recomputed from the attempt count: ``factor ** attempt`` overflowed a
float after about a thousand failures and killed the device's thread (issue 22), so a cable
pulled for a long break left the device dead until a restart. Nothing here grows with time.

A table PC may host several devices on one USB hub that comes back all at once; jitter keeps
their retries from marching in step. Jitter takes its randomness from a ``random.Random``
passed in, so tests are deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Backoff:
    initial: float = 0.05
    factor: float = 2.0
    maximum: float = 2.0
    jitter: float = 0.0
    """Fraction of the delay added at random, 0 for none."""
    rng: random.Random = field(default_factory=random.Random)
    _attempt: int = 0
    _delay: float = 0.0

    def __post_init__(self) -> None:
        if self.initial <= 0 or self.factor < 1 or self.maximum < self.initial:
            raise ValueError(
                f"backoff needs 0 < initial <= maximum and factor >= 1, got initial "
                f"{self.initial}, factor {self.factor}, maximum {self.maximum}"
            )
        if not 0 <= self.jitter <= 1:
            raise ValueError(f"backoff jitter {self.jitter} is not within 0..1")
        self._delay = self.initial

    def next_delay(self) -> float:
        """The delay before the next attempt; each call counts one failed attempt."""
        base = self._delay
        self._delay = min(self.maximum, self._delay * self.factor)
        self._attempt += 1
        if self.jitter:
            base += base * self.jitter * self.rng.random()
        return base

    def reset(self) -> None:
        """The device answered: the next failure starts from ``initial`` again."""
        self._attempt = 0
        self._delay = self.initial

    @property
    def attempts(self) -> int:
        return self._attempt
