"""A headless table: whole rounds through the real round procedure, settlement and storage,
fed by the simulated devices behind the real drivers.

Every random choice of a round (wagers, the bank, settings, faults) comes from a generator
seeded by ``(seed, round, purpose)``, and every deal's cards from the shuffler double seeded by
``(seed, deal id)``, where the deal id is a function of the round and its deal number. So where
a run was interrupted does not matter: resumed, it makes the same choices and ends with the same
totals as an uninterrupted run. The loop is driven by the round's phase, so it can pick up a
round in any phase after a crash; a device event already applied (the shuffler resends a hand
of a deal asked for again) is recognised by its device sequence number and skipped.

Devices: ``drivers`` runs the shuffler double on a pseudo-terminal behind the real shuffler
driver and pyserial; ``inline`` makes the same device events in-process (the same seeded cards
and numbers), for quick runs.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer_console.cards import DECK, Card
from dealer_console.cli import CommandError
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    DeckChecked,
    FirstPositionDrawn,
    HandDelivered,
)
from dealer_console.round import commands as c
from dealer_console.round.jackpot import JACKPOT_KINDS, SPOT_OF_KIND
from dealer_console.round.machine import Refused, button_seat
from dealer_console.round.rules import ActionSeatMethod, Banking, RoundRules, round_rules
from dealer_console.round.seats import piles_in_deal_order, seven_piles
from dealer_console.round.state import Phase, RoundState
from dealer_console.round.table import Table
from dealer_console.setting import Setting, is_foul, make_setting
from dealer_console.storage import open_table_db
from dealer_console.storage.anchor import AnchorError, Journal, journal_for, key_path, load_key

if TYPE_CHECKING:
    from dealer_console.jackpot.config import TableJackpots
    from dealer_console.jackpot.round_hook import JackpotSystem

FAULTS = ("misdeal", "exposed", "wrong-first", "reconstruct", "foul", "device-repeat", "wire",
          "jackpot-hands")
FAULT_RATE = 0.15
"""Chance per round of each enabled fault."""
JACKPOT_HANDS_RATE = 0.3
"""Chance per round that ``jackpot-hands`` stacks the deck: real hit rates are far too small
for a short run to see a jackpot (a seven-card straight flush is 32 hands in 154 million)."""
SIM_STAFF = (("SIM-S1", "Sim Supervisor", "supervisor", "5000100000001=2912"),
             ("SIM-X1", "Sim Executive", "executive", "5000200000001=2912"),
             ("SIM-D1", "Sim Dealer", "dealer", "5000300000001=2912"))
"""Employees of the simulated table and their cards' track 2 data."""
HANDS = 7
DEVICE = "shuffler"
DEAL_TIMEOUT = 20.0
MAX_DEALS = 5


class SimError(RuntimeError):
    """The simulated table could not go on (a device stopped answering)."""


def rng_for(seed: int, round_id: int, purpose: str) -> random.Random:
    """The generator of one decision of one round: independent of what ran before."""
    return random.Random(f"{seed}/{round_id}/{purpose}")


def deal_id_of(round_id: int, deal_no: int) -> int:
    """The shuffler's deal id (1-65535) for a round's deal."""
    return ((round_id - 1) * 8 + deal_no) % 0xFFFF + 1


def device_seq(round_id: int, deal_no: int, slot: int) -> int:
    """A never-repeating number for a shuffler fact: (round, deal, what) packed."""
    return ((round_id * 8 + deal_no) * 16) + slot


# -- deals -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealFault:
    """Faults of one deal, in the shuffler double's own terms."""

    short_hand: int | None = None
    missing_hand: int | None = None
    count_error: bool = False
    deck: tuple[Card, ...] | None = None
    """A stacked deck (the ``jackpot-hands`` scenario) in place of the seeded shuffle."""


@dataclass
class DealEvents:
    """What the shuffler reported for one deal, in order."""

    number: int | None = None
    hands: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    left: int | None = None
    count_error: bool = False


