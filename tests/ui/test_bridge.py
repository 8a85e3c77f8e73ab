"""The bridge between the controller and Qt wakes the GUI thread for every device event, also
for one a driver queued before the bridge existed (CI, stop 29: a console started under load
never saw its devices connect, as their first events came before the bridge's wake), and draws
a touch at once and a burst of device events once they are applied."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from dealer_console.controller import TableController, TableSnapshot, open_table
from dealer_console.devices.events import ConnectionState
from dealer_console.devices.keypad import BadRead, BadReadReason
from dealer_console.profiles.loader import get_profile
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from dealer_link.wiring import start_links
from drivers.sim.hardware import SimulatedHardware
from ui.bridge import PUMP_BATCH, ControllerBridge


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


def test_a_touch_is_drawn_at_once_and_a_burst_of_device_events_once_applied(
        tmp_path: Path, qtbot: Any, qapp: Any) -> None:
    opened = open_table(tmp_path / "table.db", get_profile("washington-face-up"), actor="test",
                        links=start_links)
    controller = TableController(opened)
    controller.start()
    bridge = ControllerBridge(controller)
    drawn: list[TableSnapshot] = []
    bridge.changed.connect(drawn.append)
    base = controller.rules.limit("base")
    assert base is not None and controller.state.phase is Phase.BETTING
    try:
        qtbot.waitUntil(lambda: not bridge.drawing_due)
        drawn.clear()
        controller.do(c.PlaceWager(1, "base", base.minimum))  # a touch: nothing else waits
        qapp.processEvents()
        assert [view.round.wagers for view in drawn] == [{(1, "base"): base.minimum}]

        drawn.clear()
        burst = 30  # a card read badly, again and again: each a notice the screen shows
        for seq in range(1, burst + 1):
            controller.deliver(bad_read(seq))
        qtbot.waitUntil(lambda: not controller.events_waiting and not bridge.drawing_due)
        assert drawn[-1].notice == controller.snapshot().notice
        assert len(drawn) < burst / PUMP_BATCH, "a burst is drawn once applied, not per turn"

        drawn.clear()
        stop = threading.Event()

        def stream() -> None:  # a device that never stops talking, from its own thread
            seq = burst
            while not stop.is_set():
                seq += 1
                controller.deliver(bad_read(seq))
                time.sleep(0.0005)

        talker = threading.Thread(target=stream)
        talker.start()
        try:
            qtbot.wait(300)
        finally:
            stop.set()
            talker.join()
        assert len(drawn) >= 3, "while events keep coming, the screens are still drawn"
    finally:
        bridge.detach()
        opened.close()


def bad_read(seq: int) -> BadRead:
    return BadRead(device="keypad", seq=seq, session=1, number=seq,
                   reason=BadReadReason.NO_DATA)
