"""The table's real devices, built from its devices file (``devices.toml``; wiring in
``docs/protocols/README.md``): each configured device's driver, as its kind in
``dealer_console/devices/kinds.py`` names it, handed to the table controller through the
control interfaces. A device the file leaves out is absent from the table."""

from __future__ import annotations

from typing import Any

from dealer_console.controller import TableDevices
from dealer_console.devices.config import DevicesConfig, KeypadConfig, kind_of
from dealer_console.devices.diagnostics import DeviceDriver
from drivers.keypad.device import KeypadDriver


def devices_from_config(config: DevicesConfig) -> tuple[TableDevices, list[DeviceDriver]]:
    """The drivers a devices file describes (not started)."""
    devices = TableDevices()
    for kind, settings in config.configured():
        devices.put(kind.load_driver().from_config(settings))
    return devices, devices.all()


def driver_for(config: Any, keypad_backend: object | None = None) -> DeviceDriver:
    """One device's driver from its settings (not started); ``keypad_backend`` stands in for
    the backend the keypad's settings name (the simulated USB bus)."""
    if isinstance(config, KeypadConfig) and keypad_backend is not None:
        return KeypadDriver(keypad_backend, vendor_id=config.vendor_id,
                            product_id=config.product_id, poll_interval=config.poll_interval,
                            heartbeat=config.heartbeat, silence_timeout=config.silence_timeout)
    driver: DeviceDriver = kind_of(config).load_driver().from_config(config)
    return driver
