"""The self-test's device item: each device the devices file names, started on its real
driver and given a few seconds to answer (the shuffler's heartbeat, the sensor bus's poll,
the keypad found on USB), then stopped. It holds the ports only for that time, before the
console opens them for the table."""

from __future__ import annotations

import time

from dealer_console.devices.config import DevicesConfig
from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.devices.events import ConnectionState
from dealer_console.errors import ConsoleError

ANSWER_WITHIN = 5.0
"""Seconds a device has to answer: above every heartbeat and poll timeout in devices.toml's
defaults, short enough that a table PC's start is not held up long by a device that is off."""

def probe_devices(config: DevicesConfig, within: float = ANSWER_WITHIN
                  ) -> list[tuple[str, bool, str]]:
    """``(device, answered, detail)`` for each configured device; one that cannot even be
    built (its USB library missing, say) fails with the reason, the others are still tried."""
    results: list[tuple[str, bool, str]] = []
    drivers: list[DeviceDriver] = []
    configured = config.configured()
    for kind, settings in configured:
        try:
            drivers.append(kind.load_driver().from_config(settings))
        except (ConsoleError, ValueError, OSError) as exc:
            results.append((kind.name, False, f"cannot start its driver: {exc}"))
    try:
        for driver in drivers:
            driver.start()
        deadline = time.monotonic() + within
        waiting = list(drivers)
        while waiting and time.monotonic() < deadline:
            time.sleep(0.05)
            waiting = [d for d in waiting if d.state is not ConnectionState.CONNECTED]
        for driver in drivers:
            snap = driver.diagnostics()
            if driver.state is ConnectionState.CONNECTED:
                firmware = f", firmware {snap.firmware}" if snap.firmware else ""
                results.append((driver.name, True, f"answers on {snap.port}{firmware}"))
            else:
                why = snap.last_error or f"no answer within {within:g} s"
                results.append((driver.name, False, f"{snap.port or 'its port'}: {why}; check "
                                                    "its cable, power and devices.toml"))
    finally:
        for driver in drivers:
            driver.stop()
    order = [kind.name for kind, _settings in configured]
    return sorted(results, key=lambda r: order.index(r[0]) if r[0] in order else len(order))
