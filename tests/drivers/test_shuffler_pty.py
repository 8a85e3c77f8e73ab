"""The shuffler driver against its double over a real pseudo-terminal with real pyserial."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dealer_console.cards import DECK, Card, check_cards
from dealer_console.devices.events import DeviceConnected, DeviceDisconnected, DeviceEvent
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    DeckChecked,
    FirstPositionDrawn,
    HandDelivered,
    ShufflerState,
    ShufflerStatus,
)
from drivers.backoff import Backoff
from drivers.shuffler import framer as f
from drivers.shuffler.device import ShufflerDriver
from drivers.sim.faults import Fault, FaultInjector, FaultPlan
from drivers.sim.pty import PtyServer
from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario
from drivers.transport import SerialTransport
from tests.drivers.conftest import collect_until, wait_until


class Rig:
    def __init__(self, tmp_path: Path, scenario: ShufflerScenario, plan: FaultPlan) -> None:
        self.double = ShufflerDouble(scenario, ack_timeout=0.05)
        self.faults = FaultInjector(plan)
        self.server = PtyServer(self.double, link=tmp_path / "shuffler", faults=self.faults)
        self.server.start()
        self.driver = ShufflerDriver(
            self.server.path,
            ack_timeout=0.05,
            heartbeat=0.3,
            silence_timeout=1.5,
            backoff=Backoff(initial=0.01, maximum=0.1),
            first_deal_id=100,
        )
        self.driver.start()

    def close(self) -> None:
        self.driver.stop()
        self.server.stop()


RigFactory = Callable[..., Rig]


@pytest.fixture
def rig_factory(tmp_path: Path) -> Iterator[RigFactory]:
    rigs: list[Rig] = []

    def make(scenario: ShufflerScenario | None = None, plan: FaultPlan | None = None) -> Rig:
        rig = Rig(tmp_path, scenario or ShufflerScenario(), plan or FaultPlan())
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()


def deal_events(rig: Rig, deal_id: int) -> list[DeviceEvent]:
    return collect_until(
        rig.driver, lambda e: isinstance(e, CardsLeft | CardCountError) and e.deal_id == deal_id
    )


def hands_of(events: list[DeviceEvent]) -> dict[int, tuple[Card, ...]]:
    hands = [e for e in events if isinstance(e, HandDelivered)]
    indexes = [h.index for h in hands]
    assert len(indexes) == len(set(indexes)), f"a hand was delivered twice: {indexes}"
    return {h.index: h.cards for h in hands}


def test_a_full_deal_end_to_end(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    connected = rig.driver.wait_for(DeviceConnected)
    status = rig.driver.wait_for(ShufflerStatus)
    assert (status.firmware, status.serial_number) == (
        rig.double.firmware,
        rig.double.serial_number,
    )
    assert connected.device == "shuffler"
    deal_id = rig.driver.start_deal(7)
    events = deal_events(rig, deal_id)
    sent = rig.double.dealt[deal_id]
    assert [e.counted for e in events if isinstance(e, DeckChecked)] == [53]
    assert [e.number for e in events if isinstance(e, FirstPositionDrawn)] == [sent.number]
    assert 1 <= sent.number <= 7
    assert hands_of(events) == sent.delivered
    assert list(hands_of(events)) == list(range(1, 8))
    left = events[-1]
    assert isinstance(left, CardsLeft) and left.cards == sent.left and left.count == 4
    every_card = [c for cards in sent.delivered.values() for c in cards] + list(left.cards)
    check_cards(every_card, 53)  # the 53 cards of the deck, each exactly once
    seqs = [e.seq for e in events]
    assert seqs == sorted(seqs)
    deal_facts = [e for e in events if not isinstance(e, ShufflerStatus)]
    assert {getattr(e, "deal_id", None) for e in deal_facts} == {deal_id}


def test_count_error_missing_short_hand_and_jam_are_reported(rig_factory: RigFactory) -> None:
    rig = rig_factory(ShufflerScenario(deck_count=52))
    rig.driver.wait_for(DeviceConnected)
    first = rig.driver.start_deal(7)
    events = deal_events(rig, first)
    assert [type(e).__name__ for e in events if not isinstance(e, ShufflerStatus)] == [
        "DeckChecked",
        "CardCountError",
    ]
    assert isinstance(events[-1], CardCountError) and events[-1].counted == 52

    rig.double.script(deck_count=53, missing_hands=frozenset({3}), short_hands=frozenset({5}))
    second = rig.driver.start_deal(7)
    events = deal_events(rig, second)
    hands = hands_of(events)
    assert sorted(hands) == [1, 2, 4, 5, 6, 7]
    assert len(hands[5]) == 6
    assert not next(e for e in events if isinstance(e, HandDelivered) and e.index == 5).complete

    rig.double.script(missing_hands=frozenset(), short_hands=frozenset(), jam_after=2)
    third = rig.driver.start_deal(7)
    jam = collect_until(
        rig.driver, lambda e: isinstance(e, ShufflerStatus) and e.state is ShufflerState.JAM
    )
    assert sorted(hands_of(jam)) == [1, 2]
    assert rig.double.state is ShufflerState.JAM
    assert rig.driver.start_deal(7) != third  # refused by the jammed machine: status again
    rig.driver.reset()
    collect_until(
        rig.driver, lambda e: isinstance(e, ShufflerStatus) and e.state is ShufflerState.READY
    )


@pytest.mark.parametrize("fault", list(Fault))
def test_each_fault_on_every_frame_loses_and_doubles_nothing(
    rig_factory: RigFactory, fault: Fault
) -> None:
    plan = FaultPlan(seed=3, **{fault.value: 0.5})
    rig = rig_factory(plan=plan)
    rig.driver.wait_for(DeviceConnected, timeout=10)
    deal_id = rig.driver.start_deal(7)
    events = deal_events(rig, deal_id)
    assert hands_of(events) == rig.double.dealt[deal_id].delivered
    assert rig.faults.applied[fault] > 0
    snap = rig.driver.diagnostics()
    if fault in (Fault.CORRUPT, Fault.GARBAGE):
        assert snap.frames_bad > 0
    assert snap.frames_good > 0 and snap.last_rx and snap.last_tx


def test_unplug_and_replug_in_the_middle_of_a_deal(rig_factory: RigFactory) -> None:
    rig = rig_factory(ShufflerScenario(hand_interval=0.05))
    rig.driver.wait_for(DeviceConnected)
    deal_id = rig.driver.start_deal(7)
    before = collect_until(rig.driver, lambda e: isinstance(e, HandDelivered) and e.index == 3)
    rig.server.unplug()
    gone = collect_until(rig.driver, lambda e: isinstance(e, DeviceDisconnected))
    rig.server.replug()
    after = deal_events(rig, deal_id)
    assert any(isinstance(e, DeviceConnected) for e in after)
    hands = hands_of(before + gone + after)
    assert max(hands_of(before)) < 7 and 7 in hands_of(after)  # really cut mid-deal
    assert hands == rig.double.dealt[deal_id].delivered
    snap = rig.driver.diagnostics()
    assert snap.disconnects >= 1 and snap.connects >= 2


def test_a_power_cycled_shuffler_is_heard_and_old_hands_are_not_repeated(
    rig_factory: RigFactory,
) -> None:
    rig = rig_factory()
    rig.driver.wait_for(DeviceConnected)
    deal_id = rig.driver.start_deal(7)
    deal_events(rig, deal_id)
    rig.double.power_cycle()
    status = rig.driver.wait_for(ShufflerStatus)
    assert status.state is ShufflerState.READY
    second = rig.driver.start_deal(7)
    events = deal_events(rig, second)
    assert hands_of(events) == rig.double.dealt[second].delivered


def test_a_deal_id_is_refused_while_remembered_and_dealt_again_after(
    rig_factory: RigFactory,
) -> None:
    """docs/protocols/shuffler.md: the shuffler answers a START_DEAL naming one of its last
    eight deals with a status only, and deals an id it no longer remembers, as deal ids come
    round again; the driver, which remembers as many, reports the new deal's every fact."""
    rig = rig_factory()
    rig.driver.wait_for(DeviceConnected)
    for deal_id in range(100, 100 + f.DEALS_REMEMBERED + 1):
        deal_events(rig, rig.driver.start_deal(7, deal_id))
    first = rig.double.dealt[100]
    last = 100 + f.DEALS_REMEMBERED
    dealt_last = rig.double.dealt[last]

    def asked() -> int:
        return sum(isinstance(m, f.StartDeal) for m in list(rig.double.received))

    before = asked()
    rig.driver.start_deal(7, last)  # remembered: a status, no deal
    wait_until(lambda: asked() > before, timeout=5)
    assert rig.double.dealt[last] is dealt_last
    events = deal_events(rig, rig.driver.start_deal(7, 100))  # forgotten: a new deal
    assert rig.double.dealt[100] is not first
    assert hands_of(events) == rig.double.dealt[100].delivered
    assert list(hands_of(events)) == list(range(1, 8))


