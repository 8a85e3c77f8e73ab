"""The three devices of a jackpot table at once, each behind its real driver: a round with
every cable pulled in the middle of the deal and plugged back. Nothing acknowledged is lost or
delivered twice, on any of them."""

from __future__ import annotations

from pathlib import Path

from dealer_console.devices.bet_sensors import BetsLocked, LateBet, Spot
from dealer_console.devices.events import DeviceConnected, DeviceDisconnected, DeviceEvent
from dealer_console.devices.keypad import Button, ButtonPressed, KeypadEvent
from dealer_console.devices.shuffler import CardsLeft, HandDelivered
from drivers.backoff import Backoff
from drivers.bet_sensors.device import BetSensorDriver
from drivers.keypad.device import KeypadDriver
from drivers.shuffler.device import ShufflerDriver
from drivers.sim.bet_sensors import BetSensorBusDouble
from drivers.sim.keypad import SimKeypad
from drivers.sim.pty import PtyServer
from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario
from drivers.sim.usb_backend import VirtualUsbBackend
from tests.drivers.conftest import collect_until

FAST = Backoff(initial=0.01, maximum=0.1)


def test_every_cable_pulled_in_the_middle_of_a_deal(tmp_path: Path) -> None:
    shuffler = ShufflerDouble(ShufflerScenario(hand_interval=0.05), ack_timeout=0.05)
    bus = BetSensorBusDouble([1, 2, 3])
    keypad = SimKeypad(session=0x5EA7, retransmit_s=0.02)
    with (
        PtyServer(shuffler, link=tmp_path / "shuffler") as shuffler_port,
        PtyServer(bus, link=tmp_path / "bets") as bus_port,
    ):
        deal = ShufflerDriver(shuffler_port.path, ack_timeout=0.05, backoff=FAST, first_deal_id=3)
        bets = BetSensorDriver(bus_port.path, seats=[1, 2, 3], backoff=FAST, first_lock_id=40)
        keys = KeypadDriver(VirtualUsbBackend(keypad), poll_interval=0.005, backoff=FAST)
        seen: list[DeviceEvent] = []  # every event of the three, whoever read the queues
        for driver in (deal, bets, keys):
            driver.subscribe(seen.append)
        with deal, bets, keys:
            for driver in (deal, bets, keys):
                driver.wait_for(DeviceConnected)
            bus.place(1, 1)
            keypad.tap(Button.START_GAME)
            assert keys.wait_for(ButtonPressed).button is Button.START_GAME
            lock_id = bets.lock()
            assert bets.wait_for(BetsLocked).lock_id == lock_id
            deal_id = deal.start_deal(7)
            before = collect_until(deal, lambda e: isinstance(e, HandDelivered) and e.index == 3)

            shuffler_port.unplug()
            bus_port.unplug()
            keypad.unplug()
            for driver in (deal, bets, keys):
                driver.wait_for(DeviceDisconnected)
            keypad.tap(Button.SEAT_2)  # the dealer goes on while the cables are out
            bus.place(2, 1)  # a late bet nobody can hear yet
            shuffler_port.replug()
            bus_port.replug()
            keypad.replug()

            after = collect_until(
                deal, lambda e: isinstance(e, CardsLeft) and e.deal_id == deal_id
            )
            late = bets.wait_for(LateBet)
            collect_until(keys, lambda e: isinstance(e, KeypadEvent) and e.number == 4)
            bets.unlock()
            collect_until(bets, lambda e: type(e).__name__ == "BetsUnlocked")
    hands = [e for e in seen if isinstance(e, HandDelivered)]
    assert [h.index for h in hands] == list(range(1, 8))  # each once, in order
    assert {h.index: h.cards for h in hands} == shuffler.dealt[deal_id].delivered
    assert max(h.index for h in before if isinstance(h, HandDelivered)) < 7 and after
    assert (late.lock_id, late.spot) == (lock_id, Spot(2, 1))
    assert [e.spot for e in seen if isinstance(e, LateBet)] == [Spot(2, 1)]
    presses = [(e.number, type(e).__name__) for e in seen if isinstance(e, KeypadEvent)]
    # START GAME before the cables went, SEAT_2 tapped while they were out: each once.
    assert presses == [
        (1, "ButtonPressed"),
        (2, "ButtonReleased"),
        (3, "ButtonPressed"),
        (4, "ButtonReleased"),
    ]
    for driver in (deal, bets, keys):
        snap = driver.diagnostics()
        assert snap.disconnects >= 1 and snap.connects >= 2, driver.name
