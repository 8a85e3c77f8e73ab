"""The keypad driver: reports in, keypad events out; LED commands in, reports out.

It runs on the shared I/O thread (``drivers.base.DeviceThread``): on every (re)connection it
asks the keypad for HELLO, learns the keypad's session and the number of its oldest waiting
event, and from then on accepts each event exactly once, in order. The rules are in
docs/protocols/keypad.md ("Sequence numbers and acknowledgement"): an event whose number is
the one expected is delivered and acknowledged; an older one is a repeat (dropped and
acknowledged again); a newer one means one went missing, and the keypad's own timer sends the
missing one again. Keeping the session and the expected number across reconnections is what
makes a replug lose nothing and repeat nothing.

LEDs are sent as the whole state, so a lost or repeated command does no harm: the driver sends
it again until the keypad echoes its number, and again after every reconnection.
"""

from __future__ import annotations

from typing import Any, Final

from dealer_console.devices.config import KeypadConfig
from dealer_console.devices.keypad import (
    BadRead,
    Button,
    ButtonPressed,
    ButtonReleased,
    CardSwiped,
    LedMode,
    SetLeds,
    mask_track,
)
from drivers.backoff import Backoff
from drivers.base import DeviceThread
from drivers.clock import REAL_CLOCK, Clock
from drivers.keypad import codec
from drivers.keypad.codec import SEQUENCED, ButtonAction, Report, ReportType
from drivers.keypad.transport import (
    DEFAULT_PRODUCT_ID,
    DEFAULT_VENDOR_ID,
    UsbKeypadTransport,
    backend_from_config,
)

__all__ = ["KEPT_WINDOW", "TEST_ACTIONS", "KeypadConfig", "KeypadDriver"]

KEPT_WINDOW: Final = 0.3
"""Seconds after the HELLO of a reconnection (or of a session an earlier console read: a
restart) in which an event is taken as one the keypad kept while no console read it (it sends
those at once, from the oldest; a person cannot press a key that soon after plugging the cable
back). Such an event is delivered marked ``kept``: a START GAME pressed in an earlier round
must not start this one (an outside review's finding)."""

TEST_ACTIONS: Final = ("light test", "keypad echo", "read card")
"""The technician's tests: all lights on for a moment; each button lights while held; show
the next swipe (masked). Named with spaces like the other devices' tests."""
_ACTION_ALIASES: Final = {name.replace(" ", "_"): name for name in TEST_ACTIONS}
"""The first names of the tests, still accepted."""


