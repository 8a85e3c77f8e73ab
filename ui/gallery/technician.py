"""The technician's screens in the states a technician meets them, for the screenshots: a
real console on simulated devices, put in test mode by a technician's card and tested there
by touch, stopped when its window closes."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QWidget

from dealer_console.devices.keypad import Button
from ui.gallery.player import ScreenPlayer
from ui.technician.area import TechnicianArea


def _area() -> tuple[ScreenPlayer, TechnicianArea]:
    folder = tempfile.TemporaryDirectory(prefix="technician-screens-")
    player = ScreenPlayer.start("washington-face-up", Path(folder.name) / "table.db")
    player.window.on_closed.append(player.close)
    player.window.on_closed.append(folder.cleanup)
    # the pictures name the file as a table PC has it, not this run's temporary folder
    player.window.setup_context.devices_path = Path("var") / "devices.toml"
    return player, player.open_technician()


def _result(p: ScreenPlayer, area: TechnicianArea, device: str, name: str) -> None:
    p.wait(lambda: "..." not in area.tests.results[(device, name)].text(),
           f"the {device}'s {name}")


def tests() -> QWidget:
    p, area = _area()
    assert p.hardware.bus is not None and p.hardware.keypad is not None
    p.hardware.bus.set_online(5, False)
    p.hardware.bus.place(1, 1)
    p.tap(area.tests.buttons[("shuffler", "test deal")])
    _result(p, area, "shuffler", "test deal")
    p.tap(area.tests.buttons[("shuffler", "deck count")])
    _result(p, area, "shuffler", "deck count")
    p.tap(area.tests.buttons[("shuffler", "status")])
    _result(p, area, "shuffler", "status")
    for seat in (1, 2, 5):  # seat 5's node is silent: its test fails
        p.tap(area.tests.buttons[("bet-sensors", f"light seat {seat}")])
        _result(p, area, "bet-sensors", f"seat {seat} node")
    p.hardware.bus.take(1, 1)
    p.hardware.bus.set_online(5, True)  # back, so the dealer's screen has no fault; the
    p.wait(lambda: not p.ctl.snapshot().faults, "seat 5's node back")  # FAIL stays shown
    p.hardware.bus.place(2, 1)
    # the bus is polled on its own clock: the chip is shown once a poll has seen it (a picture
    # taken before showed "spot 1: ..." on a loaded machine)
    spot = area.tests.results[("bet-sensors", "seat 2 spot 1 chip")]
    p.wait(lambda: "chip on" in spot.text(), "seat 2's chip")
    for button in (Button.START_GAME, Button.SEAT_3, Button.CONFIRM):
        p.hardware.keypad.tap(button)
    p.swipe("supervisor")
    return p.window


def _between_bursts(p: ScreenPlayer, device: str, after: int) -> Callable[[], bool]:
    """True once the device has sent more than ``after`` frames and then none for a fifth of
    a second: its frames come in bursts (a status asked and answered each heartbeat), so
    this is the end of the same burst each time."""
    last_number, since = 0, time.monotonic()

    def done() -> bool:
        nonlocal last_number, since
        new = p.ctl.frames(device, last_number)  # only those not seen yet
        now = time.monotonic()
        if new:
            last_number, since = new[-1].number, now
        return last_number > after and now - since >= 0.2

    return done


def devices() -> QWidget:
    """The shuffler's frames shown up to the end of a burst, then held (paused, the counters
    no longer read): the picture is the same each time it is drawn."""
    p, area = _area()
    p.tap(area.buttons["Devices"])
    screen = area.devices
    panel = screen.panels["shuffler"]
    # past the start's quick exchanges, one heartbeat's burst in (frames 25 to 28)
    p.wait(_between_bursts(p, "shuffler", 24), "some frames")
    screen.refresh()
    screen.timer.stop()
    p.tap(panel.pause)
    # laid out in one piece, as the refreshes' pieces left its scroll bar a little different
    panel.frames.setPlainText(panel.frames.toPlainText())
    panel.frames.moveCursor(QTextCursor.MoveOperation.End)
    return p.window


def setup() -> QWidget:
    p, area = _area()
    p.tap(area.buttons["Set-up"])
    return p.window


TECHNICIAN_PAGES: dict[str, Callable[[], QWidget]] = {
    "technician-tests": tests,
    "technician-devices": devices,
    "technician-setup": setup,
}
