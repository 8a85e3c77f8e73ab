"""Each device's own settings in the devices file: pure values that check themselves when
built (``devices/config.py`` reads and writes the file; ``devices/kinds.py`` names the section
each belongs to)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from dealer_console.errors import ConsoleError

BAUD_RATES: Final = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
"""Rates a UART and a USB serial adapter both offer; anything else is a typing error."""

DEFAULT_VENDOR_ID: Final = 0x1209
"""pid.codes' shared vendor id (docs/protocols/keypad.md); a maker puts its own here."""
DEFAULT_PRODUCT_ID: Final = 0x0001


class DeviceConfigError(ConsoleError, ValueError):
    """A device setting that cannot work; the message names where it is."""


def _check_seconds(where: str, name: str, value: float, low: float, high: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DeviceConfigError(f"{where} {name}: {value!r} is not a number of seconds")
    if not low <= value <= high:
        raise DeviceConfigError(f"{where} {name} {value} s is not within {low:g}-{high:g} s")


def _check_int(where: str, name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DeviceConfigError(f"{where} {name}: {value!r} is not a whole number")


def _check_port(where: str, port: str) -> None:
    if not isinstance(port, str) or not port.strip():
        raise DeviceConfigError(f"{where} port: {port!r} is not a port name or URL")


def _check_baud(where: str, baudrate: int) -> None:
    _check_int(where, "baudrate", baudrate)
    if baudrate not in BAUD_RATES:
        raise DeviceConfigError(
            f"{where} baudrate {baudrate} is not one of {', '.join(map(str, BAUD_RATES))}"
        )


@dataclass(frozen=True, slots=True)
class ShufflerConfig:
    """The shuffler's serial line (docs/protocols/shuffler.md, "Timing")."""

    port: str
    baudrate: int = 115200
    ack_timeout: float = 0.2
    heartbeat: float = 1.0
    silence_timeout: float = 3.0

    def __post_init__(self) -> None:
        where = "[shuffler]"
        _check_port(where, self.port)
        _check_baud(where, self.baudrate)
        _check_seconds(where, "ack_timeout", self.ack_timeout, 0.01, 5)
        _check_seconds(where, "heartbeat", self.heartbeat, 0.05, 60)
        _check_seconds(where, "silence_timeout", self.silence_timeout, 0.1, 120)
        if self.silence_timeout <= self.heartbeat:
            raise DeviceConfigError(
                f"{where} silence_timeout {self.silence_timeout} s must exceed heartbeat "
                f"{self.heartbeat} s, or a quiet but healthy shuffler looks gone"
            )


@dataclass(frozen=True, slots=True)
class BetSensorsConfig:
    """The bet-sensor bus (docs/protocols/bet-sensors.md, "Timing"): which seats have a node."""

    port: str
    baudrate: int = 115200
    seats: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
    reply_timeout: float = 0.03
    tries: int = 3
    poll_interval: float = 0.02
    offline_poll_interval: float = 0.5
    silence_timeout: float = 3.0

    def __post_init__(self) -> None:
        where = "[bet_sensors]"
        _check_port(where, self.port)
        _check_baud(where, self.baudrate)
        seats = self.seats
        if (
            not isinstance(seats, tuple)
            or not seats
            or any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 7 for s in seats)
            or len(set(seats)) != len(seats)
        ):
            raise DeviceConfigError(f"{where} seats: {list(seats)} must be distinct seats 1-7")
        _check_int(where, "tries", self.tries)
        if not 1 <= self.tries <= 10:
            raise DeviceConfigError(f"{where} tries {self.tries} is not 1-10")
        _check_seconds(where, "reply_timeout", self.reply_timeout, 0.005, 1)
        _check_seconds(where, "poll_interval", self.poll_interval, 0.001, 5)
        _check_seconds(where, "offline_poll_interval", self.offline_poll_interval, 0.01, 60)
        _check_seconds(where, "silence_timeout", self.silence_timeout, 0.1, 120)


@dataclass(frozen=True, slots=True)
class KeypadConfig:
    """The jackpot keypad on USB (docs/protocols/keypad.md): its ids and the pyusb backend.

    ``backend`` is ``libusb1``, ``libusb0``, ``openusb`` or ``package.module:factory`` (the
    simulated bus on a trainer's machine).
    """

    vendor_id: int = DEFAULT_VENDOR_ID
    product_id: int = DEFAULT_PRODUCT_ID
    backend: str = "libusb1"
    poll_interval: float = 0.02
    heartbeat: float = 1.0
    silence_timeout: float = 3.0

    def __post_init__(self) -> None:
        for name in ("vendor_id", "product_id"):
            value = getattr(self, name)
            _check_int("[keypad]", name, value)
            if not 0 <= value <= 0xFFFF:
                raise DeviceConfigError(f"[keypad] {name} {value:#x} is not a 16-bit USB id")
        if not isinstance(self.backend, str) or not self.backend:
            raise DeviceConfigError(f"[keypad] backend: {self.backend!r} names no backend")
        if not 0.001 <= self.poll_interval <= 1.0:
            raise DeviceConfigError(
                f"[keypad] poll_interval {self.poll_interval} s is not within 0.001-1 s"
            )
        _check_seconds("[keypad]", "heartbeat", self.heartbeat, 0.05, 60)
        _check_seconds("[keypad]", "silence_timeout", self.silence_timeout, 0.1, 120)
        if self.silence_timeout <= self.heartbeat:
            raise DeviceConfigError(
                f"[keypad] silence_timeout {self.silence_timeout} s must exceed heartbeat "
                f"{self.heartbeat} s"
            )
