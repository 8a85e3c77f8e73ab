"""The table's real devices, built from its devices file (``devices.toml``; wiring in
``docs/protocols/README.md``): each configured device's driver, handed to the table controller
through the control interfaces. A device the file leaves out is absent from the table."""

from __future__ import annotations

from dealer_console.controller import TableDevices
from dealer_console.devices.config import DevicesConfig
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