class InlineShuffler:
    """The shuffler double's deal logic without a wire: the same seeded cards and number."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def deal(self, deal_id: int, fault: DealFault) -> DealEvents:
        rng = random.Random(self.seed * 65536 + deal_id)
        deck = list(DECK)
        rng.shuffle(deck)
        if fault.deck is not None:
            deck = list(fault.deck)
        out = DealEvents()
        if fault.count_error:
            out.count_error = True
            return out
        out.number = rng.randint(1, 7)
        for index in range(1, HANDS + 1):
            size = 6 if fault.short_hand == index else 7
            cards, deck = tuple(deck[:size]), deck[size:]
            if fault.missing_hand == index:
                continue
            out.hands.append((index, cards))
        out.left = len(deck)
        return out

    def count_deck(self) -> int:
        return len(DECK)

    def close(self) -> None:
        return None


class DriverShuffler:
    """The shuffler double on a pseudo-terminal, behind the real driver and pyserial."""

    def __init__(self, seed: int, wire_faults: bool) -> None:
        from drivers.backoff import Backoff
        from drivers.shuffler.device import ShufflerDriver
        from drivers.sim.faults import FaultInjector, FaultPlan
        from drivers.sim.pty import PtyServer
        from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario

        plan = (FaultPlan(split=0.05, corrupt=0.02, drop=0.02, garbage=0.02, seed=seed)
                if wire_faults else FaultPlan())
        self.double = ShufflerDouble(ShufflerScenario(seed=seed), ack_timeout=0.05)
        self.server = PtyServer(self.double, faults=FaultInjector(plan))
        self.server.start()
        self.driver = ShufflerDriver(self.server.path, ack_timeout=0.05, heartbeat=0.5,
                                     silence_timeout=5.0,
                                     backoff=Backoff(initial=0.01, maximum=0.2))
        self.driver.start()

    def deal(self, deal_id: int, fault: DealFault) -> DealEvents:
        self.double.script(
            short_hands=frozenset({fault.short_hand} if fault.short_hand else ()),
            missing_hands=frozenset({fault.missing_hand} if fault.missing_hand else ()),
            deck_count=52 if fault.count_error else 53,
            deck_order=fault.deck,
        )
        self.driver.start_deal(HANDS, deal_id)
        out = DealEvents()
        deadline = time.monotonic() + DEAL_TIMEOUT
        while True:
            event = self.driver.get_event(max(0.0, deadline - time.monotonic()))
            if event is None:
                raise SimError(f"the shuffler stopped answering during deal {deal_id}")
            if getattr(event, "deal_id", deal_id) != deal_id:
                continue
            if isinstance(event, FirstPositionDrawn):
                out.number = event.number
            elif isinstance(event, HandDelivered):
                out.hands.append((event.index, event.cards))
            elif isinstance(event, CardsLeft):
                out.left = event.count
                return out
            elif isinstance(event, CardCountError):
                out.count_error = True
                return out

    def count_deck(self) -> int:
        self.double.script(deck_count=53)
        self.driver.count_deck()
        deadline = time.monotonic() + DEAL_TIMEOUT
        while True:
            event = self.driver.get_event(max(0.0, deadline - time.monotonic()))
            if event is None:
                raise SimError("the shuffler did not count the deck")
            if isinstance(event, DeckChecked) and event.deal_id == 0:
                return event.counted

    def close(self) -> None:
        self.driver.stop()
        self.server.stop()


Shuffler = InlineShuffler | DriverShuffler


class JackpotDevices:
    """The jackpot's bet sensors (a bus double on a pseudo-terminal behind the real bet-sensor
    driver) and the keypad (a simulated keypad on the virtual USB bus behind the real keypad
    driver and pyusb): chips are placed on the sensors, START GAME on the keypad locks them and
    the locked spots are the round's jackpot wagers; END GAME releases them."""

    def __init__(self, seats: tuple[int, ...], spots: tuple[int, ...] = (1,)) -> None:
        from dealer_console.devices.bet_sensors import SensorNodeChanged
        from dealer_console.devices.events import DeviceConnected
        from drivers.backoff import Backoff
        from drivers.bet_sensors.device import BetSensorDriver
        from drivers.keypad.device import KeypadDriver
        from drivers.sim.bet_sensors import BetSensorBusDouble
        from drivers.sim.keypad import SimKeypad
        from drivers.sim.pty import PtyServer
        from drivers.sim.usb_backend import VirtualUsbBackend

        self.seats = seats
        self.spots = spots  # the sensor spots that carry a jackpot game
        self.locked: int | None = None
        self.bus = BetSensorBusDouble(list(seats))
        self.server = PtyServer(self.bus)
        self.server.start()
        # Patient replies: on a loaded machine a node that misses 3 x 30 ms would be "away at
        # the lock" and its chip a late bet, so a seeded run's wagers would depend on timing.
        # Nodes going away are the driver tests' business, not the simulated table's.
        self.sensors = BetSensorDriver(self.server.path, seats=seats, reply_timeout=0.5,
                                       tries=5, offline_poll_interval=0.1, silence_timeout=5.0,
                                       backoff=Backoff(initial=0.01, maximum=0.2))
        self.keypad = SimKeypad(retransmit_s=0.02)
        self.keypad_driver = KeypadDriver(VirtualUsbBackend(self.keypad), poll_interval=0.005,
                                          backoff=Backoff(initial=0.005, maximum=0.05),
                                          resend_after=0.03)
        self.sensors.start()
        self.keypad_driver.start()
        try:
            self.keypad_driver.wait_for(DeviceConnected, DEAL_TIMEOUT)
            online: set[int] = set()
            while online != set(seats):
                node = self.sensors.wait_for(SensorNodeChanged, DEAL_TIMEOUT)
                if node.online:
                    online.add(node.seat)
        except TimeoutError as exc:
            self.close()
            raise SimError(str(exc)) from None

    def _press(self, button: object) -> None:
        from dealer_console.devices.keypad import Button, ButtonPressed

        assert isinstance(button, Button)
        self.keypad.tap(button)
        deadline = time.monotonic() + DEAL_TIMEOUT
        while True:
            event = self.keypad_driver.wait_for(ButtonPressed, deadline - time.monotonic())
            if event.button is button:
                return

    def press(self, button: object) -> None:
        """A dealer's or supervisor's button, through the keypad's USB driver."""
        try:
            self._press(button)
        except TimeoutError as exc:
            raise SimError(str(exc)) from None

    def swipe(self, track: str) -> str:
        """An employee card through the keypad's reader: the track data the driver read."""
        from dealer_console.devices.keypad import CardSwiped

        self.keypad.swipe(track)
        try:
            return self.keypad_driver.wait_for(CardSwiped, DEAL_TIMEOUT).track
        except TimeoutError as exc:
            raise SimError(str(exc)) from None

    def start_game(self, chips: set[tuple[int, int]]) -> set[tuple[int, int]]:
        """Chips on these (seat, spot) sensors, START GAME pressed: the ones locked as
        wagered."""
        from dealer_console.devices.bet_sensors import BetsLocked
        from dealer_console.devices.keypad import Button

        for seat in self.seats:
            for spot in self.spots:
                (self.bus.place if (seat, spot) in chips else self.bus.take)(seat, spot)
        try:
            self._press(Button.START_GAME)
            lock_id = self.locked = self.sensors.lock()
            while True:
                locked = self.sensors.wait_for(BetsLocked, DEAL_TIMEOUT)
                if locked.lock_id == lock_id:
                    return {(s.seat, s.spot) for s in locked.wagered if s.spot in self.spots}
        except TimeoutError as exc:
            raise SimError(str(exc)) from None

    def end_game(self) -> None:
        from dealer_console.devices.bet_sensors import BetsUnlocked
        from dealer_console.devices.keypad import Button

        try:
            self._press(Button.END_GAME)
            if self.locked is not None:  # not so after a restart: this run never locked
                self.sensors.unlock()
                self.sensors.wait_for(BetsUnlocked, DEAL_TIMEOUT)
                self.locked = None
        except TimeoutError as exc:
            raise SimError(str(exc)) from None
        for seat in self.seats:
            for spot in self.spots:
                self.bus.take(seat, spot)

    def close(self) -> None:
        self.keypad_driver.stop()
        self.sensors.stop()
        self.server.stop()


