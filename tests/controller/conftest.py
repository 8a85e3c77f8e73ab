"""A table opened by the controller's composition root, with the simulated devices behind the
real drivers over the in-process link: the path the console and ``simulate`` run."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dealer_console.controller import OpenTable, TableController, open_table
from dealer_console.employees.registry import Employee
from dealer_console.profiles.loader import get_profile
from dealer_link.wiring import start_links
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.table.dealer import install_sim_staff


@dataclass
class Rig:
    opened: OpenTable
    hardware: SimulatedHardware
    controller: TableController

    def until(self, done: Callable[[], bool], what: str, timeout: float = 15.0, *,
              one_by_one: bool = False) -> None:
        """Apply device events on this (the owner) thread until ``done``; ``one_by_one``
        asks ``done`` after each event, for a state the next queued event would move past
        (a loaded machine queues a whole deal's hands before the test reads the first)."""
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"no {what} within {timeout} s"
            self.controller.pump(timeout=0.05, max_events=1 if one_by_one else None)

    def close(self) -> None:
        self.hardware.close()
        self.opened.close()


def start_rig(db: Path, profile: str = "washington-face-up", seed: int = 5,
              before_start: Callable[[SimulatedHardware], object] | None = None) -> Rig:
    """A table with its simulated devices; ``before_start`` scripts the devices before the
    controller asks them for anything (a resumed deal's pace, say)."""
    opened = open_table(db, get_profile(profile), actor="test", links=start_links)
    install_sim_staff(opened.db)
    jackpot = opened.profile.jackpot is not None
    devices = ("shuffler", "bet-sensors", "keypad") if jackpot else ("shuffler",)
    hardware = SimulatedHardware(seed=seed, link="in-process", devices=devices).start()
    controller = TableController(opened, hardware.table_devices)
    if before_start is not None:
        before_start(hardware)
    controller.start()
    rig = Rig(opened, hardware, controller)
    rig.until(lambda: all(d.connected for d in controller.snapshot().devices), "connection")
    return rig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    made = start_rig(tmp_path / "table.db")
    try:
        yield made
    finally:
        made.close()


def floor(controller: TableController) -> Employee:
    """The simulated table's supervisor, whose card a misdeal the dealer declares or a deck
    counted by hand is made on (``controller.supervise``)."""
    from dealer_console.employees import registry

    return registry.get(controller.table.db, "SIM-S1")
