"""``dealer-console sim``: a double in its own process, found by the path it prints."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_console.devices.bet_sensors import BetsLocked, LateBet, Spot
from dealer_console.devices.events import DeviceConnected
from dealer_console.devices.shuffler import CardsLeft, HandDelivered
from drivers.backoff import Backoff
from drivers.bet_sensors.device import BetSensorDriver
from drivers.shuffler.device import ShufflerDriver
from tests.drivers.conftest import collect_until

COMMAND = [sys.executable, "-m", "dealer_console.cli", "sim"]


@pytest.fixture
def serve() -> Iterator[object]:
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str) -> tuple[subprocess.Popen[str], str]:
        proc = subprocess.Popen(
            [*COMMAND, *args, "--duration", "60"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append(proc)
        assert proc.stdout is not None
        return proc, proc.stdout.readline().strip()

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def stop(proc: subprocess.Popen[str]) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(10)


def test_sim_shuffler_serves_a_deal(serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    link = tmp_path / "ttyShuffler"
    proc, path = serve(
        "shuffler", "--hand-interval", "0", "--link", str(link), "--missing-hand", "2"
    )
    assert path == str(link)
    driver = ShufflerDriver(path, ack_timeout=0.05, backoff=Backoff(initial=0.01, maximum=0.1))
    with driver:
        driver.wait_for(DeviceConnected)
        deal_id = driver.start_deal(7)
        events = collect_until(driver, lambda e: isinstance(e, CardsLeft))
    assert sorted(e.index for e in events if isinstance(e, HandDelivered)) == [1, 3, 4, 5, 6, 7]
    assert all(e.deal_id == deal_id for e in events if isinstance(e, HandDelivered))
    assert stop(proc) == 0
    assert not link.exists()


def test_sim_bet_sensors_serves_a_late_bet(serve) -> None:  # type: ignore[no-untyped-def]
    proc, path = serve(
        "bet-sensors", "--seats", "1-3", "--chip", "2.1", "--late-bet", "3.2", "--late-after", "0.1"
    )
    assert path.startswith("/dev/")
    driver = BetSensorDriver(path, seats=[1, 2, 3], backoff=Backoff(initial=0.01, maximum=0.1))
    with driver:
        collect_until(driver, lambda e: isinstance(e, DeviceConnected))
        lock_id = driver.lock()
        assert driver.wait_for(BetsLocked).wagered == frozenset({Spot(2, 1)})
        late = driver.wait_for(LateBet)
    assert (late.lock_id, late.spot) == (lock_id, Spot(3, 2))
    assert stop(proc) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["shuffler", "--fault", "melt=0.5"], "the kind must be one of"),
        (["shuffler", "--fault", "drop=2"], "not within 0..1"),
        (["shuffler", "--deck-count", "999"], "'999' is not a whole number from 0 to 255"),
        (["bet-sensors", "--seats", "0-9"], "seats are 1-7"),
        (["bet-sensors", "--chip", "3"], "expected SEAT.SPOT"),
        (["bet-sensors", "--seats", "1", "--chip", "2.1"], "seat 2 has no node"),
    ],
)
def test_bad_options_are_named(args: list[str], message: str) -> None:
    done = subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""
