"""The world outside the console at the simulated table: the doubles behind the real drivers,
and what people and machines do to them (a deal's faults scripted into the shuffler, chips put
on the sensors, the keypad's buttons, a card swiped). The random dealer acts on the table only
through these and through the controller, as a person at a real table would."""

from __future__ import annotations

import random
from dataclasses import dataclass

from dealer_console.cards import DECK, Card
from dealer_console.devices.events import DeviceEvent
from dealer_console.devices.keypad import Button
from dealer_console.devices.shuffler import HandDelivered
from drivers.sim.faults import FaultPlan
from drivers.sim.hardware import SimulatedHardware


@dataclass(frozen=True)
class DealFault:
    """Faults of one deal, in the shuffler double's own terms."""

    short_hand: int | None = None
    missing_hand: int | None = None
    count_error: bool = False
    deck: tuple[Card, ...] | None = None
    """A stacked deck (the ``jackpot-hands`` scenario) in place of the seeded shuffle."""


def shuffled_deck(seed: int, deal_id: int) -> list[Card]:
    """The deck the shuffler double deals for ``deal_id`` (its own seeded shuffle)."""
    deck = list(DECK)
    random.Random(seed * 65536 + deal_id).shuffle(deck)
    return deck


class World:
    def __init__(self, seed: int, seats: tuple[int, ...], jackpot_spots: tuple[int, ...],
                 link: str, wire_faults: bool) -> None:
        self.spots = jackpot_spots
        devices = ("shuffler", "bet-sensors", "keypad") if jackpot_spots else ("shuffler",)
        plan = (FaultPlan(split=0.05, corrupt=0.02, drop=0.02, garbage=0.02, seed=seed)
                if wire_faults else None)
        self.hardware = SimulatedHardware(seed=seed, seats=seats, link=link, devices=devices,
                                          wire_faults=plan).start()
        self.hands: dict[tuple[int, int], HandDelivered] = {}
        """The hands of the deal the shuffler's driver reports now, by (deal id, index): a
        repeat is delivered to the controller again from here (the ``device-repeat`` fault).
        Earlier deals' are let go: kept, a long run grew by seven hands a round."""
        assert self.hardware.table_devices.shuffler is not None
        self.hardware.table_devices.shuffler.subscribe(self._seen)

    @property
    def has_keypad(self) -> bool:
        return self.hardware.keypad is not None

    def _seen(self, event: DeviceEvent) -> None:
        if isinstance(event, HandDelivered):
            if any(deal_id != event.deal_id for deal_id, _index in self.hands):
                self.hands.clear()
            self.hands[(event.deal_id, event.index)] = event

    def script_deal(self, fault: DealFault) -> None:
        """What the shuffler will do on its next deal (set before the console asks for it)."""
        assert self.hardware.shuffler is not None
        self.hardware.shuffler.script(
            short_hands=frozenset({fault.short_hand} if fault.short_hand else ()),
            missing_hands=frozenset({fault.missing_hand} if fault.missing_hand else ()),
            deck_count=52 if fault.count_error else 53,
            deck_order=fault.deck,
        )

    def deck_complete(self) -> None:
        """The dealer has gathered all 53 cards into the shuffler for the count."""
        assert self.hardware.shuffler is not None
        self.hardware.shuffler.script(deck_count=53)

    def chips(self, on: set[tuple[int, int]]) -> None:
        """Jackpot chips on exactly these (seat, spot) sensors."""
        bus = self.hardware.bus
        assert bus is not None
        for seat in self.hardware.seats:
            for spot in self.spots:
                (bus.place if (seat, spot) in on else bus.take)(seat, spot)

    def press(self, button: Button) -> None:
        assert self.hardware.keypad is not None
        self.hardware.keypad.tap(button)

    def swipe(self, track: str) -> None:
        assert self.hardware.keypad is not None
        self.hardware.keypad.swipe(track)

    def close(self) -> None:
        self.hardware.close()
