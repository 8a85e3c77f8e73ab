"""docs/adding-a-device.md, proved: a new kind of device (a lamp that answers PING with PONG
on a serial line) added the way the guide says, in the one place it says, and found by
everything that lists devices: the devices file, the driver assembly, the simulated hardware,
the controller's health and device list, the self-test's probe and (``tests/ui/
test_device_kind_tabs.py``, the GUI's tests alone import the screens) the technician's tabs.

Everything a real kind keeps in its own modules (settings, driver, double) is in this file;
the one line the guide adds to ``dealer_console/devices/kinds.py`` is the ``register`` call
in the fixture."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from dealer_console.controller import TITLES
from dealer_console.devices.config import (
    DeviceConfigError,
    ShufflerConfig,
    devices_toml,
    parse_devices,
    with_device,
)
from dealer_console.devices.kinds import DeviceKind, kind_named, kinds, register, unregister
from drivers.assembly import devices_from_config
from drivers.base import DeviceThread, TransportFactory
from drivers.selftest_probe import probe_devices
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.pty import PtyServer
from drivers.transport import SerialTransport

# -- step 1: the settings (devices/settings.py for a real kind) --------------------------------


@dataclass(frozen=True, slots=True)
class LampConfig:
    port: str
    heartbeat: float = 0.05

    def __post_init__(self) -> None:
        if not isinstance(self.port, str) or not self.port:
            raise DeviceConfigError(f"[test_lamp] port: {self.port!r} is not a port")


# -- step 2: the driver (drivers/<kind>/ for a real kind) ----------------------------------------


class LampDriver(DeviceThread):
    def __init__(self, port: str | TransportFactory, heartbeat: float = 0.05) -> None:
        opener: TransportFactory = (
            (lambda: SerialTransport(port, 115200)) if isinstance(port, str) else port)
        super().__init__("test-lamp", opener, silence_timeout=1.0)
        self._heartbeat = heartbeat
        self._next = 0.0
        self._buffer = b""

    @classmethod
    def from_config(cls, config: LampConfig, **kwargs: Any) -> LampDriver:
        return cls(config.port, config.heartbeat, **kwargs)

    def test_actions(self) -> tuple[str, ...]:
        return ()

    def _on_tick(self, now: float) -> None:
        if now >= self._next:
            self._next = now + self._heartbeat
            self._write(b"PING\n")

    def _on_data(self, data: bytes) -> None:
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            if line == b"PONG":
                self._mark_alive()


# -- step 3: the simulated double and its builder (drivers/sim/ for a real kind) ----------------


class LampDouble:
    def __init__(self) -> None:
        self._asked = 0

    def feed(self, data: bytes, now: float) -> None:
        self._asked += data.count(b"PING\n")

    def poll(self, now: float) -> list[bytes]:
        out = [b"PONG\n"] * self._asked
        self._asked = 0
        return out


def simulated_lamp(hw: SimulatedHardware) -> LampDriver:
    return LampDriver(hw.port_for("test-lamp", LampDouble()))


# -- step 4: the one entry in the registry -----------------------------------------------------

LAMP = DeviceKind("test-lamp", "Test lamp", "check the lamp's cable", LampConfig,
                  f"{__name__}:LampDriver", f"{__name__}:simulated_lamp",
                  old_names=("lamp",))


@pytest.fixture
def lamp_kind() -> Iterator[DeviceKind]:
    register(LAMP)
    try:
        yield LAMP
    finally:
        unregister(LAMP.name)


def test_the_kind_is_found_by_every_spelling_and_the_builtin_three_come_first(
        lamp_kind: DeviceKind) -> None:
    assert [k.name for k in kinds()] == ["shuffler", "bet-sensors", "keypad", "test-lamp"]
    assert kind_named("test_lamp") is kind_named("lamp") is lamp_kind
    assert kind_named("sensors") is kind_named("bet_sensors") is kind_named("bet-sensors")
    assert TITLES["test-lamp"] == "Test lamp"
    with pytest.raises(ValueError, match="already a kind's"):
        register(DeviceKind("lamp", "x", "x", LampConfig, "", ""))


def test_the_devices_file_reads_and_writes_the_new_section(lamp_kind: DeviceKind) -> None:
    config = parse_devices({"shuffler": {"port": "/dev/ttyUSB0"},
                            "test_lamp": {"port": "/dev/ttyUSB3"}}, "devices.toml")
    assert config.get("test-lamp") == LampConfig("/dev/ttyUSB3")
    assert [k.name for k, _ in config.configured()] == ["shuffler", "test-lamp"]
    text = devices_toml(config)
    assert "[test_lamp]" in text
    assert parse_devices(tomllib.loads(text)) == config
    moved = with_device(config, LampConfig("/dev/ttyUSB4"))
    assert moved.get("test-lamp") == LampConfig("/dev/ttyUSB4")
    assert moved.shuffler == ShufflerConfig("/dev/ttyUSB0")
    with pytest.raises(DeviceConfigError, match=r"\[test_lamp\] port"):
        parse_devices({"test_lamp": {"port": ""}})
    with pytest.raises(DeviceConfigError, match="the same device"):
        parse_devices({"test_lamp": {"port": "a"}, "lamp": {"port": "b"}})


def test_unregistered_the_section_is_unknown_again() -> None:
    with pytest.raises(DeviceConfigError, match=r"unknown device \[test_lamp\]"):
        parse_devices({"test_lamp": {"port": "x"}})


def test_the_assembly_and_the_self_test_build_its_driver(lamp_kind: DeviceKind) -> None:
    server = PtyServer(LampDouble()).start()
    try:
        config = parse_devices({"test_lamp": {"port": server.path}})
        devices, drivers = devices_from_config(config)
        assert [d.name for d in drivers] == ["test-lamp"]
        assert isinstance(devices.named("test-lamp"), LampDriver)
        assert probe_devices(config, within=5.0) == [
            ("test-lamp", True, f"answers on {server.path}")]
    finally:
        server.stop()
