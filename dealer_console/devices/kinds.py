"""The kinds of device a table can have, each said once (docs/adding-a-device.md).

Everything that lists devices reads this registry: the devices file's sections
(``devices/config.py``), the table's device slots and their health words (the controller), the
self-test's probe, the simulated hardware and the technician's screens. A kind's ``name`` is
its one spelling: in events, health, the technician's tabs, ``--devices`` and the devices
file's section. Where Python needs an identifier (a dataclass field) it is the name with
``-`` as ``_`` (:attr:`DeviceKind.attr`), derived here and never written by hand. Spellings
of files and data written before the registry are still read (``old_names``).

The driver and the simulated double are named as ``module:attribute`` strings, loaded only
when a driver is built: this package stays below ``drivers`` (no serial, usb or Qt here).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from dealer_console.devices.settings import BetSensorsConfig, KeypadConfig, ShufflerConfig


@dataclass(frozen=True, slots=True)
class DeviceKind:
    """One kind of device, and where each of its parts lives."""

    name: str
    """Its one spelling (``bet-sensors``)."""
    title: str
    """What people call it (the dealer's health line, the technician's tab)."""
    cable: str
    """What to check when it is not answering, in the dealer's words."""
    settings: type[Any]
    """The frozen dataclass of its devices-file section; checks its values when built."""
    driver: str
    """``module:Class`` of its driver; the class has ``from_config(settings)``."""
    double: str
    """``module:function`` building it simulated: ``function(hardware) -> driver`` (see
    ``drivers/sim/hardware.py``)."""
    old_names: tuple[str, ...] = ()
    """Spellings of this kind in devices files and data written before."""

    @property
    def attr(self) -> str:
        """The name as a Python identifier (a field of ``DevicesConfig``)."""
        return self.name.replace("-", "_")

    def load_driver(self) -> Any:
        """The driver class (imported now)."""
        return _load(self.driver)

    def load_double(self) -> Any:
        """The simulated-hardware builder (imported now)."""
        return _load(self.double)


def _load(path: str) -> Any:
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


_KINDS: Final[dict[str, DeviceKind]] = {}


def register(kind: DeviceKind) -> DeviceKind:
    """Add ``kind`` (its name and old names must be new); returns it."""
    taken = {k.name for k in _KINDS.values()} | {o for k in _KINDS.values() for o in k.old_names}
    clash = {kind.name, kind.attr, *kind.old_names} & taken
    if clash:
        raise ValueError(f"device kind {kind.name!r}: {sorted(clash)[0]!r} is already a kind's")
    _KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Take a kind out again (a test's own kind)."""
    _KINDS.pop(name, None)


def kinds() -> tuple[DeviceKind, ...]:
    """Every kind, in the order the screens list them."""
    return tuple(_KINDS.values())


def kind_named(name: str) -> DeviceKind | None:
    """The kind spelled ``name`` now, as an identifier, or in an older file; else None."""
    for kind in _KINDS.values():
        if name in (kind.name, kind.attr, *kind.old_names):
            return kind
    return None


def title(name: str) -> str:
    """What people call the device ``name`` (the name itself for an unknown one)."""
    kind = kind_named(name)
    return kind.title if kind else name


class _Titles(Mapping[str, str]):
    """Each kind's name -> its title, read from the registry when asked (a kind registered
    later is in it)."""

    def __getitem__(self, name: str) -> str:
        kind = _KINDS.get(name)
        if kind is None:
            raise KeyError(name)
        return kind.title

    def __iter__(self) -> Iterator[str]:
        return iter(list(_KINDS))

    def __len__(self) -> int:
        return len(_KINDS)


TITLES: Final[Mapping[str, str]] = _Titles()


def _builtin() -> None:
    register(DeviceKind(
        "shuffler", "Shuffler", "check its power and cable", ShufflerConfig,
        "drivers.shuffler.device:ShufflerDriver", "drivers.sim.hardware:simulated_shuffler"))
    register(DeviceKind(
        "bet-sensors", "Bet sensors", "check the bus cable and power", BetSensorsConfig,
        "drivers.bet_sensors.device:BetSensorDriver",
        "drivers.sim.hardware:simulated_bet_sensors", old_names=("sensors",)))
    register(DeviceKind(
        "keypad", "Jackpot keypad", "check its USB cable", KeypadConfig,
        "drivers.keypad.device:KeypadDriver", "drivers.sim.hardware:simulated_keypad"))


_builtin()