class KeypadDriver(DeviceThread):
    """The jackpot keypad with its card reader, found by USB id on the given pyusb backend."""

    def __init__(
        self,
        backend: Any,
        *,
        name: str = "keypad",
        vendor_id: int = DEFAULT_VENDOR_ID,
        product_id: int = DEFAULT_PRODUCT_ID,
        poll_interval: float = 0.02,
        backoff: Backoff | None = None,
        clock: Clock = REAL_CLOCK,
        heartbeat: float = 1.0,
        silence_timeout: float = 3.0,
        resend_after: float = 0.1,
        light_test_seconds: float = 2.0,
    ) -> None:
        def open_transport() -> UsbKeypadTransport:
            transport = UsbKeypadTransport(backend, vendor_id, product_id, poll_interval)
            transport.open()
            return transport

        super().__init__(
            name,
            open_transport,
            backoff=backoff,
            clock=clock,
            silence_timeout=silence_timeout,
            redact=codec.redacted_hex,
            describe=codec.describe,
        )
        self._heartbeat = heartbeat
        self._resend_after = resend_after
        self._light_test_seconds = light_test_seconds
        # Protocol state, touched on the I/O thread only.
        self._session: int | None = None
        self._expected = 0
        self._greeted = False
        self._greeted_before = False
        self._kept_until = 0.0
        self._hello_sent = 0.0
        self._last_ping = 0.0
        self._leds = SetLeds()
        self._led_seq = 0
        self._led_sent: float | None = None
        self._led_dirty = True
        self._held: set[Button] = set()
        self._echo = False
        self._light_test_until: float | None = None
        self._read_card_armed = False

    @classmethod
    def from_config(cls, config: KeypadConfig, **kwargs: Any) -> KeypadDriver:
        """The driver a devices file describes (``dealer_console.devices.config``)."""
        return cls(
            backend_from_config(config.backend),
            vendor_id=config.vendor_id,
            product_id=config.product_id,
            poll_interval=config.poll_interval,
            heartbeat=config.heartbeat,
            silence_timeout=config.silence_timeout,
            **kwargs,
        )

    # ----------------------------------------------------------------- any thread
    def set_leds(self, command: SetLeds) -> None:
        """Show ``command`` on the keypad (the whole state: unnamed buttons go dark)."""
        self.submit(lambda: self._want_leds(command))

    def test_actions(self) -> tuple[str, ...]:
        return TEST_ACTIONS

    def run_test_action(self, action: str) -> None:
        action = _ACTION_ALIASES.get(action, action)
        if action not in TEST_ACTIONS:
            raise ValueError(
                f"keypad has no test action {action!r}; it offers {', '.join(TEST_ACTIONS)}"
            )
        self.submit(getattr(self, f"_test_{action.replace(' ', '_')}"))

    # ----------------------------------------------------------------- test actions
    def _test_light_test(self) -> None:
        self._light_test_until = self._now() + self._light_test_seconds
        self._led_dirty = True

    def _test_keypad_echo(self) -> None:
        self._echo = not self._echo
        self.diag.set_extra("keypad echo", "on" if self._echo else "off")
        self._led_dirty = True

    def _test_read_card(self) -> None:
        self._read_card_armed = True
        self.diag.set_extra("read card", "waiting for a swipe")

    def _want_leds(self, command: SetLeds) -> None:
        self._leds = command
        self._led_dirty = True

    def _shown_leds(self) -> SetLeds:
        if self._light_test_until is not None:
            return SetLeds.all(LedMode.ON)
        if self._echo:
            return SetLeds.of({b: LedMode.ON for b in self._held})
        return self._leds

    # ----------------------------------------------------------------- I/O thread hooks
    def _send(self, report: Report, retransmission: bool = False) -> None:
        self._write(report.encode(), retransmission)

    def _on_open(self) -> None:
        self._greeted = False
        self._held.clear()
        self._hello_sent = self._now()
        self._send(codec.hello_request_report())

    def _on_close(self) -> None:
        self._greeted = False
        self._led_sent = None
        self._led_dirty = True

    def _on_data(self, data: bytes) -> None:
        decoded = codec.decode_transfer(data)
        self.diag.rx_chunk(data, len(decoded.reports), int(bool(decoded.rejected)))
        if decoded.rejected:
            self.diag.update(last_error=f"keypad report rejected: {decoded.reason}")
        ack = False
        for report in decoded.reports:
            if report.type in SEQUENCED:
                ack |= self._sequenced(report)
            else:
                self._unsequenced(report)
        if ack and self._session is not None:
            self._send(codec.ack_report(self._session, (self._expected - 1) & 0xFF))

    def _unsequenced(self, report: Report) -> None:
        if report.type is ReportType.HELLO:
            try:
                hello = codec.parse_hello(report)
            except codec.DecodeError as exc:
                self._bad(str(exc))
                return
            if hello.session != self._session or hello.first_number > self._expected:
                # A keypad (or a keypad session) we have not heard before: take its events
                # from its oldest waiting one.
                self._session = hello.session
                self._expected = hello.first_number
            if self._greeted_before or hello.first_number > 1:
                # what comes at once was kept: at a reconnection, or at this driver's first
                # HELLO from a session an earlier console read (the keypad, powered by the
                # table, kept what was pressed while the console restarted; an outside review's
                # START GAME pressed then started a round when the console came back)
                self._kept_until = self._now() + KEPT_WINDOW
            self._greeted = self._greeted_before = True
            self._mark_alive(hello.firmware, hello.serial_number)
            if self._expected > hello.first_number:
                # Events we already delivered are still waiting in the keypad: release them.
                self._send(codec.ack_report(hello.session, (self._expected - 1) & 0xFF))
        elif not self._greeted:
            return
        elif report.type is ReportType.LED_ACK:
            if report.seq == self._led_seq:
                self._led_sent = None
            self._mark_alive()
        elif report.type is ReportType.PONG:
            self._mark_alive()
        else:
            self._bad(f"unexpected report {report.type.name}")

    def _bad(self, reason: str) -> None:
        self.diag.count("frames_bad")
        self.diag.update(last_error=f"keypad: {reason}")

    def _sequenced(self, report: Report) -> bool:
        """Deliver ``report`` if it is the next event; True when an ACK should go out."""
        if not self._greeted or self._session is None:
            return False
        self._mark_alive()
        ahead = (report.seq - self._expected) & 0xFF
        if ahead >= 0x80:
            self.diag.count("duplicates_dropped")
            return True
        if ahead:
            self.diag.count("events_out_of_order")
            return False
        number = self._expected
        self._expected += 1
        try:
            self._deliver(report, self._session, number)
        except (codec.DecodeError, ValueError) as exc:
            # Well framed but meaningless (say, a button a newer firmware added): it is
            # acknowledged so the stream goes on, and shown to the technician.
            self._bad(f"event {number}: {exc}")
        return True

    def _deliver(self, report: Report, session: int, number: int) -> None:
        kept = bool(self._kept_until) and self._now() < self._kept_until
        if not kept:
            self._kept_until = 0.0  # the window is over: no clock read per event after it
        ids = {"session": session, "number": number, "kept": kept}
        if report.type is ReportType.BUTTON:
            button, action = codec.parse_button(report)
            if action is ButtonAction.PRESSED:
                self._held.add(button)
                self._emit(ButtonPressed, button=button, **ids)
            else:
                self._held.discard(button)
                self._emit(ButtonReleased, button=button, **ids)
            if self._echo:
                self._led_dirty = True
        elif report.type is ReportType.CARD:
            track = codec.parse_card(report)
            self._emit(CardSwiped, track=track, **ids)
            if self._read_card_armed:
                self._read_card_armed = False
                self.diag.set_extra("read card", f"read {mask_track(track)}")
        else:
            reason = codec.parse_bad_read(report)
            self._emit(BadRead, reason=reason, **ids)
            if self._read_card_armed:
                self._read_card_armed = False
                self.diag.set_extra("read card", f"bad read ({reason.name})")

    def _on_tick(self, now: float) -> None:
        if not self._greeted:
            if now - self._hello_sent >= self._resend_after * 5:
                self._hello_sent = now
                self._send(codec.hello_request_report(), retransmission=True)
            return
        if now - self._last_ping >= self._heartbeat:
            self._last_ping = now
            self._send(codec.ping_report(0))
        if self._light_test_until is not None and now >= self._light_test_until:
            self._light_test_until = None
            self._led_dirty = True
        if self._led_dirty:
            self._led_dirty = False
            self._led_seq = (self._led_seq + 1) & 0xFF
            self._led_sent = now
            self._send(codec.set_leds_report(self._led_seq, self._shown_leds()))
        elif self._led_sent is not None and now - self._led_sent >= self._resend_after:
            self._led_sent = now
            self._send(
                codec.set_leds_report(self._led_seq, self._shown_leds()), retransmission=True
            )