class InlineJackpotDevices:
    """The sensors and keypad without a wire: every chip placed is sensed, every button and
    swipe arrives as made (for quick runs; the same choices as :class:`JackpotDevices`)."""

    def start_game(self, chips: set[tuple[int, int]]) -> set[tuple[int, int]]:
        return set(chips)

    def press(self, button: object) -> None:
        return None

    def swipe(self, track: str) -> str:
        return track

    def end_game(self) -> None:
        return None

    def close(self) -> None:
        return None


Devices = JackpotDevices | InlineJackpotDevices


def install_sim_jackpot(db: Any, setup: TableJackpots | None) -> None:
    """The profile's jackpot games (installed on first use, else checked against the
    database) and the simulated table's staff."""
    from dealer_console.employees import registry
    from dealer_console.employees.cardhash import KdfParams
    from dealer_console.employees.registry import Role
    from dealer_console.jackpot.setup import JackpotSetupMismatch, install_from_profile

    try:
        install_from_profile(db, setup, actor="simulate")
    except JackpotSetupMismatch as exc:
        raise CommandError(str(exc)) from None
    known = {e.employee_id for e in registry.list_employees(db)}
    with db.atomic():
        for emp_id, name, role, track in SIM_STAFF:
            if emp_id not in known:
                # a cheaper scrypt than a real table's: these cards are public test data
                registry.add(db, emp_id, name, Role(role), track, actor="simulate",
                             kdf=KdfParams(n=2**10))


def _card_text(rank: str, suit: str) -> str:
    return rank + suit


RANKS = "23456789TJQKA"


def _jackpot_template(rng: random.Random) -> list[str]:
    """The cards of one qualifying hand (the rest of its seven are dealt at random)."""
    suit = rng.choice("cdhs")
    kind = rng.choice(("five_aces", "seven_natural", "seven_wild", "royal", "straight_flush",
                       "four", "four", "full_house"))
    if kind == "five_aces":
        return ["As", "Ad", "Ah", "Ac", "JK"]
    if kind in ("seven_natural", "seven_wild"):
        start = rng.randint(0, 6)
        ranks = RANKS[start:start + 7]
        cards = [_card_text(r, suit) for r in ranks]
        return cards if kind == "seven_natural" else [*cards[:-1], "JK"]
    if kind == "royal":
        return [_card_text(r, suit) for r in "TJQKA"]
    if kind == "straight_flush":
        start = rng.randint(0, 7)
        return [_card_text(r, suit) for r in RANKS[start:start + 5]]
    rank = rng.choice(RANKS[:-1])
    four = [_card_text(rank, s) for s in "cdhs"]
    if kind == "four":
        return four
    pair = rng.choice([r for r in RANKS if r != rank])
    return four[:3] + [_card_text(pair, s) for s in rng.sample("cdhs", 2)]


def stacked_deck(rng: random.Random, shuffled: list[Card]) -> tuple[Card, ...]:
    """The ``jackpot-hands`` scenario: one to three deliveries hold a qualifying hand; the
    other cards keep their shuffled order."""
    from dealer_console.cards import parse_cards

    hands: dict[int, list[Card]] = {}
    used: set[Card] = set()
    for index in rng.sample(range(1, HANDS + 1), rng.randint(1, 3)):
        for _attempt in range(6):
            cards = list(parse_cards(" ".join(_jackpot_template(rng))))
            if not used.intersection(cards):
                used.update(cards)
                hands[index] = cards
                break
    rest = [card for card in shuffled if card not in used]
    out: list[Card] = []
    for index in range(1, HANDS + 1):
        hand = hands.get(index, [])
        fill = 7 - len(hand)
        out += hand + rest[:fill]
        rest = rest[fill:]
    return tuple(out + rest)


# -- the player's and dealer's choices ---------------------------------------------------------


def _amount(rng: random.Random, minimum: int, maximum: int, step: int, top: int) -> int:
    high = min(maximum, max(minimum, top))
    steps = (high - minimum) // step
    return minimum + step * rng.randint(0, steps)


