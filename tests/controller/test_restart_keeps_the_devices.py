"""A console restart while the table's devices run on (the same doubles before and after):
what they said while no console read them reaches the new console, and a person's press from
then is told, never acted on.

An outside review: the drivers start before the controller subscribes, and subscribing threw
away what they had already reported. A shuffler whose door was open at the start was shown
well until START GAME had taken the wagers; a START GAME pressed on the keypad while the
console was down was lost (its driver had acknowledged it) or, with the keypad back on the bus
after the console, started the round, nobody having pressed anything then."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

import drivers.sim.hardware as sim_hardware
from dealer_console.controller import TableController, open_table
from dealer_console.devices.keypad import Button
from dealer_console.profiles.loader import get_profile
from dealer_console.round.state import Phase
from dealer_link.wiring import start_links
from drivers.sim.hardware import SimulatedHardware
from tests.controller.conftest import Rig
from tests.controller.test_controller import bet, notice_text

KEPT = "START GAME was pressed on the keypad while the console could not read it"
DEVICES = ("shuffler", "bet-sensors", "keypad")


def console(db: Path, kept: SimulatedHardware | None = None,
            before_controller: Callable[[SimulatedHardware], object] | None = None) -> Rig:
    """A Washington table; ``kept``: the devices of the console before (they ran on)."""
    opened = open_table(db, get_profile("washington-face-up"), actor="test", links=start_links)
    with pytest.MonkeyPatch.context() as patch:
        if kept is not None:
            patch.setattr(sim_hardware, "ShufflerDouble", lambda *a, **k: kept.shuffler)
            patch.setattr(sim_hardware, "BetSensorBusDouble", lambda *a, **k: kept.bus)
            patch.setattr(sim_hardware, "SimKeypad", lambda *a, **k: kept.keypad)
        hardware = SimulatedHardware(seed=5, link="in-process", devices=DEVICES).start()
    if before_controller is not None:
        before_controller(hardware)  # the drivers run; no controller reads them yet
    controller = TableController(opened, hardware.table_devices)
    controller.start()
    return Rig(opened, hardware, controller)


def connected(rig: Rig, *names: str) -> None:
    rig.until(lambda: all(d.connected for d in rig.controller.snapshot().devices
                          if d.name in names), "connection")


def settle(rig: Rig, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rig.controller.pump(timeout=0.05)


def first_console(db: Path, *, press_once: bool = False) -> SimulatedHardware:
    """A round's wagers placed, then the console's power goes; the devices run on."""
    rig = console(db)
    connected(rig, *DEVICES)
    bet(rig)
    if press_once:  # the keypad used in this console: its session is past its first event
        assert rig.hardware.keypad is not None
        rig.hardware.keypad.tap(Button.HAND_1)
        rig.until(lambda: rig.controller.buttons_pressed == 1, "the press")
    rig.close()
    return rig.hardware


def test_a_press_the_driver_took_before_the_console_read_it_is_told_not_acted_on(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    kept = first_console(db)
    assert kept.keypad is not None
    kept.keypad.tap(Button.START_GAME)  # while the console is down

    def taken(hardware: SimulatedHardware) -> None:
        assert kept.keypad is not None
        deadline = time.monotonic() + 10
        while kept.keypad.waiting():  # the new driver acknowledged the press and release
            assert time.monotonic() < deadline, "the keypad's events not taken"
            time.sleep(0.01)
    second = console(db, kept, before_controller=taken)
    try:
        second.until(lambda: KEPT in notice_text(second), "the kept press told")
        settle(second, 0.5)
        assert second.controller.state.phase is Phase.BETTING
        assert second.controller.buttons_pressed == 0
    finally:
        second.close()


def test_a_keypad_back_on_the_bus_after_the_console_sends_no_press_of_before(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    kept = first_console(db, press_once=True)
    assert kept.keypad is not None
    kept.keypad.unplug()  # not on the bus while the console starts
    kept.keypad.tap(Button.START_GAME)
    second = console(db, kept)
    try:
        connected(second, "shuffler", "bet-sensors")
        kept.keypad.replug()
        second.until(lambda: KEPT in notice_text(second), "the kept press told")
        settle(second, 0.5)
        assert second.controller.state.phase is Phase.BETTING
    finally:
        second.close()


def test_a_shuffler_door_open_before_the_console_started_is_shown_at_once(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    kept = first_console(db)
    assert kept.shuffler is not None
    kept.shuffler.open_door()
    second = console(db, kept, before_controller=lambda _hw: time.sleep(0.5))
    try:
        second.until(lambda: any("door is open" in (v.fault or "")
                                 for v in second.controller.snapshot().faults),
                     "the door's fault shown")
    finally:
        second.close()
