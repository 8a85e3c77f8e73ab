"""The test kind of docs/adding-a-device.md (``tests/drivers/test_adding_a_device.py``) on a
table: its health in the controller's view, and its tab on the technician's device screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_console.controller import TableController, open_table
from dealer_console.devices.kinds import DeviceKind
from dealer_console.profiles.loader import get_profile
from dealer_link.wiring import start_links
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.table.dealer import install_sim_staff
from tests.drivers.test_adding_a_device import LampDriver, lamp_kind
from ui.technician.devices_screen import DevicesScreen

__all__ = ["lamp_kind"]  # the fixture, used below


def test_simulated_it_shows_in_health_and_the_technicians_device_list(
        lamp_kind: DeviceKind, tmp_path: Path, qtbot: Any) -> None:
    opened = open_table(tmp_path / "table.db", get_profile("washington-face-up"), actor="test",
                        links=start_links)
    install_sim_staff(opened.db)
    hardware = SimulatedHardware(seed=1, link="in-process",
                                 devices=("shuffler", "test-lamp")).start()
    try:
        assert isinstance(hardware.table_devices.named("test-lamp"), LampDriver)
        controller = TableController(opened, hardware.table_devices)
        controller.start()
        assert controller.device_names() == ("shuffler", "test-lamp")
        qtbot.waitUntil(lambda: (controller.pump(timeout=0.01) or True) and all(
            d.connected for d in controller.snapshot().devices), timeout=15000)
        lamp = [d for d in controller.snapshot().devices if d.name == "test-lamp"]
        assert [(d.title, d.connected, d.fault) for d in lamp] == [("Test lamp", True, None)]
        hardware.unplug("test-lamp")
        qtbot.waitUntil(lambda: (controller.pump(timeout=0.01) or True) and not any(
            d.connected for d in controller.snapshot().devices if d.name == "test-lamp"),
            timeout=15000)
        lamp = [d for d in controller.snapshot().devices if d.name == "test-lamp"]
        assert [(d.fault, d.todo) for d in lamp] == [("Test lamp not connected",
                                                       "check the lamp's cable")]
        screen = DevicesScreen(controller, tmp_path, lambda _text: None)
        qtbot.addWidget(screen)
        assert [screen.tabs.tabText(i) for i in range(screen.tabs.count())] == [
            "Shuffler", "Test lamp"]
        screen.timer.stop()
    finally:
        hardware.close()
        opened.close()