def planned_wagers(rules: RoundRules, state: RoundState, seed: int) -> list[tuple[int, str, int]]:
    """Random but legal wagers of the round: base first, then bonuses, seat by seat."""
    rng = rng_for(seed, state.round_id, "wagers")
    out: list[tuple[int, str, int]] = []
    base = rules.limit("base")
    assert base is not None
    for seat in rules.player_seats:
        banker = state.banker_kind == "player" and seat == state.banker_seat
        plays = rng.random() < 0.8
        amount = _amount(rng, base.minimum, base.maximum, base.increment, base.minimum * 10)
        fortune_roll, ace_roll, jackpot_roll = rng.random(), rng.random(), rng.random()
        if banker:
            fortune = rules.limit("fortune")
            if (fortune and rules.banking is Banking.HOUSE_OR_PLAYER_BANKER
                    and fortune_roll < 0.3):
                out.append((seat, "fortune", fortune.minimum))
            continue
        if not plays:
            continue
        out.append((seat, "base", amount))
        side_roll = rng.random()
        if "backline" in rules.wager_kinds and side_roll < 0.25:
            limit = rules.limit("backline")
            assert limit is not None
            out.append((seat, f"backline:bettor {seat}",
                        _amount(rng, limit.minimum, limit.maximum, limit.increment,
                                limit.minimum * 4)))
        if "tips" in rules.wager_kinds and side_roll < 0.25:
            limit = rules.limit("tips")
            assert limit is not None
            out.append((seat, "tips", limit.minimum))
        for kind, roll, p in (("fortune", fortune_roll, 0.5), ("ace_high", ace_roll, 0.3)):
            limit = rules.limit(kind)
            if kind in rules.wager_kinds and limit is not None and roll < p:
                out.append((seat, kind, _amount(rng, limit.minimum, limit.maximum,
                                                limit.increment, 1000)))
        for kind, spot in SPOT_OF_KIND.items():
            fixed = rules.jackpot_wager(kind)
            if fixed is None or kind not in rules.wager_kinds:
                continue
            # a second game draws its own number, so a one-game table's rounds stay as they were
            roll = jackpot_roll if spot == 1 else rng_for(
                seed, state.round_id, f"jackpot-{spot}/{seat}").random()
            if roll < 0.5:
                out.append((seat, kind, fixed))
    if not any(k == "base" for _s, k, _a in out):
        seat = next(s for s in rules.player_seats
                    if not (state.banker_kind == "player" and s == state.banker_seat))
        out.insert(0, (seat, "base", base.minimum))
    if state.banker_kind == "player" and rules.house_hand:
        house = rules.limit("house_wager")
        assert house is not None
        out.append((0, "house_wager", _amount(rng, house.minimum, house.maximum,
                                              house.increment, house.minimum * 10)))
    return out


def random_setting(cards: tuple[Card, ...], rng: random.Random, allow_foul: bool
                   ) -> Setting | None:
    """A player's own setting: None asks for the House Way."""
    if rng.random() < 0.6:
        return None
    pairs = list(combinations(cards, 2))
    rng.shuffle(pairs)
    for pair in pairs:
        setting = make_setting(pair, [x for x in cards if x not in pair])
        if is_foul(setting) == allow_foul:
            return setting
    return None


# -- the loop ----------------------------------------------------------------------------------


@dataclass
class Counters:
    commands: int = 0
    refused: int = 0
    repeats_ignored: int = 0
    faults: Counter[str] = field(default_factory=Counter)


