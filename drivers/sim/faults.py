"""Faults on the wire from a double to the console: split, merged, corrupted and dropped
frames, and garbage between them. (Unplugging is the pseudo-terminal's business:
:meth:`drivers.sim.pty.PtyServer.unplug`.)

Faults are either queued one at a time (:meth:`FaultInjector.inject`: "corrupt the next
frame") for exact tests, or drawn at random per frame from a :class:`FaultPlan` with a seed,
for soak and fuzz runs that can be replayed.
"""

from __future__ import annotations

import collections
import enum
import random
import threading
from dataclasses import dataclass


class Fault(enum.Enum):
    SPLIT = "split"
    MERGE = "merge"
    CORRUPT = "corrupt"
    DROP = "drop"
    GARBAGE = "garbage"


@dataclass(frozen=True)
class FaultPlan:
    """Probability of each fault per frame."""

    split: float = 0.0
    merge: float = 0.0
    corrupt: float = 0.0
    drop: float = 0.0
    garbage: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        for fault in Fault:
            p = getattr(self, fault.value)
            if not 0 <= p <= 1:
                raise ValueError(f"fault probability {fault.value}={p} is not within 0..1")


class FaultInjector:
    """Turns the frames a double wants to send into the chunks that reach the wire."""

    def __init__(self, plan: FaultPlan | None = None) -> None:
        self.plan = plan or FaultPlan()
        self._rng = random.Random(self.plan.seed)
        self._queued: collections.deque[Fault] = collections.deque()
        self._held = b""
        self._lock = threading.Lock()
        self.applied: collections.Counter[Fault] = collections.Counter()

    def inject(self, fault: Fault, times: int = 1) -> None:
        """Apply ``fault`` to the next ``times`` frames (one fault per frame, in order)."""
        with self._lock:
            self._queued.extend([fault] * times)

    def _faults_for_frame(self) -> set[Fault]:
        if self._queued:
            return {self._queued.popleft()}
        return {f for f in Fault if self._rng.random() < getattr(self.plan, f.value)}

    def apply(self, frames: list[bytes]) -> list[bytes]:
        with self._lock:
            chunks: list[bytes] = []
            if self._held:  # a merged frame goes out with whatever comes next
                chunks.append(self._held)
                self._held = b""
            for frame in frames:
                faults = self._faults_for_frame()
                for fault in faults:
                    self.applied[fault] += 1
                if Fault.DROP in faults:
                    continue
                data = frame
                if Fault.CORRUPT in faults:
                    buf = bytearray(data)
                    at = self._rng.randrange(1, len(buf) - 1) if len(buf) > 2 else 0
                    buf[at] ^= 1 << self._rng.randrange(8)
                    data = bytes(buf)
                if Fault.GARBAGE in faults:
                    noise = self._rng.randbytes(self._rng.randint(1, 16))
                    data = noise + data
                if Fault.MERGE in faults:
                    self._held = data
                    continue
                if Fault.SPLIT in faults and len(data) > 1:
                    cuts = sorted(self._rng.sample(range(1, len(data)), min(3, len(data) - 1)))
                    pieces = [
                        data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)
                    ]
                    chunks.extend(pieces)
                    continue
                if chunks and not faults:
                    chunks[-1] += data  # frames sent in one go arrive together
                else:
                    chunks.append(data)
            return chunks
