"""The bridge between the controller and Qt wakes the GUI thread for every device event, also
for one a driver queued before the bridge existed (CI, stop 29: a console started under load
never saw its devices connect, as their first events came before the bridge's wake), and draws
the screens at most once a frame."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

from dealer_console.controller import TableController, TableSnapshot, open_table
from dealer_console.devices.events import ConnectionState
from dealer_console.profiles.loader import get_profile
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from dealer_link.wiring import start_links
from drivers.sim.hardware import SimulatedHardware
from ui.bridge import FRAME_S, ControllerBridge


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


def test_a_burst_of_changes_is_drawn_once_a_frame_and_a_lone_change_at_once(
        tmp_path: Path, qtbot: Any, qapp: Any) -> None:
    opened = open_table(tmp_path / "table.db", get_profile("washington-face-up"), actor="test",
                        links=start_links)
    controller = TableController(opened)
    controller.start()
    bridge = ControllerBridge(controller)
    drawn: list[tuple[float, TableSnapshot]] = []
    bridge.changed.connect(lambda view: drawn.append((time.monotonic(), view)))
    base = controller.rules.limit("base")
    assert base is not None and controller.state.phase is Phase.BETTING
    try:
        qtbot.waitUntil(lambda: not bridge.drawing_due)
        time.sleep(2 * FRAME_S)  # a quiet spell
        drawn.clear()
        controller.do(c.PlaceWager(1, "base", base.minimum))
        qapp.processEvents()
        assert [view.round.wagers for _t, view in drawn] == [{(1, "base"): base.minimum}]

        changes = 40
        for i in range(changes):  # a burst: each change its own turn of the event loop
            seat = 2 + i % 2
            if (seat, "base") in controller.state.wagers:
                controller.do(c.RemoveWager(seat, "base"))
            else:
                controller.do(c.PlaceWager(seat, "base", base.minimum))
            qapp.processEvents()
        qtbot.waitUntil(lambda: not bridge.drawing_due)
        times = [t for t, _view in drawn]
        assert len(drawn) < changes / 2, "a burst is drawn once a frame, not once a change"
        assert all(b - a >= FRAME_S * 0.9 for a, b in itertools.pairwise(times))
        assert drawn[-1][1].round.wagers == controller.snapshot().round.wagers
    finally:
        bridge.detach()
        opened.close()
