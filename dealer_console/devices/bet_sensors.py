"""What the jackpot bet sensors tell the round, and what the round sets on them.

One node per seat on a bus, each with up to two spots: the Washington layout may carry two
independent jackpot games, one sensor each (../shared/rules/washington-face-up-pai-gow-and-
jackpot.txt, "House Jackpot and Progressive Jackpots"). A wager is a chip on a sensor; START GAME
locks the sensors and takes the wagers ("Face Up Pai Gow Poker Jackpot Rules of Play", items 5
and 6). After the lock a chip that appears is a late bet and a wagered chip that leaves is
reported as removed; since the same rules have the dealer take the jackpot chips off the table
after START GAME, a removal is information for the round, not an error in itself.

Each lock has a ``lock_id`` chosen by the console; a report naming ``(lock_id, seat, spot)``
is safe to apply twice.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final, Protocol

from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.devices.events import DeviceEvent

SEATS: Final = 7
SPOTS_PER_SEAT: Final = 2


@dataclass(frozen=True, slots=True, order=True)
class Spot:
    """One sensor: ``seat`` 1-7, ``spot`` 1-2 (the jackpot game it belongs to)."""

    seat: int
    spot: int

    def __post_init__(self) -> None:
        if not 1 <= self.seat <= SEATS:
            raise ValueError(f"seat {self.seat} is not 1-{SEATS}")
        if not 1 <= self.spot <= SPOTS_PER_SEAT:
            raise ValueError(f"spot {self.spot} of seat {self.seat} is not 1-{SPOTS_PER_SEAT}")

    def __str__(self) -> str:
        return f"seat {self.seat} spot {self.spot}"


class LightMode(enum.IntEnum):
    """The value is its code on the wire (docs/protocols/bet-sensors.md)."""

    OFF = 0
    ON = 1
    BLINK = 2


class LightColour(enum.IntEnum):
    """The value is its code on the wire."""

    WHITE = 0
    RED = 1
    GREEN = 2
    BLUE = 3
    AMBER = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class BetSpotChanged(DeviceEvent):
    """A chip arrived on (``present``) or left a spot while the spots are unlocked."""

    spot: Spot
    present: bool

    @property
    def key(self) -> Hashable:
        return ("spot", self.device, self.seq)


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsLocked(DeviceEvent):
    """Every node confirmed the lock; ``wagered`` are the spots that held a chip at that moment:
    the jackpot wagers of the round."""

    lock_id: int
    wagered: frozenset[Spot]

    @property
    def key(self) -> Hashable:
        return ("locked", self.device, self.lock_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class LateBet(DeviceEvent):
    """A chip arrived on a spot that was empty at the lock."""

    lock_id: int
    spot: Spot

    @property
    def key(self) -> Hashable:
        return ("late", self.device, self.lock_id, self.spot)


@dataclass(frozen=True, slots=True, kw_only=True)
class BetRemoved(DeviceEvent):
    """A chip left a spot that held a wager at the lock."""

    lock_id: int
    spot: Spot

    @property
    def key(self) -> Hashable:
        return ("removed", self.device, self.lock_id, self.spot)


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsUnlocked(DeviceEvent):
    """The lock ``lock_id`` is released on every node (END GAME): spots report freely again."""

    lock_id: int

    @property
    def key(self) -> Hashable:
        return ("unlocked", self.device, self.lock_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class SensorNodeChanged(DeviceEvent):
    """A seat's node stopped answering on the bus, or answers again."""

    seat: int
    online: bool
    firmware: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeLightTest(DeviceEvent):
    """A seat's node answered the technician's light test (its lights blink), or did not
    answer it."""

    seat: int
    answered: bool


class BetSensorControl(DeviceDriver, Protocol):
    """What the table controller asks of the bet sensors (``drivers.bet_sensors`` fulfils it);
    safe from any thread, returns at once."""

    def set_light(self, spot: Spot, mode: LightMode, colour: LightColour = ...) -> None: ...

    def lock(self, lock_id: int | None = None) -> int:
        """Lock every spot (START GAME); returns the lock id the events will carry. The round
        passes its own id, so a lock asked for again after a restart is the same fact."""

    def unlock(self) -> None:
        """Release the lock (END GAME)."""
