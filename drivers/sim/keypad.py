"""The simulated jackpot keypad: the firmware of docs/protocols/keypad.md, on a virtual bus.

It speaks the same reports as a real keypad through :class:`drivers.sim.usb_backend.
VirtualUsbBackend`, so the real driver and pyusb run against it. Scriptable (press, release,
tap, swipe a card, a bad swipe, unplug and replug, power cycle) from Python or from a text
script (:meth:`SimKeypad.play`), and it injects faults on the way to the console: dropped,
corrupted, duplicated, merged or split reports, garbage transfers, lost acknowledgements.

It has no thread: it answers the console's transfers on the console's I/O thread, so a test
is deterministic up to the retransmission timer.
"""

from __future__ import annotations

import enum
import random
import threading
import time
from collections import deque
from dataclasses import dataclass

from dealer_console.devices.keypad import (
    BadReadReason,
    Button,
    LedMode,
    SetLeds,
    check_track2,
)
from drivers.keypad import codec
from drivers.keypad.codec import ButtonAction, Report, ReportType
from drivers.keypad.transport import (
    CONFIGURATION,
    DEFAULT_PRODUCT_ID,
    DEFAULT_VENDOR_ID,
    EP_IN,
    EP_OUT,
    INTERFACE,
    INTERFACE_CLASS_VENDOR,
)
from drivers.sim.usb_backend import (
    ConfigurationDescriptor,
    DeviceDescriptor,
    EndpointDescriptor,
    InterfaceDescriptor,
    no_device,
    stalled,
    timed_out,
)

ENDPOINT_INTERRUPT = 0x03
WINDOW = 8
"""Events sent ahead of the last acknowledgement (go-back-N window, well under 128)."""
RETRANSMIT_S = 0.05
"""The keypad sends its oldest unacknowledged event again after this long without an ACK."""
QUEUE_LIMIT = 64
"""Events the keypad holds while the console does not acknowledge (e.g. cable pulled)."""


class Fault(enum.Enum):
    """What happens to the next sequenced IN transfer; LOSE_ACK and LOSE_LEDS drop the next
    ACK or SET_LEDS the console sends instead."""

    DROP = "drop"
    CORRUPT = "corrupt"
    DUPLICATE = "duplicate"
    MERGE = "merge"
    SPLIT = "split"
    LOSE_ACK = "lose-ack"
    LOSE_LEDS = "lose-leds"


@dataclass
class SimStats:
    sent: int = 0
    retransmitted: int = 0
    acks: int = 0
    bad_out: int = 0
    overflowed: int = 0


def keypad_descriptor(
    vendor_id: int, product_id: int, serial_number: str, firmware: str
) -> DeviceDescriptor:
    major, minor, _ = (int(p) for p in firmware.split("."))
    endpoints = (
        EndpointDescriptor(EP_IN, ENDPOINT_INTERRUPT, 64, 1),
        EndpointDescriptor(EP_OUT, ENDPOINT_INTERRUPT, 64, 1),
    )
    interface = InterfaceDescriptor(INTERFACE, INTERFACE_CLASS_VENDOR, endpoints)
    config = ConfigurationDescriptor(CONFIGURATION, (interface,), bmAttributes=0xC0)
    return DeviceDescriptor(
        vendor_id,
        product_id,
        (major << 8) | minor,
        (config,),
        strings=("Dealer Console project", "Jackpot keypad with card reader", serial_number),
        iManufacturer=1,
        iProduct=2,
        iSerialNumber=3,
    )


