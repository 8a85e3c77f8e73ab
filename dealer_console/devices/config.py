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

from dealer_console.devices.kinds import DeviceKind, kind_named, kinds
from dealer_console.devices.settings import (
    BAUD_RATES,
    DEFAULT_PRODUCT_ID,
    DEFAULT_VENDOR_ID,
    BetSensorsConfig,
    DeviceConfigError,
    KeypadConfig,
    ShufflerConfig,
)

__all__ = ["BAUD_RATES", "DEFAULT_PRODUCT_ID", "DEFAULT_VENDOR_ID", "BetSensorsConfig",
           "DeviceConfigError", "DevicesConfig", "KeypadConfig", "ShufflerConfig",
           "devices_toml", "load_devices", "parse_devices", "save_devices", "with_device"]


@dataclass(frozen=True, slots=True)
class DevicesConfig:
    """The devices of one table; None for a device the table does not have. The three built-in
    kinds are fields; a kind registered beyond them (``devices/kinds.py``) is in ``more``."""

    shuffler: ShufflerConfig | None = None
    bet_sensors: BetSensorsConfig | None = None
    keypad: KeypadConfig | None = None
    source: str = field(default="", compare=False)
    more: tuple[tuple[str, Any], ...] = ()
    """``(kind name, settings)`` of the other registered kinds the table has."""

    def get(self, name: str) -> Any | None:
        """The settings of the device of kind ``name`` (any spelling), or None."""
        kind = kind_named(name)
        if kind is None:
            return None
        if kind.attr in _FIELDS:
            return getattr(self, kind.attr)
        return dict(self.more).get(kind.name)

    def configured(self) -> list[tuple[DeviceKind, Any]]:
        """Each kind the table has with its settings, in the registry's order."""
        return [(k, self.get(k.name)) for k in kinds() if self.get(k.name) is not None]


_FIELDS: Final = ("shuffler", "bet_sensors", "keypad")


def _with(source: str, values: Mapping[str, Any]) -> DevicesConfig:
    """A config from ``{kind name: settings}``."""
    named = {kind_named(n).attr: v for n, v in values.items()  # type: ignore[union-attr]
             if v is not None}
    builtin = {a: named.pop(a) for a in _FIELDS if a in named}
    more = tuple((kind_named(a).name, v) for a, v in named.items())  # type: ignore[union-attr]
    return DevicesConfig(source=source, more=more, **builtin)


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
    # TOML arrays (the sensors' seats) are tuples in the frozen settings
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in table.items()}
    try:
        return cls(**values)
    except DeviceConfigError as exc:
        raise DeviceConfigError(f"{source}: {exc}") from None


def parse_devices(data: Mapping[str, object], source: str = "devices") -> DevicesConfig:
    """The devices described by ``data`` (a parsed TOML document); ``source`` names it in
    errors. A section is a kind's name as an identifier (``[bet_sensors]``), its name or an
    older spelling."""
    found: dict[str, tuple[DeviceKind, str]] = {}
    for section in data:
        kind = kind_named(section)
        if kind is None:
            known = ", ".join(k.attr for k in kinds())
            raise DeviceConfigError(f"{source}: unknown device [{section}] (known: {known})")
        if kind.name in found:
            raise DeviceConfigError(f"{source}: [{section}] and [{found[kind.name][1]}] are "
                                    "the same device; keep one")
        found[kind.name] = (kind, section)
    parsed = {
        kind.name: _section(kind.settings, data[section], source, section)
        for kind, section in found.values()
    }
    return _with(source, parsed)


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
    for kind, values in config.configured():
        out.append(f"\n[{kind.attr}]")
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


def kind_of(settings: object) -> DeviceKind:
    """The kind whose settings ``settings`` are."""
    kind = next((k for k in kinds() if type(settings) is k.settings), None)
    if kind is None:
        raise DeviceConfigError(f"{type(settings).__name__} is no device kind's settings")
    return kind


def with_device(config: DevicesConfig, device: Any) -> DevicesConfig:
    """``config`` with one device's settings replaced."""
    values = {k.name: v for k, v in config.configured()}
    values[kind_of(device).name] = device
    return _with(config.source, values)
