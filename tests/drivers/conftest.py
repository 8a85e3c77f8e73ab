"""Shared helpers for the driver tests: collect events until a condition, with a deadline."""

from __future__ import annotations

import time
from collections.abc import Callable

from dealer_console.devices.events import DeviceEvent
from drivers.base import DeviceThread


def collect_until(
    driver: DeviceThread, done: Callable[[DeviceEvent], bool], timeout: float = 10.0
) -> list[DeviceEvent]:
    """Every event up to and including the first for which ``done`` is true."""
    events: list[DeviceEvent] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        event = driver.get_event(left) if left > 0 else None
        if event is None:
            kinds = [type(e).__name__ for e in events]
            raise TimeoutError(f"{driver.name}: condition not met in {timeout} s; saw {kinds}")
        events.append(event)
        if done(event):
            return events


def wait_until(condition: Callable[[], bool], timeout: float = 5.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not true within {timeout} s: {what}")
        time.sleep(0.005)