class TableSim:
    def __init__(self, table: Table, shuffler: Shuffler, seed: int, faults: frozenset[str],
                 jackpot: Devices | None = None, system: JackpotSystem | None = None,
                 hold_before_end: float = 0.0, holds: Mapping[Phase, float] | None = None
                 ) -> None:
        self.table = table
        self.holds = dict(holds or {})
        self.jackpot = jackpot
        self.system = system
        self.hold_before_end = hold_before_end
        self.rules = table.rules
        self.shuffler = shuffler
        self.seed = seed
        self.faults = faults
        self.counters = Counters()
        self._deals: dict[int, DealEvents] = {}
        self.journal: Journal | None = None
        """Where a checkpoint of the chain's head goes after each round (docs/storage.md)."""

    @property
    def state(self) -> RoundState:
        return self.table.state

    def _do(self, cmd: c.Command, seq: int | None = None, device: str = DEVICE) -> bool:
        try:
            if seq is None:
                self.table.handle(cmd)
            elif not self.table.handle(cmd, device=device, device_seq=seq):
                self.counters.repeats_ignored += 1
        except Refused:
            self.counters.refused += 1
            return False
        self.counters.commands += 1
        return True

    def _fault(self, name: str, purpose: str | None = None) -> bool:
        if name not in self.faults:
            return False
        hit = rng_for(self.seed, self.state.round_id, f"fault/{purpose or name}").random()
        if hit < (JACKPOT_HANDS_RATE if name == "jackpot-hands" else FAULT_RATE):
            self.counters.faults[name] += 1
            return True
        return False

    def finished_rounds(self) -> int:
        row = self.table.db.execute(
            "SELECT COUNT(*) FROM rounds WHERE status IN ('complete', 'voided')").fetchone()
        return int(row[0])

    def run(self, rounds: int) -> None:
        while self.finished_rounds() < rounds:
            playing = self.state.round_id
            self.step()
            if self.journal is not None and self.state.round_id != playing:
                self.journal.write(self.table.db)  # the round's last transaction is committed

    def step(self) -> None:
        """Do the next thing the current phase needs."""
        if self.state.phase in self.holds:
            time.sleep(self.holds[self.state.phase])
        handler = {
            Phase.BANKER: self._banker,
            Phase.BETTING: self._betting,
            Phase.ACTION: self._action,
            Phase.DEALING: self._dealing,
            Phase.DEAL_CHECK: self._deal_check,
            Phase.MISDEAL: self._misdeal,
            Phase.BANKER_SET: self._banker_set,
            Phase.PLAYERS_SET: self._players_set,
            Phase.SETTLEMENT: self._settlement,
            Phase.END: self._end,
        }[self.state.phase]
        handler()

    def _banker(self) -> None:
        st = self.state
        rng = rng_for(self.seed, st.round_id, f"bank/{st.offer_seat}")
        catfish = self.rules.banking is Banking.HOUSE_OR_PLAYER_BANKER
        accept = rng.random() < (0.3 if catfish else 0.9)
        limit = self.rules.banker_limit
        wager = (_amount(rng, limit.minimum, limit.maximum, limit.increment, 200_000)
                 if limit is not None else 2_000_000)
        if not accept and self._do(c.DeclineBank(st.offer_seat)):
            return
        self._do(c.AcceptBank(st.offer_seat, wager))

    def _betting(self) -> None:
        planned = planned_wagers(self.rules, self.state, self.seed)
        for seat, kind, cents in planned:
            if kind not in SPOT_OF_KIND and (seat, kind) not in self.state.wagers:
                self._do(c.PlaceWager(seat, kind, cents))
        chips = {(seat, SPOT_OF_KIND[kind]): cents for seat, kind, cents in planned
                 if kind in SPOT_OF_KIND}
        if self.jackpot is not None:
            # The keypad's START GAME freezes the sensors; whatever chips they hold then are
            # the jackpot wagers.
            locked = self.jackpot.start_game(set(chips))
            chips = {key: cents for key, cents in chips.items() if key in locked}
        for (seat, spot), cents in sorted(chips.items()):
            if (seat, JACKPOT_KINDS[spot]) not in self.state.wagers:
                self._do(c.PlaceWager(seat, JACKPOT_KINDS[spot], cents))
        if not self._do(c.StartGame()):
            raise SimError(f"round {self.state.round_id}: START GAME refused")

    def _deal_events(self) -> DealEvents:
        st = self.state
        deal_id = deal_id_of(st.round_id, st.deal_no)
        if deal_id not in self._deals:
            fault = DealFault()
            if st.deal_no == 0 and self._fault("misdeal"):
                rng = rng_for(self.seed, st.round_id, "misdeal-kind")
                kind = rng.choice(("short", "missing", "count"))
                index = rng.randint(2, HANDS)
                fault = DealFault(short_hand=index if kind == "short" else None,
                                  missing_hand=index if kind == "missing" else None,
                                  count_error=kind == "count")
            if self.system is not None and self._fault("jackpot-hands", f"stack/{st.deal_no}"):
                shuffled = list(DECK)
                random.Random(self.seed * 65536 + deal_id).shuffle(shuffled)
                stack_rng = rng_for(self.seed, st.round_id, f"jackpot-hands/{st.deal_no}")
                fault = replace(fault, deck=stacked_deck(stack_rng, shuffled))
            self._deals = {deal_id: self.shuffler.deal(deal_id, fault)}
        return self._deals[deal_id]

    def _action(self) -> None:
        st = self.state
        method = self.rules.action_method
        rng = rng_for(self.seed, st.round_id, f"action/{st.deal_no}")
        if method is ActionSeatMethod.HIGH_CARD:
            button = button_seat(st, self.rules)
            if button is not None:
                self._do(c.SetActionSeat(button))  # the button moves on by itself
            else:
                seats = [s for s in self.rules.seats if s != st.banker_seat]
                self._do(c.SetActionSeat(rng.choice(seats), restart=True))
        elif method is ActionSeatMethod.DICE:
            self._do(c.SetActionNumber(sum(rng.randint(1, 6) for _ in range(3))))
        elif method is ActionSeatMethod.RNG:
            self._do(c.SetActionNumber(rng.randint(1, 21)))
        else:
            deal = self._deal_events()
            seq = device_seq(st.round_id, st.deal_no, 0)
            if deal.count_error:
                self._do(c.CardCountError("the shuffler counted 52 cards"),
                         device_seq(st.round_id, st.deal_no, 10))
            else:
                assert deal.number is not None
                self._do(c.SetActionNumber(deal.number), seq)

    def _dealing(self) -> None:
        st = self.state
        if self.rules.deal_method.value == "hand":
            self._hand_dealt()
            return
        deal = self._deal_events()
        if deal.count_error:
            self._do(c.CardCountError("the shuffler counted 52 cards"),
                     device_seq(st.round_id, st.deal_no, 10))
            return
        first = st.deal_no == 0  # faults hit a round's first deal; a redeal goes cleanly
        wrong = first and not st.delivered and self._fault("wrong-first")
        exposed_at = (rng_for(self.seed, st.round_id, "exposed-at").randint(1, HANDS - 1)
                      if first and self._fault("exposed") else None)
        repeat = self._fault("device-repeat")
        for index, cards in deal.hands:
            if self.state.phase is not Phase.DEALING:
                return
            order = self.state.order
            start = self.state.wrong_start if self.state.wrong_start is not None else order[0]
            seat: int | None = None
            if index != len(self.state.delivered) + 1:
                seat = _order_after(self.rules, start, index - 1)  # a delivery was skipped
            elif wrong and index == 1:
                seat = order[2]
            self._do(c.DealHand(cards, seat), device_seq(st.round_id, st.deal_no, index))
            if repeat and index == 3:
                self._do(c.DealHand(cards, seat), device_seq(st.round_id, st.deal_no, index))
            if exposed_at == index:
                # A dealer's entry carries its own number too, so a resumed run cannot enter
                # the same exposed cards twice.
                count = rng_for(self.seed, st.round_id, "exposed-count").randint(1, 4)
                self._do(c.CardsExposed(count), device_seq(st.round_id, st.deal_no, 12),
                         device="dealer")
        if self.state.phase is Phase.DEALING:
            # the machine delivered fewer hands than positions: a hand is missing
            self._do(c.DeclareMisdeal("position_missed", "the shuffler delivered too few hands"))

    def _hand_dealt(self) -> None:
        """Seven piles dealt by hand (California): the player-dealer picks the first pile."""
        st = self.state
        rng = rng_for(self.seed, st.round_id, f"hand-deal/{st.deal_no}")
        deck = list(DECK)
        rng.shuffle(deck)
        piles = piles_in_deal_order(seven_piles(deck[:49]), rng.randrange(HANDS))
        for pile in piles[len(st.delivered):]:
            self._do(c.DealHand(tuple(pile)))
        self._deals = {-1: DealEvents(left=len(deck) - 49)}

    def _deal_check(self) -> None:
        st = self.state
        if st.wrong_start is not None:
            self._do(c.CorrectFirstHand())
            return
        if self.rules.deal_method.value == "hand":
            self._do(c.RemainingCards(len(DECK) - 49))
            return
        deal = self._deal_events()
        assert deal.left is not None
        self._do(c.RemainingCards(deal.left), device_seq(st.round_id, st.deal_no, 9))

    def _misdeal(self) -> None:
        st = self.state
        if st.deal_no >= MAX_DEALS:
            raise SimError(f"round {st.round_id}: {MAX_DEALS} misdeals in a row")
        if st.deck_count_due:
            self._do(c.DeckCounted(self.shuffler.count_deck()),
                     device_seq(st.round_id, st.deal_no, 11))
            return
        self._do(c.Redeal())

    def _banker_set(self) -> None:
        st = self.state
        rng = rng_for(self.seed, st.round_id, "banker-set")
        setting = None
        if st.banker_kind == "player":
            setting = random_setting(st.hands[st.banker_seat], rng, allow_foul=False)
        self._do(c.SetBankerHand(setting))

    def _players_set(self) -> None:
        st = self.state
        left = [s for s in st.seats_with_base() if s != st.banker_seat and s not in st.settings]
        again = []
        if self.rules.foul.value == "reset_once_then_dead":
            # Catfish Bend's second chance: a hand reset after a first foul may be set again.
            again = [s for s in sorted(st.settings) if st.set_how.get(s) == "foul_reset_house_way"
                     and st.fouls.get(s) == 1 and self._fault("foul", f"foul/{s}/1")]
        seat = again[0] if again else left[0]
        attempt = st.fouls.get(seat, 0)
        rng = rng_for(self.seed, st.round_id, f"set/{seat}/{attempt}")
        foul = seat != 0 and self._fault("foul", f"foul/{seat}/{attempt}")
        setting = None if seat == 0 else random_setting(st.hands[seat], rng, allow_foul=foul)
        self._do(c.SetPlayerHand(seat, setting))

    def _settlement(self) -> None:
        st = self.state
        if not st.settled_seats and self._fault("reconstruct"):
            cards = st.hands[st.banker_seat]
            rng = rng_for(self.seed, st.round_id, "reconstruct")
            setting = random_setting(cards, rng, allow_foul=False)
            if setting is not None and setting != st.banker_setting:
                self._do(c.ReconstructBankerHand(setting, "supervisor SIM-1"))
        self._do(c.SettleNext())

    def _end(self) -> None:
        if self.system is not None and self._jackpot_hits():
            time.sleep(self.hold_before_end)
        if self.jackpot is not None:
            self.jackpot.end_game()
        self._do(c.EndGame())

    def _jackpot_hits(self) -> int:
        """The dealer's keypad and the supervisor's swipes for every marked hit: the seat
        button, sometimes a wrong hand button pressed and pressed again to clear it, then the
        right one; CONFIRM and a card (sometimes first a card that may not confirm it, which is
        refused and logged). Returns how many hits were confirmed."""
        from dealer_console.devices.keypad import Button
        from dealer_console.employees.authorize import Refused as SwipeRefused

        assert self.system is not None
        devices = self.jackpot or InlineJackpotDevices()
        cards = {role: track for _id, _name, role, track in SIM_STAFF}
        confirmed = 0
        while True:
            pending = self.system.marks(self.state)
            if not pending:
                return confirmed
            first = pending[0]
            seat, spot = first.mark.seat, first.spot
            rng = rng_for(self.seed, self.state.round_id, f"jackpot/{spot}/{seat}")
            devices.press(Button.for_seat(seat))
            self.system.select_seat(self.state, spot, seat)
            paytable = self.system.current(self.state)
            assert paytable is not None
            lines = len(paytable.game(spot).paytable.lines)
            right = paytable.game(spot).paytable.number_of(first.mark.line)
            if rng.random() < 0.3 and lines > 1:
                wrong = rng.choice([n for n in range(1, lines + 1) if n != right])
                for number in (wrong, wrong, right):  # set, clear (pressed again), correct
                    devices.press(Button.for_hand_line(number))
                    self.system.press_hand(self.state, spot, number)
            devices.press(Button.CONFIRM)
            if rng.random() < 0.2:
                try:
                    self.system.confirm(self.table, devices.swipe(cards["dealer"]))
                    raise SimError("a dealer's card confirmed a jackpot hit")
                except SwipeRefused:
                    self.counters.refused += 1
            track = devices.swipe(cards[self.system.required(first)])
            self.system.confirm(self.table, track)
            confirmed += 1


