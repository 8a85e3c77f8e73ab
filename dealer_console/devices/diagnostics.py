"""What the technician screen shows about one device, and the interface every driver offers it.

A snapshot is a frozen value taken under the driver's lock, so the screen (another thread)
never sees counters half updated. Test actions (light test, keypad echo, read a card,
shuffler status and deck count) are named strings, so the screen lists what each device
offers without knowing its class; their results arrive as ordinary events.
"""

from __future__ import annotations

import collections
import itertools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, Protocol

from dealer_console.devices.events import ConnectionState, DeviceEvent, EventSink


@dataclass(frozen=True, slots=True)
class DiagnosticsSnapshot:
    """One device's link health at one moment.

    ``last_rx`` / ``last_tx`` hold the most recent raw frames in hex, oldest first, as they were
    on the wire (with framing bytes), so a technician can compare them with a traffic dump.
    """

    device: str
    state: ConnectionState
    port: str = ""
    firmware: str = ""
    serial_number: str = ""
    frames_good: int = 0
    frames_bad: int = 0
    frames_retransmitted: int = 0
    duplicates_dropped: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    connects: int = 0
    disconnects: int = 0
    events_unread_dropped: int = 0
    """Events no reader took off the driver's queue in time (only subscribers listened)."""
    internal_errors: int = 0
    """Bugs the driver survived (a protocol hook or its loop raised what no one foresaw)."""
    loop_restarts: int = 0
    """Times the I/O loop itself failed and was started again (each also an internal error)."""
    last_error: str = ""
    last_rx: tuple[str, ...] = ()
    last_tx: tuple[str, ...] = ()
    extra: Mapping[str, str] = field(default_factory=dict)


FRAMES_TAPPED: Final = 500
"""Raw frames a driver keeps for the technician's live view: a few seconds of a busy bus, a
bounded memory however long nobody looks."""


@dataclass(frozen=True, slots=True)
class RawFrame:
    """One frame as it crossed the wire, for the technician's live view.

    ``shown`` is the hex (with a secret such as a card's track data masked) and ``decoded`` the
    driver's reading of it; ``number`` counts up per driver, so a screen asks only for what it
    has not drawn yet.
    """

    number: int
    direction: str
    """``in`` (device to console) or ``out`` (console to device)."""
    shown: str
    decoded: str
    good: bool = True


class FrameTap:
    """A bounded, thread-safe feed of raw frames: the driver's I/O thread appends, the GUI
    thread reads through the controller (never a widget touched from the I/O thread)."""

    def __init__(self, keep: int = FRAMES_TAPPED) -> None:
        self._lock = threading.Lock()
        self._frames: collections.deque[_Tapped] = collections.deque(maxlen=keep)
        self._numbers = itertools.count(1)

    def add(self, direction: str, shown: str, decoded: str | Callable[[], str],
            good: bool = True) -> None:
        """``decoded`` may be a function that reads the frame, called only when the frame is
        asked for (on the reader's thread): the bet sensors' polls, read into words as they
        crossed the wire, took about 40% of their I/O thread though nobody looked."""
        with self._lock:
            self._frames.append((next(self._numbers), direction, shown, decoded, good))

    def since(self, number: int = 0) -> tuple[RawFrame, ...]:
        """The frames kept whose number is above ``number``, oldest first."""
        with self._lock:
            kept = [f for f in self._frames if f[0] > number]
        return tuple(RawFrame(n, direction, shown, decoded if isinstance(decoded, str)
                              else decoded(), good)
                     for n, direction, shown, decoded, good in kept)


_Tapped = tuple[int, str, str, "str | Callable[[], str]", bool]
"""A frame as kept: its number, direction, hex, reading (or how to read it) and whether it
was good."""


class DeviceDriver(Protocol):
    """What the console needs from any device driver, whatever its bus."""

    @property
    def name(self) -> str: ...

    @property
    def state(self) -> ConnectionState: ...

    def start(self) -> None:
        """Start the driver's I/O thread; it connects, and reconnects, on its own."""

    def stop(self, timeout: float = ...) -> None:
        """Stop the thread and close the port."""

    def subscribe(self, sink: EventSink, *, only_reader: bool = False,
                  unread: EventSink | None = None) -> None:
        """Also deliver every event to ``sink`` (called on the I/O thread); ``only_reader``:
        nothing is kept for :meth:`get_event` any more, and the events no one has read yet
        go first to ``unread`` (``sink`` when None), in order."""

    def get_event(self, timeout: float | None = None) -> DeviceEvent | None:
        """The next event from the driver's thread-safe queue, or None after ``timeout``."""

    def diagnostics(self) -> DiagnosticsSnapshot: ...

    def test_actions(self) -> tuple[str, ...]:
        """Names of the technician's test actions this device offers."""

    def run_test_action(self, action: str) -> None:
        """Start a test action; an unknown name raises ValueError naming it."""

    def frames(self, after: int = 0) -> tuple[RawFrame, ...]:
        """The raw frames tapped since frame number ``after`` (see :class:`FrameTap`)."""
