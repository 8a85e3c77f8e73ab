"""Where a technician says how the table's devices are wired: one small TOML file.

Pure values and their checks (no serial, no usb): the drivers build themselves from these
(``from_config``). A serial port is a string handed to pyserial's ``serial_for_url``, so a
device node, a ``/dev/serial/by-id/...`` link, ``spy://...?file=...`` for a traffic dump or a
simulator's pseudo-terminal all fit. The keypad is found by USB vendor/product id on the pyusb
backend named here. A device left out of the file is not on this table. docs/protocols/
README.md ("Wiring real hardware") shows the file; every bad value is refused with a message
naming the file, the table and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Final

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


@dataclass(frozen=True, slots=True)
class DevicesConfig:
    """The devices of one table; None for a device the table does not have."""

    shuffler: ShufflerConfig | None = None
    bet_sensors: BetSensorsConfig | None = None
    keypad: KeypadConfig | None = None
    source: str = field(default="", compare=False)


_SECTIONS: Final[dict[str, type[Any]]] = {
    "shuffler": ShufflerConfig,
    "bet_sensors": BetSensorsConfig,
    "keypad": KeypadConfig,
}


def _section(cls: type[Any], table: object, source: str, name: str) -> Any:
    where = f"{source} [{name}]"
    if not isinstance(table, Mapping):
        raise DeviceConfigError(f"{where}: expected a table of settings")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise DeviceConfigError(
            f"{where}: unknown setting {unknown[0]!r} (known: {', '.join(sorted(known))})"
        )
    missing = [n for n, f in known.items() if n not in table and f.default is MISSING]
    if missing:
        raise DeviceConfigError(f"{where}: the setting {missing[0]!r} is required")
    values = dict(table)
    if isinstance(values.get("seats"), list):
        values["seats"] = tuple(values["seats"])
    try:
        return cls(**values)
    except DeviceConfigError as exc:
        raise DeviceConfigError(f"{source}: {exc}") from None


def parse_devices(data: Mapping[str, object], source: str = "devices") -> DevicesConfig:
    """The devices described by ``data`` (a parsed TOML document); ``source`` names it in
    errors."""
    unknown = sorted(set(data) - set(_SECTIONS))
    if unknown:
        raise DeviceConfigError(
            f"{source}: unknown device [{unknown[0]}] (known: {', '.join(_SECTIONS)})"
        )
    parsed = {
        name: _section(cls, data[name], source, name)
        for name, cls in _SECTIONS.items()
        if name in data
    }
    return DevicesConfig(source=source, **parsed)


def load_devices(path: str | Path) -> DevicesConfig:
    """Read a devices file; a missing file or bad TOML is refused naming the file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DeviceConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DeviceConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_devices(data, str(path))





def _toml_value(value: object) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def devices_toml(config: DevicesConfig) -> str:
    """The devices file for ``config``; read back it gives the same config."""
    out = ["# The table's devices (docs/technician.md, docs/protocols/README.md)."]
    for section in _SECTIONS:
        values = getattr(config, section)
        if values is None:
            continue
        out.append(f"\n[{section}]")
        for f in fields(values):
            value = getattr(values, f.name)
            shown = f"0x{value:04x}" if f.name in ("vendor_id", "product_id") else \
                _toml_value(value)
            out.append(f"{f.name} = {shown}")
    return "\n".join(out) + "\n"


def save_devices(path: str | Path, config: DevicesConfig) -> None:
    """Write the devices file atomically, after checking it reads back as ``config`` (every
    value was already checked when ``config`` was built)."""
    text = devices_toml(config)
    if parse_devices(tomllib.loads(text), str(path)) != config:
        raise DeviceConfigError(f"{path}: the devices file would not read back as written")
    path = Path(path)
    temporary = path.with_name(path.name + ".new")
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        raise DeviceConfigError(f"{path}: cannot write: {exc.strerror or exc}") from None


def with_device(config: DevicesConfig, device: ShufflerConfig | BetSensorsConfig
                | KeypadConfig) -> DevicesConfig:
    """``config`` with one device's settings replaced."""
    section = {ShufflerConfig: "shuffler", BetSensorsConfig: "bet_sensors",
               KeypadConfig: "keypad"}[type(device)]
    values = {s: getattr(config, s) for s in _SECTIONS}
    values[section] = device
    return DevicesConfig(source=config.source, **values)