def test_diagnostics_and_test_actions(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    rig.driver.wait_for(DeviceConnected)
    assert rig.driver.test_actions() == ("status", "deck count")
    rig.driver.run_test_action("deck count")
    check = rig.driver.wait_for(DeckChecked)
    assert (check.deal_id, check.counted) == (0, 53)
    rig.driver.run_test_action("deck count")  # a second count is a new fact, not a repeat
    again = rig.driver.wait_for(DeckChecked)
    assert again.deal_id == 0 and again.key != check.key
    rig.driver.run_test_action("status")
    rig.driver.wait_for(ShufflerStatus)
    with pytest.raises(ValueError, match="no test action 'dance'"):
        rig.driver.run_test_action("dance")
    snap = rig.driver.diagnostics()
    assert snap.firmware == rig.double.firmware and snap.serial_number == rig.double.serial_number
    assert snap.port == rig.server.path
    assert snap.frames_good > 0 and snap.last_rx and snap.last_tx
    assert all(frame.startswith("7e") and frame.endswith("7e") for frame in snap.last_rx)


def test_a_well_framed_packet_that_does_not_read_is_not_asked_for_again_at_once(
        rig_factory: RigFactory) -> None:
    """docs/protocols/shuffler.md: a packet that passes its CRC but does not read (a card code
    above 52) is counted bad and not acknowledged, so the sender resends it on its ACK
    timeout. A NAK (meant for a frame damaged on the wire) had the sender resend it at once,
    over and over, pegging the driver's thread (an outside review)."""
    rig = rig_factory()
    rig.driver.wait_for(DeviceConnected)
    payload = f.Hand(7, 1, tuple(DECK[:7])).payload()[:-1] + bytes((53,))
    rig.double._arq.send(f.Kind.HAND, payload)  # as a faulty machine would send it
    wait_until(lambda: rig.driver.diagnostics().frames_bad >= 3, what="the packet sent again")
    snap = rig.driver.diagnostics()
    assert "card code 53" in snap.last_error
    nak = "7e 00 15 5f 9b 7e"
    assert nak not in snap.last_tx, snap.last_tx


def test_bad_deal_requests_are_refused_before_the_wire(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    with pytest.raises(ValueError, match="1-8 hands"):
        rig.driver.start_deal(0)
    with pytest.raises(ValueError, match="deal id 70000"):
        rig.driver.start_deal(7, deal_id=70000)


def test_the_heartbeat_does_not_fill_the_queue_with_unchanged_status(tmp_path: Path) -> None:
    def drain(driver: ShufflerDriver) -> list[ShufflerStatus]:
        out = []
        while (event := driver.get_event(0)) is not None:
            if isinstance(event, ShufflerStatus):
                out.append(event)
        return out

    double = ShufflerDouble(ack_timeout=0.05)
    with PtyServer(double, link=tmp_path / "quiet") as server:
        driver = ShufflerDriver(server.path, ack_timeout=0.05, heartbeat=0.02, silence_timeout=1)
        with driver:
            driver.wait_for(DeviceConnected)
            wait_until(lambda: driver.diagnostics().frames_good > 40, what="heartbeats")
            quiet = drain(driver)
            driver.request_status()  # asked for: reported though nothing changed
            asked = driver.wait_for(ShufflerStatus)
            double.open_door()  # a change: reported unasked
            door = driver.wait_for(ShufflerStatus)
            after = drain(driver)
    assert len(quiet) <= 1, f"{len(quiet)} status events from heartbeats alone"
    assert asked.state is ShufflerState.READY and door.state is ShufflerState.DOOR_OPEN
    assert not after


def test_a_command_goes_out_at_once_however_long_the_read_waits(tmp_path: Path) -> None:
    """A deal asked for while the shuffler is quiet goes on the wire when the driver's thread
    takes it, not once the serial read's wait runs out (here 4 s: the answer must come well
    before it)."""
    double = ShufflerDouble(ShufflerScenario(), ack_timeout=0.05)
    server = PtyServer(double, link=tmp_path / "shuffler").start()
    driver = ShufflerDriver(lambda: SerialTransport(server.path, poll_interval=4.0),
                            ack_timeout=0.05, heartbeat=60.0, silence_timeout=60.0,
                            backoff=Backoff(initial=0.01, maximum=0.1), first_deal_id=100)
    driver.start()
    try:
        collect_until(driver, lambda e: isinstance(e, ShufflerStatus))
        time.sleep(0.3)  # the hello and status exchanged: the line is quiet, the read waits
        asked = time.monotonic()
        deal_id = driver.start_deal(7)
        events = collect_until(driver, lambda e: isinstance(e, FirstPositionDrawn)
                               and e.deal_id == deal_id, timeout=10.0)
        assert time.monotonic() - asked < 2.0, [type(e).__name__ for e in events]
    finally:
        driver.stop()
        server.stop()
