"""The table's real devices, built from its devices file (``devices.toml``; wiring in
``docs/protocols/README.md``): each configured device's driver, handed to the table controller
through the control interfaces. A device the file leaves out is absent from the table."""

from __future__ import annotations

from dealer_console.controller import TableDevices
from dealer_console.devices.config import (
    BetSensorsConfig,
    DevicesConfig,
    KeypadConfig,
    ShufflerConfig,
)
from dealer_console.devices.diagnostics import DeviceDriver
from drivers.bet_sensors.device import BetSensorDriver
from drivers.keypad.device import KeypadDriver
from drivers.shuffler.device import ShufflerDriver


def devices_from_config(config: DevicesConfig) -> tuple[TableDevices, list[DeviceDriver]]:
    """The drivers a devices file describes (not started)."""
    devices = TableDevices(
        shuffler=ShufflerDriver.from_config(config.shuffler) if config.shuffler else None,
        sensors=BetSensorDriver.from_config(config.bet_sensors) if config.bet_sensors else None,
        keypad=KeypadDriver.from_config(config.keypad) if config.keypad else None,
    )
    return devices, devices.all()


def driver_for(config: ShufflerConfig | BetSensorsConfig | KeypadConfig,
               keypad_backend: object | None = None) -> DeviceDriver:
    """One device's driver from its settings (not started); ``keypad_backend`` stands in for
    the backend the keypad's settings name (the simulated USB bus)."""
    if isinstance(config, ShufflerConfig):
        return ShufflerDriver.from_config(config)
    if isinstance(config, BetSensorsConfig):
        return BetSensorDriver.from_config(config)
    if keypad_backend is None:
        return KeypadDriver.from_config(config)
    return KeypadDriver(keypad_backend, vendor_id=config.vendor_id,
                        product_id=config.product_id, poll_interval=config.poll_interval,
                        heartbeat=config.heartbeat, silence_timeout=config.silence_timeout)
