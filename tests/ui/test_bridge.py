"""The bridge between the controller and Qt wakes the GUI thread for every device event, also
for one a driver queued before the bridge existed (CI, stop 29: a console started under load
never saw its devices connect, as their first events came before the bridge's wake)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_console.controller import TableController, open_table
from dealer_console.devices.events import ConnectionState
from dealer_console.profiles.loader import get_profile
from dealer_link.wiring import start_links
from drivers.sim.hardware import SimulatedHardware
from ui.bridge import ControllerBridge


def test_a_device_that_connected_before_the_bridge_is_seen_connected(
        tmp_path: Path, qtbot: Any) -> None:
    opened = open_table(tmp_path / "table.db", get_profile("washington-face-up"), actor="test",
                        links=start_links)
    hardware = SimulatedHardware(seed=1, link="in-process", devices=("shuffler",))
    hardware.start()
    bridge = None
    try:
        hardware.unplug("shuffler")
        shuffler = hardware.table_devices.named("shuffler")
        assert shuffler is not None
        qtbot.waitUntil(lambda: shuffler.state is not ConnectionState.CONNECTED, timeout=15000)
        controller = TableController(opened, hardware.table_devices)  # subscribes, no wake yet
        controller.start()
        hardware.replug("shuffler")
        # the driver has told the controller's inbox, which nobody is woken for yet
        qtbot.waitUntil(lambda: shuffler.state is ConnectionState.CONNECTED, timeout=15000)
        assert not controller.snapshot().devices[0].connected
        bridge = ControllerBridge(controller)
        # only Qt's event loop from here: the bridge must pump what waited
        qtbot.waitUntil(lambda: controller.snapshot().devices[0].connected, timeout=5000)
    finally:
        if bridge is not None:
            bridge.detach()
        hardware.close()
        opened.close()
