"""Issue 22: a device unplugged for a long break must come back when its cable does.

Each device runs behind its real driver against its simulated double (the shuffler and the
bet-sensor bus over real pseudo-terminals and pyserial, the keypad on the virtual USB bus), with
the production retry timings and a clock that skips the waits: ten thousand failed reconnection
attempts (at the two-second cap, more than five hours of a real unplug) pass in seconds. The
driver's thread must live through them, say the device is down once, and hear it again the
moment it is plugged back. A bug that escapes the driver's loop is reported and the loop
restarted, never a dead thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from dealer_console.devices.bet_sensors import BetSpotChanged
from dealer_console.devices.events import DeviceConnected, DeviceDisconnected, DeviceEvent
from dealer_console.devices.keypad import Button, ButtonPressed
from dealer_console.devices.shuffler import ShufflerStatus
from drivers.backoff import Backoff
from drivers.base import DeviceThread
from drivers.clock import SkippingClock
from drivers.shuffler.device import ShufflerDriver
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.inprocess import InProcessLink
from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario
from drivers.transport import Transport
from tests.drivers.conftest import wait_until

ATTEMPTS = 10_000
PRODUCTION = Backoff()
"""The retry timings a real device gets (``DeviceThread``'s default): capped at 2 s."""


def _prove_alive(name: str, hw: SimulatedHardware, driver: DeviceThread) -> DeviceEvent:
    """Make the device say something only a live link can carry; return what was heard."""
    if name == "shuffler":
        assert isinstance(driver, ShufflerDriver)
        driver.request_status()
        return driver.wait_for(ShufflerStatus, timeout=10)
    if name == "bet-sensors":
        assert hw.bus is not None
        hw.bus.place(2, 1)
        return driver.wait_for(BetSpotChanged, timeout=10)
    assert hw.keypad is not None
    hw.keypad.tap(Button.START_GAME)
    return driver.wait_for(ButtonPressed, timeout=10)


@pytest.mark.parametrize("name", ["shuffler", "bet-sensors", "keypad"])
def test_ten_thousand_attempts_unplugged_then_plugged_back(name: str, tmp_path: Path) -> None:
    clock = SkippingClock()
    hw = SimulatedHardware(devices=(name,), clock=clock, backoff=PRODUCTION,
                           link_dir=tmp_path).start()
    try:
        [driver] = hw.drivers
        assert isinstance(driver, DeviceThread)
        seen: list[DeviceEvent] = []
        driver.subscribe(seen.append)
        driver.wait_for(DeviceConnected, timeout=10)
        waits_before = clock.waits

        hw.unplug(name)
        wait_until(lambda: clock.waits - waits_before >= ATTEMPTS, timeout=120,
                   what=f"{ATTEMPTS} reconnection attempts of the {name}")
        thread = driver._thread
        assert thread is not None and thread.is_alive(), f"the {name}'s I/O thread died"
        assert clock.skipped > ATTEMPTS * 1.9  # the cap was reached and held, no overflow
        downs = [e for e in seen if isinstance(e, DeviceDisconnected)]
        assert len(downs) == 1, "one unplug is told once, not once per attempt"
        assert driver.diagnostics().internal_errors == 0

        hw.replug(name)
        up = driver.wait_for(DeviceConnected, timeout=10)
        assert up.seq > downs[0].seq
        heard = _prove_alive(name, hw, driver)
        assert heard.device == name
    finally:
        hw.close()


class _Breaking:
    """A real in-process transport whose ``read`` raises what no driver foresees, once."""

    def __init__(self, inner: Transport, trip: Callable[[], bool]) -> None:
        self._inner = inner
        self._trip = trip
        self.port = inner.port

    def read(self) -> bytes:
        if self._trip():
            raise ValueError("a library below the driver broke")
        return self._inner.read()

    def write(self, data: bytes) -> None:
        self._inner.write(data)

    def interrupt(self) -> None:
        self._inner.interrupt()

    def close(self) -> None:
        self._inner.close()


def test_an_unforeseen_exception_restarts_the_loop_and_is_reported() -> None:
    """An opener that raises the wrong kind of error, then a read that does: each is a fault
    told to the round, and the driver goes on to serve the device."""
    link = InProcessLink(ShufflerDouble(ShufflerScenario(seed=1), ack_timeout=0.05), "shuffler")
    opens = {"n": 0}
    reads = {"n": 0}

    def trip() -> bool:
        reads["n"] += 1
        return reads["n"] == 5

    def opener() -> Transport:
        opens["n"] += 1
        if opens["n"] <= 2:
            raise RuntimeError("the USB stack is confused")
        return _Breaking(link.open(), trip)

    clock = SkippingClock()
    driver = ShufflerDriver(opener, ack_timeout=0.05, backoff=Backoff(initial=0.01),
                            clock=clock)
    seen: list[DeviceEvent] = []
    driver.subscribe(seen.append)
    with driver:
        driver.wait_for(DeviceConnected, timeout=10)
        wait_until(lambda: reads["n"] > 5, timeout=10, what="reads after the broken one")
        driver.wait_for(DeviceConnected, timeout=10)  # back after the read that broke
        driver.request_status()
        assert driver.wait_for(ShufflerStatus, timeout=10).device == "shuffler"
        diagnostics = driver.diagnostics()
    faults = [e.reason for e in seen if isinstance(e, DeviceDisconnected)]
    assert any("the USB stack is confused" in r and "restarted" in r for r in faults)
    assert any("a library below the driver broke" in r for r in faults)
    assert diagnostics.loop_restarts == 3  # two failed opens, one failed read
    assert diagnostics.internal_errors == 3
    assert opens["n"] >= 3


def test_backoff_holds_its_cap_for_ever() -> None:
    backoff = Backoff(initial=0.05, factor=2.0, maximum=2.0)
    delays = [backoff.next_delay() for _ in range(ATTEMPTS * 5)]
    assert delays[:4] == [0.05, 0.1, 0.2, 0.4]
    assert max(delays) == 2.0 and delays[-1] == 2.0
    assert backoff.attempts == ATTEMPTS * 5
    backoff.reset()
    assert backoff.next_delay() == 0.05


def test_skipping_clock_moves_time_by_what_it_skips() -> None:
    clock = SkippingClock()
    stop = threading.Event()
    before = clock.monotonic()
    assert clock.wait(stop, 3600.0) is False
    assert clock.monotonic() - before >= 3600.0
    stop.set()
    assert clock.wait(stop, 1.0) is True
    assert clock.waits == 2
