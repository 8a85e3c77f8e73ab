"""A simulated bet-sensor bus: one node per seat, speaking docs/protocols/bet-sensors.md.

Scriptable by calls that are safe from any thread: put a chip on a spot or take it away
(before the lock it is a bet, after it a late bet or a removal), take a node off the bus and
put it back. The nodes keep their lights, so a test reads what the console set.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

from dealer_console.devices.bet_sensors import SEATS, SPOTS_PER_SEAT, LightColour, LightMode
from drivers.bet_sensors import framer as f

FIRMWARE = "SIM-BS-1.2"


@dataclass
class SensorNode:
    seat: int
    spots: int = SPOTS_PER_SEAT
    online: bool = True
    present: int = 0
    lock_id: int = 0
    wagered: int = 0
    late: int = 0
    removed: int = 0
    lights: list[tuple[LightMode, LightColour]] = field(default_factory=list)
    firmware: str = FIRMWARE

    def __post_init__(self) -> None:
        if not self.lights:
            self.lights = [(LightMode.OFF, LightColour.WHITE)] * self.spots

    @property
    def serial_number(self) -> str:
        return f"SIM-BS-{self.seat:04d}"

    def place(self, spot: int) -> None:
        b = f.bit(spot)
        if self.lock_id and not self.wagered & b and not self.present & b:
            self.late |= b
        self.present |= b

    def take(self, spot: int) -> None:
        b = f.bit(spot)
        if self.lock_id and self.wagered & b and self.present & b:
            self.removed |= b
        self.present &= ~b

    def handle(self, request: f.Message) -> f.Reply | None:
        if isinstance(request, f.Identify):
            return f.Identity(self.spots, self.firmware, self.serial_number)
        if isinstance(request, f.SetLight):
            if request.spot > self.spots:
                return None  # no such spot fitted: a real node would stay silent too
            self.lights[request.spot - 1] = (request.mode, request.colour)
        elif isinstance(request, f.Lock) and request.lock_id != self.lock_id:
            self.lock_id, self.wagered, self.late, self.removed = (
                request.lock_id,
                self.present,
                0,
                0,
            )
        elif isinstance(request, f.Unlock) and request.lock_id == self.lock_id:
            self.lock_id = self.wagered = self.late = self.removed = 0
        elif not isinstance(request, f.Poll | f.Lock | f.Unlock):
            return None
        return f.State(
            self.spots,
            self.present,
            self.lock_id,
            self.wagered,
            self.late,
            self.removed,
            tuple(self.lights),
        )


class BetSensorBusDouble:
    def __init__(self, seats: range | list[int] = range(1, SEATS + 1), spots: int = 2) -> None:
        self.nodes = {seat: SensorNode(seat, spots) for seat in seats}
        self._framer = f.BetSensorFramer()
        self._out: list[bytes] = []
        self._lock = threading.RLock()
        self.requests = 0
        self.heard: deque[tuple[int, int, int]] = deque(maxlen=1000)
        """(request number, seat, SEQ) of the latest requests, answered or not: a SEQ sent
        twice to a seat is a retry."""

    # ------------------------------------------------------------------ scripting
    def place(self, seat: int, spot: int) -> None:
        with self._lock:
            self.nodes[seat].place(spot)

    def take(self, seat: int, spot: int) -> None:
        with self._lock:
            self.nodes[seat].take(spot)

    def reboot(self, seat: int) -> None:
        """The node restarts (a power dip): it forgets its lock, sticky bits and lights; the
        chips stay where they are."""
        with self._lock:
            old = self.nodes[seat]
            self.nodes[seat] = SensorNode(seat, old.spots, old.online, present=old.present)

    def set_online(self, seat: int, online: bool) -> None:
        with self._lock:
            self.nodes[seat].online = online

    def light(self, seat: int, spot: int) -> tuple[LightMode, LightColour]:
        with self._lock:
            return self.nodes[seat].lights[spot - 1]

    # ------------------------------------------------------------------ the wire
    def feed(self, data: bytes, now: float) -> None:
        with self._lock:
            for item in self._framer.feed(data):
                frame = item.frame
                if frame is None or frame.reply:
                    continue  # damaged, or another node's answer: not for us
                self.requests += 1
                self.heard.append((self.requests, frame.address, frame.seq))
                node = self.nodes.get(frame.address)
                if node is None or not node.online:
                    continue
                reply = node.handle(frame.message)
                if reply is not None:
                    self._out.append(f.BusFrame(node.seat, True, frame.seq, reply).wire())

    def poll(self, now: float) -> list[bytes]:
        with self._lock:
            out, self._out = self._out, []
            return out