class SimKeypad:
    """A keypad on the virtual bus; attach it with ``VirtualUsbBackend(keypad)``."""

    def __init__(
        self,
        *,
        vendor_id: int = DEFAULT_VENDOR_ID,
        product_id: int = DEFAULT_PRODUCT_ID,
        serial_number: str = "SIMKP0001",
        firmware: str = "1.0.0",
        session: int | None = None,
        retransmit_s: float = RETRANSMIT_S,
        window: int = WINDOW,
    ) -> None:
        self._descriptor = keypad_descriptor(vendor_id, product_id, serial_number, firmware)
        self.serial_number = serial_number
        self.firmware = firmware
        self.retransmit_s = retransmit_s
        self.window = window
        self._cond = threading.Condition()
        self._plugged = True
        self._generation = 1
        self._session = session if session is not None else random.getrandbits(32)
        self._first_number = 1
        self._pending: deque[tuple[int, Report]] = deque()
        self._sent = 0  # how many of _pending went out since the last go-back
        self._last_send = 0.0
        self._control: deque[bytes] = deque()
        self._held: deque[bytes] = deque()  # transfers a fault holds back (duplicate, split)
        self._faults: deque[Fault] = deque()
        self._greeted = False
        self.leds = SetLeds()
        self.stats = SimStats()

    # -- VirtualDevice --

    @property
    def descriptor(self) -> DeviceDescriptor:
        return self._descriptor

    @property
    def plugged(self) -> bool:
        return self._plugged

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def session(self) -> int:
        return self._session

    def intr_read(self, ep: int, size: int, timeout_ms: int) -> bytes:
        if ep != EP_IN:
            raise stalled()
        deadline = time.monotonic() + timeout_ms / 1000
        with self._cond:
            while True:
                if not self._plugged:
                    raise no_device()
                data = self._next_transfer()
                if data is not None:
                    return data[:size]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise timed_out()
                if self._pending:
                    due = self._last_send + self.retransmit_s - time.monotonic()
                    remaining = min(remaining, max(due, 0.001))
                self._cond.wait(remaining)

    def intr_write(self, ep: int, data: bytes, timeout_ms: int) -> int:
        if ep != EP_OUT:
            raise stalled()
        with self._cond:
            if not self._plugged:
                raise no_device()
            decoded = codec.decode_transfer(data)
            if decoded.rejected:
                self.stats.bad_out += 1
            for report in decoded.reports:
                self._handle_out(report)
            self._cond.notify_all()
        return len(data)

    # -- the firmware --

    def _handle_out(self, report: Report) -> None:
        if report.type is ReportType.HELLO_REQUEST:
            self._greeted = True
            self._sent = 0
            first = self._pending[0][0] if self._pending else self._first_number
            hello = codec.Hello(self._session, first, self.firmware, self.serial_number)
            self._control.append(codec.hello_report(hello).encode())
        elif report.type is ReportType.ACK:
            if self._faults and self._faults[0] is Fault.LOSE_ACK:
                self._faults.popleft()
                return
            try:
                session = codec.parse_ack(report)
            except codec.DecodeError:
                self.stats.bad_out += 1
                return
            if session != self._session:
                return
            self.stats.acks += 1
            for i, (number, _) in enumerate(list(self._pending)[: self.window]):
                if number & 0xFF == report.seq:
                    for _ in range(i + 1):
                        self._pending.popleft()
                    self._sent = max(self._sent - (i + 1), 0)
                    self._last_send = time.monotonic()
                    break
        elif report.type is ReportType.SET_LEDS:
            if self._faults and self._faults[0] is Fault.LOSE_LEDS:
                self._faults.popleft()
                return
            try:
                self.leds = codec.parse_set_leds(report)
            except codec.DecodeError:
                self.stats.bad_out += 1
                return
            self._control.append(codec.led_ack_report(report.seq).encode())
        elif report.type is ReportType.PING:
            self._control.append(codec.pong_report(report.seq).encode())
        else:
            self.stats.bad_out += 1

    def _next_transfer(self) -> bytes | None:
        if self._control:
            return self._control.popleft()
        if not self._greeted:
            return None
        if self._held:
            return self._held.popleft()
        now = time.monotonic()
        if self._sent < min(len(self._pending), self.window):
            report = self._pending[self._sent][1]
            self._sent += 1
        elif self._pending and now - self._last_send >= self.retransmit_s:
            self._sent = 1
            report = self._pending[0][1]
            self.stats.retransmitted += 1
        else:
            return None
        self._last_send = now
        self.stats.sent += 1
        return self._apply_fault(report.encode())

    def _apply_fault(self, data: bytes) -> bytes | None:
        fault = self._faults[0] if self._faults else None
        if fault is None or fault in (Fault.LOSE_ACK, Fault.LOSE_LEDS):
            return data
        self._faults.popleft()
        if fault is Fault.DROP:
            return None
        if fault is Fault.CORRUPT:
            i = len(data) // 2
            return data[:i] + bytes((data[i] ^ 0x5A,)) + data[i + 1 :]
        if fault is Fault.DUPLICATE:
            self._held.append(data)
            return data
        if fault is Fault.SPLIT:
            half = len(data) // 2
            self._held.append(data[half:])
            return data[:half]
        # MERGE: this report and the next one waiting, in one transfer
        if self._sent < min(len(self._pending), self.window):
            follower = self._pending[self._sent][1].encode()
            self._sent += 1
            self.stats.sent += 1
            return data + follower
        return data

    def _event(self, kind: ReportType, payload: bytes) -> None:
        with self._cond:
            if len(self._pending) >= QUEUE_LIMIT:
                self.stats.overflowed += 1
                return
            number = self._first_number
            self._first_number += 1
            self._pending.append((number, Report(kind, number & 0xFF, payload)))
            self._cond.notify_all()

    # -- the script --

    def press(self, button: Button) -> None:
        self._event(ReportType.BUTTON, bytes((button, ButtonAction.PRESSED)))

    def release(self, button: Button) -> None:
        self._event(ReportType.BUTTON, bytes((button, ButtonAction.RELEASED)))

    def tap(self, button: Button) -> None:
        self.press(button)
        self.release(button)

    def swipe(self, track: str) -> None:
        """A clean read of a card whose track 2 holds ``track`` (no sentinels)."""
        check_track2(track)
        self._event(ReportType.CARD, bytes((codec.TRACK_2,)) + track.encode("ascii"))

    def bad_swipe(self, reason: BadReadReason = BadReadReason.LRC) -> None:
        self._event(ReportType.BAD_READ, bytes((reason,)))

    def inject(self, fault: Fault, count: int = 1) -> None:
        with self._cond:
            self._faults.extend([fault] * count)

    def clear_faults(self) -> None:
        """Forget faults not yet applied."""
        with self._cond:
            self._faults.clear()

    def garbage(self, data: bytes) -> None:
        """Send ``data`` as one transfer, ahead of anything else."""
        with self._cond:
            self._control.append(data[:64])
            self._cond.notify_all()

    def unplug(self) -> None:
        """Pull the cable: the keypad (powered by the table) keeps its unacknowledged events."""
        with self._cond:
            self._plugged = False
            self._control.clear()
            self._held.clear()
            self._greeted = False
            self._cond.notify_all()

    def replug(self) -> None:
        with self._cond:
            self._plugged = True
            self._generation += 1
            self._sent = 0
            self._cond.notify_all()

    def power_cycle(self) -> None:
        """Lose power: a new session, events not yet acknowledged are gone, lights off."""
        with self._cond:
            self._session = (self._session + 1) & 0xFFFFFFFF
            self._pending.clear()
            self._first_number = 1
            self._sent = 0
            self._held.clear()
            self._control.clear()
            self._greeted = False
            self.leds = SetLeds()
            self._generation += 1
            self._cond.notify_all()

    def waiting(self) -> int:
        """Events not yet acknowledged by the console."""
        with self._cond:
            return len(self._pending)

    def led(self, button: Button) -> LedMode:
        with self._cond:
            return self.leds.mode(button)

    def play(self, script: str) -> None:
        """Run a text script, one step a line (``#`` starts a comment)::

            tap START_GAME | press SEAT_3 | release SEAT_3 | swipe 1234567890
            bad-swipe LRC | unplug | replug | power-cycle | fault drop 2 | garbage 01ff

        Any button of the protocol page may be named, a two-game keypad's ``GAME_1`` and
        ``GAME_2`` keys included (``tap GAME_2`` then ``tap SEAT_1``, ``tap HAND_3``).
        """
        for lineno, raw in enumerate(script.splitlines(), 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            try:
                self._step(words)
            except (KeyError, ValueError, IndexError) as exc:
                raise ValueError(f"keypad script line {lineno} ({raw.strip()!r}): {exc}") from None

    def _step(self, words: list[str]) -> None:
        verb, args = words[0].lower(), words[1:]
        buttons = {"press": self.press, "release": self.release, "tap": self.tap}
        if verb in buttons:
            buttons[verb](Button[args[0].upper()])
        elif verb == "swipe":
            self.swipe(args[0])
        elif verb == "bad-swipe":
            self.bad_swipe(BadReadReason[args[0].upper()] if args else BadReadReason.LRC)
        elif verb == "unplug" and not args:
            self.unplug()
        elif verb == "replug" and not args:
            self.replug()
        elif verb == "power-cycle" and not args:
            self.power_cycle()
        elif verb == "fault":
            self.inject(Fault(args[0].lower()), int(args[1]) if len(args) > 1 else 1)
        elif verb == "garbage":
            self.garbage(bytes.fromhex(args[0]))
        else:
            raise ValueError(f"unknown step {verb!r}")
