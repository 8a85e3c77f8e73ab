"""The technician's desk: entering and leaving test mode, the device tests, and device set-up
(a candidate driver tried in place of the table's, then kept or put back). While a bench is
open every device event goes to it, never to the round (see :mod:`.test_mode`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.device_desk import DeviceDesk
from dealer_console.controller.test_mode import (
    IN_TEST_MODE,
    TEST_DEAL_HANDS,
    Bench,
    between_rounds_problem,
    log_entered,
    log_left,
    test_deal_id,
)
from dealer_console.controller.view import BenchView
from dealer_console.devices.bet_sensors import SEATS
from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.devices.events import DeviceEvent
from dealer_console.devices.keypad import Button, CardSwiped
from dealer_console.employees.registry import Employee, Role, find_by_card
from dealer_console.errors import RefusalCode
from dealer_console.jackpot import games
from dealer_console.round.machine import Refused
from dealer_console.round.rules import RoundRules
from dealer_console.round.table import Table
from dealer_console.storage import service_log


class TestModeDesk:
    __test__ = False  # not a pytest class, whatever its name

    def __init__(self, table: Table, rules: RoundRules, devices: DeviceDesk, cards: CardDesk,
                 changed: Callable[[], None], disarm: Callable[[], None]) -> None:
        self.table = table
        self.rules = rules
        self._devices = devices
        self._cards = cards
        self._changed = changed
        self._disarm = disarm
        self.bench: Bench | None = None

    @property
    def active(self) -> bool:
        return self.bench is not None

    def refuse_in_test_mode(self) -> None:
        if self.bench is not None:
            raise Refused(IN_TEST_MODE, RefusalCode.IN_TEST_MODE)

    def problem(self) -> str | None:
        """Why test mode cannot be entered now, or None."""
        if self.bench is not None:
            return IN_TEST_MODE
        if self._devices.lock_id is not None:
            return "START GAME is under way: test mode waits for the next round"
        return between_rounds_problem(self.table.state)

    def ask(self, on_entered: Callable[[Employee], object]) -> None:
        problem = self.problem()
        if problem:
            raise Refused(problem)

        def entered(employee: Employee) -> None:
            self.enter(employee)
            on_entered(employee)

        self._cards.want(Role.TECHNICIAN, "enter test mode", entered)

    def enter(self, employee: Employee) -> None:
        problem = self.problem()
        if problem:
            raise Refused(problem)
        if employee.role is not Role.TECHNICIAN:
            raise Refused(f"{employee.name} is a {employee.role.value}; test mode needs a "
                          "technician's card")
        session = log_entered(self.table.db, employee)
        sensors = self._devices.devices.bet_sensors
        seats = tuple(s for s in sorted(self.rules.seats) if 1 <= s <= SEATS) if sensors else ()
        spots = tuple(games.spots(self.table.db)) if self.table.jackpot is not None else ()
        keys = frozenset(b for b in Button if len(spots) > 1 or b.game is None)
        self.bench = Bench(employee, session, time.monotonic(), seats, spots or (1,), keys)
        health = self._devices.health.get(sensors.name) if sensors else None
        if health is not None and health.connected:  # what the nodes last said
            self.bench.nodes = {s: s not in health.nodes_down for s in seats}
        self._disarm()
        self._changed()

    def leave(self) -> int:
        bench = self.bench
        if bench is None:
            raise Refused("the table is not in test mode")
        for name in list(self._devices.tried):
            self.restore_device(name)
        seconds = int(time.monotonic() - bench.entered)
        log_left(self.table.db, bench.session, seconds)
        self.bench = None
        self._changed()
        return seconds

    def run(self, device: str, action: str) -> None:
        bench = self.bench
        if bench is None:
            raise Refused("device tests run only in test mode")
        driver = self._devices.devices.named(device)
        if driver is None:
            raise Refused(f"this table has no {device}")
        if device == "shuffler" and action == "test deal":
            self._devices.need(driver, "the test deal")
            deal_id = test_deal_id(self.table.state.round_id, bench.session, bench.deals)
            bench.start_deal(deal_id)
            shuffler = self._devices.devices.shuffler
            assert shuffler is not None
            shuffler.start_deal(TEST_DEAL_HANDS, deal_id)
        else:
            try:
                driver.run_test_action(action)
            except ValueError as exc:
                raise Refused(str(exc)) from None
            if device == "bet-sensors" and action.startswith("light seat "):
                seat = int(action.removeprefix("light seat "))
                bench.lit.add(seat)
                bench.answered.pop(seat, None)  # this press's answer is awaited
        self._changed()

    def event(self, event: DeviceEvent) -> None:
        """A device event while the bench is open: the bench's, never the round's."""
        bench = self.bench
        assert bench is not None
        if isinstance(event, CardSwiped):
            employee = find_by_card(self.table.db, event.track)  # read only, nothing logged
            bench.card_read(None if employee is None else employee.role.value)
        else:
            bench.apply(event)
        self._changed()

    def try_device(self, candidate: DeviceDriver) -> None:
        if self.bench is None:
            raise Refused("devices are set up only in test mode")
        self._devices.try_device(candidate)
        self._changed()

    def keep_device(self, name: str, old: object | None = None,
                    new: object | None = None) -> None:
        self._devices.keep(name)
        bench = self.bench
        if bench is not None and new is not None:  # issue 23: who changed what, in the chain
            service_log.log_device_setup(self.table.db, name, old, new,
                                         bench.technician.employee_id, bench.technician.name)

    def restore_device(self, name: str) -> None:
        if name in self._devices.tried:
            self._devices.restore(name)
            self._changed()

    def view(self) -> BenchView | None:
        """The bench as it stands (the clock read here: the view's only input from outside)."""
        bench = self.bench
        return None if bench is None else bench.view(time.monotonic() - bench.entered)
