"""The bet-sensor driver against its bus double over a real pseudo-terminal with real pyserial."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_console.devices.bet_sensors import (
    BetRemoved,
    BetsLocked,
    BetSpotChanged,
    BetsUnlocked,
    LateBet,
    LightColour,
    LightMode,
    SensorNodeChanged,
    Spot,
)
from dealer_console.devices.events import DeviceConnected, DeviceDisconnected, DeviceEvent
from drivers.backoff import Backoff
from drivers.bet_sensors.device import BetSensorDriver
from drivers.sim.bet_sensors import BetSensorBusDouble
from drivers.sim.faults import Fault, FaultInjector, FaultPlan
from drivers.sim.pty import PtyServer
from tests.drivers.conftest import collect_until, wait_until


class Rig:
    def __init__(self, tmp_path: Path, plan: FaultPlan, seats: list[int],
                 **driver: Any) -> None:
        self.bus = BetSensorBusDouble(seats)
        self.faults = FaultInjector(plan)
        self.server = PtyServer(self.bus, link=tmp_path / "bets", faults=self.faults)
        self.server.start()
        self.driver = BetSensorDriver(
            self.server.path,
            seats=seats,
            reply_timeout=0.03,
            offline_poll_interval=0.1,
            silence_timeout=1.0,
            backoff=Backoff(initial=0.01, maximum=0.1),
            first_lock_id=500,
            **driver,
        )
        self.driver.start()

    def online(self, count: int) -> list[DeviceEvent]:
        seen: set[int] = set()

        def all_up(e: DeviceEvent) -> bool:
            if isinstance(e, SensorNodeChanged) and e.online:
                seen.add(e.seat)
            return len(seen) == count

        return collect_until(self.driver, all_up)

    def close(self) -> None:
        self.driver.stop()
        self.server.stop()


RigFactory = Callable[..., Rig]


@pytest.fixture
def rig_factory(tmp_path: Path) -> Iterator[RigFactory]:
    rigs: list[Rig] = []

    def make(plan: FaultPlan | None = None, seats: list[int] | None = None,
             **driver: Any) -> Rig:
        rig = Rig(tmp_path, plan or FaultPlan(), seats or [1, 2, 3, 4, 5, 6, 7], **driver)
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()


def facts(events: list[DeviceEvent]) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    for e in events:
        if isinstance(e, BetSpotChanged):
            out.append(("spot", (e.spot, e.present)))
        elif isinstance(e, LateBet | BetRemoved):
            out.append((type(e).__name__, (e.lock_id, e.spot)))
        elif isinstance(e, BetsLocked):
            out.append(("locked", (e.lock_id, e.wagered)))
        elif isinstance(e, BetsUnlocked):
            out.append(("unlocked", e.lock_id))
    return out


def expect(rig: Rig, wanted: set[tuple[str, object]]) -> list[DeviceEvent]:
    """Events until every wanted fact came; then each came exactly once and nothing else did."""
    seen: list[DeviceEvent] = []

    def complete(e: DeviceEvent) -> bool:
        seen.append(e)
        return set(facts(seen)) >= wanted

    events = collect_until(rig.driver, complete)
    assert sorted(map(str, facts(events))) == sorted(map(str, wanted))
    return events


def round_trip(rig: Rig) -> list[DeviceEvent]:
    """A jackpot round: bets, START GAME, a late bet, the dealer takes the wagers, END GAME."""
    d, bus = rig.driver, rig.bus
    events = rig.online(len(bus.nodes))
    assert any(isinstance(e, DeviceConnected) for e in events)
    bus.place(1, 1)
    bus.place(4, 2)
    events += expect(rig, {("spot", (Spot(1, 1), True)), ("spot", (Spot(4, 2), True))})
    lock_id = d.lock()
    events += expect(rig, {("locked", (lock_id, frozenset({Spot(1, 1), Spot(4, 2)})))})
    bus.place(6, 1)  # late
    events += expect(rig, {("LateBet", (lock_id, Spot(6, 1)))})
    bus.take(1, 1)  # the dealer takes the jackpot wagers off the table
    bus.take(4, 2)
    events += expect(
        rig, {("BetRemoved", (lock_id, Spot(1, 1))), ("BetRemoved", (lock_id, Spot(4, 2)))}
    )
    d.unlock()
    events += expect(
        rig,
        {
            ("unlocked", lock_id),
            ("spot", (Spot(1, 1), False)),
            ("spot", (Spot(4, 2), False)),
            ("spot", (Spot(6, 1), True)),
        },
    )
    return events


def test_a_jackpot_round_end_to_end(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    events = round_trip(rig)
    seqs = [e.seq for e in events]
    assert seqs == sorted(seqs)
    snap = rig.driver.diagnostics()
    assert snap.frames_bad == 0 and snap.frames_good > 10
    assert snap.extra["seat 3"].startswith("online SIM-BS-1.2")


@pytest.mark.parametrize("fault", list(Fault))
def test_faults_lose_and_double_nothing(rig_factory: RigFactory, fault: Fault) -> None:
    rig = rig_factory(FaultPlan(seed=5, **{fault.value: 0.3}))
    round_trip(rig)
    assert rig.faults.applied[fault] > 0
    snap = rig.driver.diagnostics()
    if fault in (Fault.DROP, Fault.CORRUPT):  # an answer lost: the request was sent again
        assert snap.frames_retransmitted > 0


def test_lights_are_set_and_the_light_test_reaches_every_spot(rig_factory: RigFactory) -> None:
    rig = rig_factory(seats=[2, 5])
    rig.online(2)
    rig.driver.set_light(Spot(5, 2), LightMode.BLINK, LightColour.GREEN)
    wait_until(lambda: rig.bus.light(5, 2) == (LightMode.BLINK, LightColour.GREEN), what="light")
    rig.driver.run_test_action("light test")
    wait_until(
        lambda: all(
            rig.bus.light(s, p) == (LightMode.BLINK, LightColour.WHITE)
            for s in (2, 5)
            for p in (1, 2)
        ),
        what="light test",
    )
    rig.driver.run_test_action("lights off")
    wait_until(lambda: rig.bus.light(2, 1)[0] is LightMode.OFF, what="lights off")
    with pytest.raises(ValueError, match="no test action"):
        rig.driver.run_test_action("disco")
    with pytest.raises(ValueError, match="seat 3 has no bet-sensor node"):
        rig.driver.set_light(Spot(3, 1), LightMode.ON, LightColour.RED)


def test_a_node_with_one_spot_is_not_asked_for_its_missing_light(tmp_path: Path) -> None:
    bus = BetSensorBusDouble([1, 2], spots=1)
    with PtyServer(bus, link=tmp_path / "bus") as server:
        driver = BetSensorDriver(server.path, seats=[1, 2], backoff=Backoff(initial=0.01))
        with driver:
            seen: set[int] = set()
            collect_until(
                driver,
                lambda e: (
                    isinstance(e, SensorNodeChanged) and not seen.add(e.seat) and len(seen) == 2
                ),
            )
            driver.run_test_action("light test")
            wait_until(lambda: bus.light(2, 1)[0] is LightMode.BLINK, what="light test")
            driver.set_light(Spot(1, 1), LightMode.ON, LightColour.RED)
            wait_until(lambda: bus.light(1, 1) == (LightMode.ON, LightColour.RED), what="light")
        events = []
        while (event := driver.get_event(0)) is not None:
            events.append(event)
    assert not [e for e in events if isinstance(e, SensorNodeChanged) and not e.online]
    assert "has no spot 2" in driver.diagnostics().last_error


def test_a_node_off_the_bus_at_the_lock_comes_back_with_a_late_bet(rig_factory: RigFactory) -> None:
    rig = rig_factory(seats=[1, 2, 3])
    rig.online(3)
    rig.bus.set_online(2, False)
    gone = rig.driver.wait_for(SensorNodeChanged)
    assert (gone.seat, gone.online) == (2, False)
    rig.bus.place(1, 1)
    lock_id = rig.driver.lock()
    locked = rig.driver.wait_for(BetsLocked)
    assert locked.wagered == frozenset({Spot(1, 1)})
    rig.bus.place(2, 1)  # placed while its node was away: not a wager of this round
    rig.bus.set_online(2, True)
    late = rig.driver.wait_for(LateBet)
    assert (late.lock_id, late.spot) == (lock_id, Spot(2, 1))


@pytest.mark.parametrize(("offline_tries", "asked"), [(None, 3), (1, 1)])
def test_a_node_off_the_bus_is_probed_with_its_offline_tries_and_comes_back(
        rig_factory: RigFactory, offline_tries: int | None, asked: int) -> None:
    """Three silent tries mark a node off the bus; each later probe is ``offline_tries``
    requests with one SEQ (``tries`` unless given: the simulated table gives 1, as its 5 tries
    of 0.5 s held the bus 2.5 s a probe from the seats that answer)."""
    rig = rig_factory(seats=[1, 2], offline_tries=offline_tries)
    rig.online(2)
    rig.bus.set_online(2, False)
    gone = rig.driver.wait_for(SensorNodeChanged)
    assert (gone.seat, gone.online) == (2, False)
    marked = rig.bus.requests

    def probes() -> list[int]:
        return [seq for n, seat, seq in list(rig.bus.heard) if seat == 2 and n > marked]

    wait_until(lambda: len(set(probes())) >= 4, what="four probes of the node off the bus")
    seqs = probes()
    whole = [seq for seq in seqs[:-1] if seq != seqs[-1]]  # the last probe may be under way
    assert whole and all(whole.count(seq) == asked for seq in whole), seqs
    rig.bus.set_online(2, True)
    back = rig.driver.wait_for(SensorNodeChanged)
    assert (back.seat, back.online) == (2, True)


def test_unplug_and_replug_during_a_locked_round(rig_factory: RigFactory) -> None:
    rig = rig_factory(seats=[1, 2])
    rig.online(2)
    rig.bus.place(1, 1)
    lock_id = rig.driver.lock()
    rig.driver.wait_for(BetsLocked)
    rig.server.unplug()
    rig.driver.wait_for(DeviceDisconnected)
    rig.bus.place(2, 2)  # a late bet while the console cannot hear the bus
    rig.bus.take(2, 2)  # ... gone again before the bus is back: the sticky bit keeps it
    rig.server.replug()
    events = collect_until(rig.driver, lambda e: isinstance(e, LateBet))
    assert any(isinstance(e, DeviceConnected) for e in events)
    assert facts(events) == [("LateBet", (lock_id, Spot(2, 2)))]
    rig.driver.unlock()
    after = collect_until(rig.driver, lambda e: isinstance(e, BetsUnlocked))
    assert not [e for e in after if isinstance(e, LateBet)]


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="among 1-7"):
        BetSensorDriver(str(tmp_path / "none"), seats=[0, 8])
    driver = BetSensorDriver(str(tmp_path / "none"), seats=[1])
    with pytest.raises(ValueError, match="lock id 0"):
        driver.lock(0)


def test_round_after_round_the_memory_stays_bounded_and_lock_ids_can_come_again(
    rig_factory: RigFactory,
) -> None:
    # Lock ids wrap at 65535 (and the round may choose its own), so an id comes back: each
    # lock must be reported afresh, and the facts of old rounds must not pile up.
    rig = rig_factory(seats=[1, 2])
    rig.online(2)
    rig.bus.place(1, 1)
    for round_no in range(12):
        lock_id = rig.driver.lock(lock_id=1 + round_no % 3)
        locked = collect_until(rig.driver, lambda e: isinstance(e, BetsLocked))[-1]
        assert isinstance(locked, BetsLocked) and locked.lock_id == lock_id
        assert locked.wagered == frozenset({Spot(1, 1)})
        rig.bus.place(2, 2)  # late, every round
        late = rig.driver.wait_for(LateBet)
        assert (late.lock_id, late.spot) == (lock_id, Spot(2, 2))
        rig.driver.unlock()
        collect_until(rig.driver, lambda e: isinstance(e, BetsUnlocked))
        rig.bus.take(2, 2)
        assert len(rig.driver._reported) <= 2  # the lock just released, at most one other


def test_a_node_away_for_many_rounds_collects_no_backlog_and_comes_back_unlocked(
    rig_factory: RigFactory,
) -> None:
    rig = rig_factory(seats=[1, 2])
    rig.online(2)
    first = rig.driver.lock()
    rig.driver.wait_for(BetsLocked)
    wait_until(lambda: rig.bus.nodes[2].lock_id == first, what="seat 2 latched")
    rig.bus.set_online(2, False)  # away from here on: it keeps the first lock
    gone = rig.driver.wait_for(SensorNodeChanged)
    assert (gone.seat, gone.online) == (2, False)
    rig.driver.unlock()
    rig.driver.wait_for(BetsUnlocked)
    for _ in range(20):
        rig.driver.lock()
        rig.driver.wait_for(BetsLocked)
        rig.driver.unlock()
        rig.driver.wait_for(BetsUnlocked)
    assert len(rig.driver._nodes[2].queue) <= 1  # one lock command at most, not forty
    rig.bus.set_online(2, True)
    wait_until(lambda: rig.bus.nodes[2].lock_id == 0, what="seat 2 released from its old lock")
    rig.bus.place(2, 1)
    expect(rig, {("spot", (Spot(2, 1), True))})


def test_a_node_that_restarts_between_polls_is_locked_again(rig_factory: RigFactory) -> None:
    rig = rig_factory(seats=[1])
    rig.online(1)
    lock_id = rig.driver.lock()
    rig.driver.wait_for(BetsLocked)
    rig.bus.reboot(1)  # too quick for the console to miss an answer: it never went offline
    wait_until(lambda: rig.bus.nodes[1].lock_id == lock_id, what="the node locked again")
    rig.bus.place(1, 2)
    late = rig.driver.wait_for(LateBet)
    assert (late.lock_id, late.spot) == (lock_id, Spot(1, 2))


def test_the_light_test_ends_with_the_rounds_lights_back(tmp_path: Path) -> None:
    bus = BetSensorBusDouble([2, 5])
    with PtyServer(bus, link=tmp_path / "bus") as server:
        driver = BetSensorDriver(
            server.path, seats=[2, 5], backoff=Backoff(initial=0.01), light_test_seconds=0.3
        )
        with driver:
            driver.set_light(Spot(2, 1), LightMode.ON, LightColour.RED)
            wait_until(lambda: bus.light(2, 1) == (LightMode.ON, LightColour.RED), what="red")
            driver.run_test_action("light test")
            blinking = (LightMode.BLINK, LightColour.WHITE)
            wait_until(
                lambda: all(bus.light(s, p) == blinking for s in (2, 5) for p in (1, 2)),
                what="every light blinking",
            )
            driver.set_light(Spot(5, 2), LightMode.ON, LightColour.GREEN)  # shown after it
            # every light back as the round had it (the nodes are sent theirs in turn, in no
            # fixed order: wait for all four, not for two and then look at the others)
            wait_until(lambda: (bus.light(2, 1), bus.light(5, 2), bus.light(2, 2)[0],
                                bus.light(5, 1)[0])
                       == ((LightMode.ON, LightColour.RED), (LightMode.ON, LightColour.GREEN),
                           LightMode.OFF, LightMode.OFF), what="the round's lights back")
            driver.run_test_action("lights off")
            wait_until(lambda: bus.light(2, 1)[0] is LightMode.OFF, what="lights off")