def _order_after(rules: RoundRules, start: int, steps: int) -> int:
    from dealer_console.round.seats import order_from

    return order_from(rules, start)[steps % HANDS]


# -- the summary -------------------------------------------------------------------------------


def summary(table: Table) -> dict[str, Any]:
    """What the run produced, from the database alone (so a resumed run reports the whole)."""
    db = table.db

    def one(sql: str) -> int:
        row = db.execute(sql).fetchone()
        return int(row[0] or 0)

    misdeals = Counter({str(r): int(n) for r, n in db.execute(
        "SELECT reason, COUNT(*) FROM misdeals GROUP BY reason")})
    interventions = Counter({str(k): int(n) for k, n in db.execute(
        "SELECT kind, COUNT(*) FROM interventions GROUP BY kind")})
    return {
        "profile": table.rules.name,
        "rounds_complete": one("SELECT COUNT(*) FROM rounds WHERE status = 'complete'"),
        "rounds_voided": one("SELECT COUNT(*) FROM rounds WHERE status = 'voided'"),
        "wagers": one("SELECT COUNT(*) FROM wagers w JOIN rounds r USING (round_id)"
                      " WHERE r.status = 'complete'"),
        "wagered_cents": one("SELECT SUM(amount_cents) FROM wagers w JOIN rounds r"
                             " USING (round_id) WHERE r.status = 'complete'"),
        "fees_cents": one("SELECT SUM(amount_cents) FROM fees"),
        "returned_cents": one("SELECT SUM(returned_cents) FROM settlement_lines"),
        "players_net_cents": one("SELECT SUM(returned_cents - staked_cents)"
                                 " FROM settlement_lines"),
        "banker_net_cents": one("SELECT SUM(banker_delta_cents) FROM settlement_lines"),
        "house_net_cents": one("SELECT SUM(house_delta_cents) FROM settlement_lines"),
        "settlement_lines": one("SELECT COUNT(*) FROM settlement_lines"),
        "misdeals": dict(sorted(misdeals.items())),
        "jackpot_hits": one("SELECT COUNT(*) FROM jackpot_hits"),
        "jackpot": jackpot_summary(db),
        "interventions": dict(sorted(interventions.items())),
        "events": one("SELECT COUNT(*) FROM events"),
    }


