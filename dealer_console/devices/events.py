"""What every device tells the round, whatever the device: the common event shape and the
connection events.

The round procedure is a state machine that must survive a crash of the console: it stores
what it applied and, after a restart, may see the same fact again (a device retransmits what
was not acknowledged). So every event carries the device's name, a sequence number that only
grows while the driver runs, and an idempotency :attr:`DeviceEvent.key` naming the fact itself
(for example the shuffler's deal id and delivery index): applying an event whose key is already
stored is a no-op. Events are frozen values; the drivers build them, nothing here does I/O.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable
from dataclasses import dataclass


class ConnectionState(enum.Enum):
    """Where a driver stands with its device (shown on the technician screen)."""

    STOPPED = "stopped"
    """The driver's thread is not running."""
    CONNECTING = "connecting"
    """The port is being opened, or is open and the device has not answered yet."""
    CONNECTED = "connected"
    """The device answers."""
    DISCONNECTED = "disconnected"
    """The device is gone; the driver retries with backoff."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceEvent:
    """Base of every device event.

    ``seq`` numbers the events of one driver run, 1, 2, 3, ... in the order they were emitted;
    ``key`` identifies the fact for idempotent application across runs.
    """

    device: str
    seq: int

    @property
    def key(self) -> Hashable:
        """The fact this event reports; two events with the same key report the same fact.

        Connection events are not facts of a round: their key is their own sequence.
        """
        return (type(self).__name__, self.device, self.seq)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceConnected(DeviceEvent):
    """The device answered after the port opened (first time or after a reconnection)."""

    firmware: str = ""
    serial_number: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceDisconnected(DeviceEvent):
    """The device went away (unplugged, powered off, silent); the driver keeps retrying."""

    reason: str


EventSink = Callable[[DeviceEvent], None]
"""A callback that receives events on the driver's I/O thread: it must be quick and must not
block (a Qt adapter re-emits the event as a queued signal)."""
