"""Serial driver figures: frames decoded per second per device, and latency over a pty.

Run: ``.venv/bin/python benchmarks/drivers_serial.py`` (add ``--quick`` for a short run).

1. Decoding: the framer alone, then the whole driver receive path (framer, link, events),
   fed a long stream in 4 KiB chunks as a serial port delivers it.
2. Shuffler latency: the last byte of a HAND frame is written into a pseudo-terminal, the
   driver (real pyserial, its own I/O thread) emits HandDelivered; the time between the
   two is measured in the event callback, on the I/O thread.
3. Bet sensors: a chip placed on the double's sensor until the BetSpotChanged event (this
   includes the polling cycle of seven nodes, which dominates).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from dealer_console.cards import DECK
from dealer_console.devices.bet_sensors import BetSpotChanged, LightColour, LightMode
from dealer_console.devices.events import DeviceConnected, DeviceEvent
from dealer_console.devices.shuffler import HandDelivered, ShufflerState
from drivers.arq import next_seq
from drivers.backoff import Backoff
from drivers.bet_sensors import framer as bf
from drivers.bet_sensors.device import BetSensorDriver, _Transaction
from drivers.shuffler import framer as sf
from drivers.shuffler.device import ShufflerDriver
from drivers.sim.bet_sensors import BetSensorBusDouble
from drivers.sim.pty import PtyServer
from drivers.transport import Transport, TransportError


def no_port() -> Transport:
    raise TransportError("decoding benchmark: no port")


def chunks(data: bytes, size: int = 4096) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def hand_stream(n: int) -> bytes:
    out, seq = [], 1
    for i in range(n):
        cards = tuple(DECK[(i + k) % 53] for k in range(7))
        out.append(sf.packet_for(sf.Hand(i // 7 % 0xFFFF + 1, i % 7 + 1, cards), seq).wire())
        seq = next_seq(seq)
    return b"".join(out)


def state_frames(n: int) -> list[tuple[int, int, bytes]]:
    lights = ((LightMode.ON, LightColour.WHITE),) * 2
    return [
        (
            i % 7 + 1,
            i & 0xFF,
            bf.BusFrame(i % 7 + 1, True, i & 0xFF, bf.State(2, i % 4, 0, 0, 0, 0, lights)).wire(),
        )
        for i in range(n)
    ]


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>12,.0f} frames/s"


def bench_decoding(n: int) -> None:
    stream = hand_stream(n)
    t = time.perf_counter()
    framer = sf.ShufflerFramer()
    got = sum(len(framer.feed(c)) for c in chunks(stream))
    print(f"shuffler framer      {rate(got, time.perf_counter() - t)}  ({got} HAND frames)")

    driver = ShufflerDriver(no_port)
    events: list[DeviceEvent] = []
    driver.subscribe(events.append, only_reader=True)  # as the console reads a driver
    t = time.perf_counter()
    for c in chunks(stream):
        driver._on_data(c)
    elapsed = time.perf_counter() - t
    print(f"shuffler driver      {rate(n, elapsed)}  (framer + link + ACKs + {len(events)} "
          "events)")

    frames = state_frames(n)
    stream = b"".join(w for _, _, w in frames)
    t = time.perf_counter()
    bframer = bf.BetSensorFramer()
    got = sum(len(bframer.feed(c)) for c in chunks(stream))
    print(f"bet-sensor framer    {rate(got, time.perf_counter() - t)}  ({got} STATE frames)")

    bdriver = BetSensorDriver(no_port)
    bdriver.subscribe(lambda event: None, only_reader=True)
    now = time.monotonic()
    t = time.perf_counter()
    for seat, seq, wire in frames:  # a bus answers one request at a time
        bdriver._txn = _Transaction(seat, seq, bf.Poll(), now)
        bdriver._on_data(wire)
    print(f"bet-sensor driver    {rate(n, time.perf_counter() - t)}  (framer + state diff)")


def summary(name: str, samples: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(
        f"{name:<32} median {statistics.median(ms):6.2f} ms   p95 {p95:6.2f} ms   "
        f"max {ms[-1]:6.2f} ms   (n={len(ms)})"
    )


def bench_shuffler_latency(n: int) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    got: dict[int, float] = {}
    arrived = threading.Event()

    connected = threading.Event()

    def on_event(event: DeviceEvent) -> None:
        if isinstance(event, HandDelivered):
            got[event.index] = time.perf_counter()
            arrived.set()
        elif isinstance(event, DeviceConnected):
            connected.set()

    driver = ShufflerDriver(os.ttyname(slave), backoff=Backoff(initial=0.01), silence_timeout=60)
    driver.subscribe(on_event)
    drain = threading.Thread(target=lambda: _drain(master), daemon=True)
    drain.start()
    samples = []
    with driver:
        status = sf.Status(ShufflerState.READY, 0, "bench", "B-1")
        while not connected.wait(0.1):  # until the driver has the port open and hears us
            os.write(master, sf.packet_for(status, 0).wire())
        seq = 1
        for i in range(n):
            cards = tuple(DECK[(i + k) % 53] for k in range(7))
            index = i % 200 + 1
            deal = i // 200 + 1
            wire = sf.packet_for(sf.Hand(deal, index, cards), seq).wire()
            seq = next_seq(seq)
            arrived.clear()
            got.pop(index, None)
            os.write(master, wire[:-1])
            time.sleep(0.001)
            sent = time.perf_counter()
            os.write(master, wire[-1:])  # the last byte: the clock starts now
            if not arrived.wait(2):
                raise SystemExit(f"hand {i} never arrived")
            samples.append(got[index] - sent)
    os.close(master)
    os.close(slave)
    summary("shuffler last byte -> event", samples)


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass


def bench_bet_latency(n: int) -> None:
    bus = BetSensorBusDouble()
    changed = threading.Event()
    at: list[float] = []

    def on_event(event: DeviceEvent) -> None:
        if isinstance(event, BetSpotChanged):
            at.append(time.perf_counter())
            changed.set()
        elif isinstance(event, DeviceConnected):
            connected.set()

    connected = threading.Event()
    samples = []
    with tempfile.TemporaryDirectory() as tmp, PtyServer(bus, link=Path(tmp) / "bus") as server:
        driver = BetSensorDriver(server.path, backoff=Backoff(initial=0.01))
        driver.subscribe(on_event)
        with driver:
            connected.wait(5)
            time.sleep(0.3)  # every node identified and polled once
            for i in range(n):
                changed.clear()
                t = time.perf_counter()
                (bus.place if i % 2 == 0 else bus.take)(4, 1)
                if not changed.wait(2):
                    raise SystemExit(f"chip change {i} never reported")
                samples.append(at[-1] - t)
    summary("bet sensor chip -> event (7 nodes)", samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    decode_n, latency_n = (5_000, 50) if args.quick else (50_000, 300)
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    bench_decoding(decode_n)
    bench_shuffler_latency(latency_n)
    bench_bet_latency(latency_n // 3)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