def jackpot_summary(db: Any) -> dict[str, Any]:
    """Confirmed awards by line and the meters as the monitor shows them (whole cents)."""
    from dealer_console.jackpot.meters import MICRO

    def total(column: str) -> int:
        row = db.execute(f"SELECT COALESCE(SUM({column}), 0) FROM jackpot_hits").fetchone()
        return int(row[0])

    return {
        "awarded_cents": total("amount_cents"),
        "from_meter_cents": total("from_meter_cents"),
        "from_tray_cents": total("from_tray_cents"),
        "by_line": {f"{spot}/{label}": int(n) for spot, label, n in db.execute(
            "SELECT spot, line_label, COUNT(*) FROM jackpot_hits GROUP BY spot, line_label"
            " ORDER BY spot, line_label")},
        "wagers": int(db.execute("SELECT COUNT(*) FROM jackpot_wagers").fetchone()[0]),
        "meters": {f"{spot}/{level}": int(meter) // MICRO for spot, level, meter in db.execute(
            "SELECT spot, level, meter_micro FROM jackpot_levels ORDER BY spot, position")},
        "reserves": {f"{spot}/{level}": int(r) // MICRO for spot, level, r in db.execute(
            "SELECT spot, level, reserve_micro FROM jackpot_levels ORDER BY spot, position")},
    }


def format_summary(s: dict[str, Any], timing: dict[str, float]) -> str:
    from dealer_console.money import format_cents

    lines = [
        f"profile            {s['profile']}",
        f"rounds             {s['rounds_complete']} complete, {s['rounds_voided']} voided",
        f"wagers             {s['wagers']} totalling {format_cents(s['wagered_cents'])}",
        f"fees / rake        {format_cents(s['fees_cents'])}",
        f"returned to players {format_cents(s['returned_cents'])}",
        f"players net        {format_cents(s['players_net_cents'], sign=True)}",
        f"banker net         {format_cents(s['banker_net_cents'], sign=True)}",
        f"house net          {format_cents(s['house_net_cents'], sign=True)}",
        f"misdeals           {sum(s['misdeals'].values())} {s['misdeals'] or ''}",
        f"jackpot hits       {s['jackpot_hits']} confirmed, "
        f"{format_cents(s['jackpot']['awarded_cents'])} awarded "
        f"({format_cents(s['jackpot']['from_meter_cents'])} off the meters, "
        f"{format_cents(s['jackpot']['from_tray_cents'])} from the tray)",
        *(f"jackpot meter      {name} {format_cents(cents)}"
          for name, cents in s["jackpot"]["meters"].items()),
        f"interventions      {s['interventions'] or 'none'}",
        f"events logged      {s['events']}",
    ]
    if timing:
        lines.append(f"this run           {timing['rounds']:.0f} rounds in {timing['seconds']:.2f}"
                     f" s ({timing['rounds_per_second']:.1f} rounds/s)")
    return "\n".join(lines)


