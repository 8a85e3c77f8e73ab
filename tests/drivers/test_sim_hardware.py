"""The console's simulated table: all three doubles behind their real drivers connect."""

from __future__ import annotations

import time

from dealer_console.devices.events import ConnectionState
from drivers.sim.hardware import SimulatedHardware


def test_all_three_devices_connect_and_close() -> None:
    with SimulatedHardware() as hardware:
        names = [d.name for d in hardware.drivers]
        assert names == ["shuffler", "bet-sensors", "keypad"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            states = {d.name: d.diagnostics().state for d in hardware.drivers}
            if all(s is ConnectionState.CONNECTED for s in states.values()):
                break
            time.sleep(0.05)
        assert all(s is ConnectionState.CONNECTED for s in states.values()), states
    assert hardware.drivers == [] and hardware.servers == []
