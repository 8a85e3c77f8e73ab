"""Keypad figures: reports decoded per second, and the latency from a report being ready in the
keypad to its event leaving the driver, through real pyusb on the virtual USB bus.

Run: ``.venv/bin/python benchmarks/drivers_keypad.py`` (about ten seconds).
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from dealer_console.devices.events import DeviceConnected, DeviceEvent
from dealer_console.devices.keypad import Button, KeypadEvent
from drivers.keypad import codec
from drivers.keypad.codec import ButtonAction
from drivers.keypad.device import KeypadDriver
from drivers.sim.keypad import SimKeypad
from drivers.sim.usb_backend import VirtualUsbBackend


def decode_rate(seconds: float = 2.0) -> tuple[float, float]:
    """Reports per second through decode + payload parse: one report a transfer, and eight
    merged in one transfer."""
    single = codec.button_report(1, Button.SEAT_3, ButtonAction.PRESSED).encode()
    merged = b"".join(
        codec.button_report(i, Button.HAND_1, ButtonAction.PRESSED).encode() for i in range(8)
    )
    rates = []
    for transfer in (single, merged):
        count = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(1000):
                for report in codec.decode_transfer(transfer).reports:
                    codec.parse_button(report)
                    count += 1
        rates.append(count / (time.perf_counter() - start))
    return rates[0], rates[1]


def latency(presses: int = 300, poll_interval: float = 0.02) -> list[float]:
    """Seconds from ``press()`` (the report is ready to go) to the event in the subscriber."""
    keypad = SimKeypad(session=1)
    driver = KeypadDriver(VirtualUsbBackend(keypad), poll_interval=poll_interval)
    arrived = threading.Event()
    stamps: list[float] = []

    def sink(event: DeviceEvent) -> None:
        if isinstance(event, KeypadEvent):
            stamps.append(time.perf_counter())
            arrived.set()

    driver.subscribe(sink)
    driver.start()
    try:
        driver.wait_for(DeviceConnected, 5.0)
        out = []
        for _ in range(presses):
            arrived.clear()
            start = time.perf_counter()
            keypad.press(Button.CONFIRM)
            if not arrived.wait(5.0):
                raise RuntimeError("an event did not arrive")
            out.append(stamps[-1] - start)
        return out
    finally:
        driver.stop()


def throughput(events: int = 2000) -> float:
    """Events per second end to end when the keypad has a backlog (after a long unplug)."""
    keypad = SimKeypad(session=2)
    driver = KeypadDriver(VirtualUsbBackend(keypad), poll_interval=0.02)
    done = threading.Event()
    seen = 0

    def sink(event: DeviceEvent) -> None:
        nonlocal seen
        if isinstance(event, KeypadEvent):
            seen += 1
            if seen == events:
                done.set()

    driver.subscribe(sink)
    driver.start()
    try:
        driver.wait_for(DeviceConnected, 5.0)
        start = time.perf_counter()
        for i in range(events):
            while keypad.waiting() >= 60:  # the keypad holds 64
                time.sleep(0.0005)
            keypad.press(Button.for_seat(i % 7 + 1))
        if not done.wait(30.0):
            raise RuntimeError(f"only {seen} of {events} events arrived")
        return events / (time.perf_counter() - start)
    finally:
        driver.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="the short form the test suite runs: a few samples of each")
    quick = parser.parse_args().quick
    single, merged = decode_rate(0.2 if quick else 2.0)
    print(f"keypad codec: {single:,.0f} reports/s decoded (1 per transfer)")
    print(f"keypad codec: {merged:,.0f} reports/s decoded (8 merged per transfer)")
    for poll in (0.02, 0.005):
        lat = sorted(latency(presses=20 if quick else 300, poll_interval=poll))
        p95 = lat[int(len(lat) * 0.95)]
        print(
            f"keypad latency report->event (poll {poll * 1000:g} ms, {len(lat)} presses): "
            f"median {statistics.median(lat) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, "
            f"max {lat[-1] * 1000:.2f} ms"
        )
    print(f"keypad end to end: {throughput(200 if quick else 2000):,.0f} events/s over pyusb "
          "and the virtual bus")


if __name__ == "__main__":
    main()