def parse_holds(texts: Iterable[str]) -> dict[Phase, float]:
    """``--hold PHASE=SECONDS`` options as a phase to its pause."""
    phases = {p.value: p for p in Phase if p not in (Phase.COMPLETE, Phase.VOIDED)}
    holds: dict[Phase, float] = {}
    for text in texts:
        name, sep, seconds = text.partition("=")
        if name.strip() not in phases or not sep:
            raise CommandError(f"--hold {text!r}: write PHASE=SECONDS with PHASE one of "
                               f"{', '.join(phases)}")
        try:
            pause = float(seconds)
        except ValueError:
            pause = -1.0
        if not 0 <= pause <= 3600:
            raise CommandError(f"--hold {text!r}: SECONDS must be a number from 0 to 3600")
        holds[phases[name.strip()]] = pause
    return holds


def parse_faults(text: str) -> frozenset[str]:
    names = {x.strip() for x in text.split(",") if x.strip()}
    if "all" in names:
        return frozenset(FAULTS)
    unknown = names - set(FAULTS)
    if unknown:
        raise CommandError(f"--faults: unknown {', '.join(sorted(unknown))}; known: "
                           f"{', '.join(FAULTS)}, all")
    return frozenset(names)


@contextmanager
def open_sim(db_path: Path, profile: str, seed: int, devices: str, faults: frozenset[str],
             resume: bool, deal: str | None = None, hold_before_end: float = 0.0,
             holds: Mapping[Phase, float] | None = None) -> Iterator[TableSim]:
    """Yield a ready simulator; closes the devices and database afterwards."""
    from dealer_console.profiles.loader import find_profile
    from dealer_console.profiles.schema import ConfigError

    if db_path.exists() and not resume:
        raise CommandError(f"{db_path} exists: pass --resume to continue it, or a new --db")
    if resume and not db_path.exists():
        raise CommandError(f"{db_path}: nothing to resume")
    try:
        prof = find_profile(profile)
    except (KeyError, ConfigError) as exc:
        raise CommandError(str(exc)) from None
    if deal is None and any(m.value == "shuffler" for m in prof.deal_methods):
        deal = "shuffler"
    try:
        rules = round_rules(prof, None, deal)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    from dealer_console.jackpot.round_hook import JackpotSystem

    db = open_table_db(db_path)
    _check_meta(db, profile, seed, faults, devices)
    system = None
    if prof.jackpot is not None:
        install_sim_jackpot(db, prof.jackpots)
        system = JackpotSystem(db)
    table = Table.open(db, rules, jackpot=system)
    shuffler: Shuffler = (DriverShuffler(seed, "wire" in faults)
                          if devices == "drivers" else InlineShuffler(seed))
    jackpot: Devices | None = None
    try:
        if prof.jackpot is not None:
            spots = tuple(g.spot for g in prof.jackpots.games) if prof.jackpots else (1,)
            jackpot = (JackpotDevices(rules.player_seats, spots) if devices == "drivers"
                       else InlineJackpotDevices())
        yield TableSim(table, shuffler, seed, faults, jackpot, system, hold_before_end, holds)
    finally:
        if jackpot is not None:
            jackpot.close()
        shuffler.close()
        db.close()


def _check_meta(db: Any, profile: str, seed: int, faults: frozenset[str], devices: str) -> None:
    """A resumed run must use the settings it began with, or its totals would mean nothing."""
    db.execute("CREATE TABLE IF NOT EXISTS sim_runs (key TEXT PRIMARY KEY, value TEXT)")
    wanted = {"profile": profile, "seed": str(seed), "faults": ",".join(sorted(faults))}
    stored = {str(k): str(v) for k, v in db.execute("SELECT key, value FROM sim_runs")}
    for key, value in wanted.items():
        if key in stored and stored[key] != value:
            raise CommandError(f"this database was simulated with --{key} {stored[key]!r}, "
                               f"not {value!r}")
    with db.atomic():
        for key, value in wanted.items():
            db.execute("INSERT OR IGNORE INTO sim_runs (key, value) VALUES (?, ?)", [key, value])


def sim_journal(db_path: Path, key_option: str | None) -> Journal:
    """The checkpoint journal beside the database, with the audit key when one is given."""
    path = key_path(key_option)
    try:
        key = load_key(path) if path is not None else None
    except AnchorError as exc:
        raise CommandError(str(exc)) from None
    return Journal(journal_for(db_path), key)


def run_simulate(args: argparse.Namespace) -> int:
    if args.rounds < 1:
        raise CommandError(f"--rounds must be 1 or more, not {args.rounds}")
    faults = parse_faults(args.faults)
    holds = parse_holds(args.hold)
    if args.hold_before_end < 0:
        raise CommandError(f"--hold-before-end must be 0 or more, not {args.hold_before_end}")
    journal = sim_journal(args.db, args.audit_key)
    with open_sim(args.db, args.profile, args.seed, args.devices, faults, args.resume,
                  args.deal, args.hold_before_end, holds) as sim:
        sim.journal = journal
        before = sim.finished_rounds()
        started = time.perf_counter()
        try:
            sim.run(args.rounds)
        except SimError as exc:
            raise CommandError(str(exc), 1) from None
        seconds = time.perf_counter() - started
        played = sim.finished_rounds() - before
        result = summary(sim.table)
    timing = {"rounds": float(played), "seconds": seconds,
              "rounds_per_second": played / seconds if seconds > 0 else 0.0}
    if args.json:
        print(json.dumps({"summary": result, "timing": timing}, indent=2))
    else:
        print(format_summary(result, timing))
    return 0
