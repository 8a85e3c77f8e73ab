"""A simulated shuffler speaking docs/protocols/shuffler.md.

Scriptable through :class:`ShufflerScenario` (the deck count it finds, the random number,
hands it misses or delivers short, a jam after a given hand, the pace of the hands) and by
calls (open the door, jam, power-cycle). The cards come from a seeded shuffle per deal, and
everything the double sent is kept in :attr:`ShufflerDouble.dealt`, so a test compares the
driver's events with what really went out.
"""

from __future__ import annotations

import collections
import random
import threading
from dataclasses import dataclass, field, replace

from dealer_console.cards import DECK, Card
from dealer_console.devices.shuffler import DECK_SIZE, HAND_SIZE, ShufflerState
from drivers.arq import StopAndWait
from drivers.shuffler import framer as f

FIRMWARE = "SIM-3.8.084"
SERIAL_NUMBER = "SIM-SHUF-0001"
DEALS_KEPT = 64
"""Deals the double keeps for a test to compare, far more than the machine remembers."""
MESSAGES_KEPT = 1_000
"""The console's messages the double keeps for a test to look at."""


@dataclass(frozen=True)
class ShufflerScenario:
    seed: int = 1
    deck_count: int = DECK_SIZE
    """Cards the machine finds when it checks the deck; not 53 is a card-count error."""
    random_number: int | None = None
    """The number drawn for the first position; None draws 1-7 from the seed."""
    missing_hands: frozenset[int] = frozenset()
    """Delivery indexes the machine skips (a missed position)."""
    short_hands: frozenset[int] = frozenset()
    """Delivery indexes delivered with six cards."""
    jam_after: int | None = None
    """Jam after delivering this hand: the rest of the deal never comes."""
    hand_interval: float = 0.0
    """Seconds between hands (a dealer taking each hand); 0 sends them back to back."""
    shuffle_seconds: float = 0.0
    """Seconds the machine shuffles before the first hand leaves it (the number is drawn at
    once); 0 delivers at once."""
    deal_button: bool = False
    """Each hand waits in the machine until the dealer presses its deal button
    (:meth:`ShufflerDouble.press_deal_button`), as a dealer takes hands one by one."""
    deck_order: tuple[Card, ...] | None = None
    """A stacked deck dealt in this order instead of the seeded shuffle (the number is still
    drawn from the seed): a trainer's or a simulation's chosen hands. A deck of 53 with a card
    twice (one missing) is a deck a cheat changed."""
    deck_check_says: int | None = None
    """A faulty machine: its deck check reports this count, and it deals on all the same (no
    COUNT_ERROR)."""


@dataclass
class Deal:
    deal_id: int
    hands: int
    number: int = 0
    delivered: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    left: tuple[Card, ...] = ()
    count_error: bool = False


HELD = float("inf")
"""The time of a hand that waits for the deal button."""


class ShufflerDouble:
    def __init__(
        self,
        scenario: ShufflerScenario | None = None,
        *,
        ack_timeout: float = 0.2,
        firmware: str = FIRMWARE,
        serial_number: str = SERIAL_NUMBER,
    ) -> None:
        self.scenario = scenario or ShufflerScenario()
        self.firmware = firmware
        self.serial_number = serial_number
        self._ack_timeout = ack_timeout
        self._lock = threading.RLock()
        self.dealt: dict[int, Deal] = {}
        """The last :data:`DEALS_KEPT` deals, by id, for a test to compare (the newest with an
        id that came again)."""
        self._recent: collections.deque[int] = collections.deque(maxlen=f.DEALS_REMEMBERED)
        """The ids a START_DEAL may not take again (a repeated request never deals twice)."""
        self.received: collections.deque[f.Message] = collections.deque(maxlen=MESSAGES_KEPT)
        """The console's last messages, for a test to look at."""
        self._boot()

    def _boot(self) -> None:
        self.state = ShufflerState.READY
        self._framer = f.ShufflerFramer()
        self._arq = StopAndWait(self._ack_timeout)
        self._out: list[bytes] = []
        self._timeline: collections.deque[tuple[float, f.Message | ShufflerState]] = (
            collections.deque()
        )
        self._current = 0
        self._send(f.Hello(self.firmware, self.serial_number))
        self._send(self._status())

    # ------------------------------------------------------------------ scripting
    def script(self, **changes: object) -> None:
        """Change the scenario for the deals to come (fields of :class:`ShufflerScenario`)."""
        with self._lock:
            self.scenario = replace(self.scenario, **changes)  # type: ignore[arg-type]

    def press_deal_button(self) -> bool:
        """The dealer takes the next hand waiting in the machine (with ``deal_button``);
        after the last hand the machine reports the cards left. False when none waits."""
        with self._lock:
            held = [i for i, (at, item) in enumerate(self._timeline)
                    if at == HELD and isinstance(item, f.Hand)]
            if not held:
                return False
            release = [held[0]] if len(held) > 1 else [
                i for i, (at, _item) in enumerate(self._timeline) if at == HELD]
            for i in release:
                self._timeline[i] = (0.0, self._timeline[i][1])
            return True

    def open_door(self) -> None:
        with self._lock:
            self._set_state(ShufflerState.DOOR_OPEN)

    def jam(self) -> None:
        with self._lock:
            self._timeline.clear()
            self._set_state(ShufflerState.JAM)

    def report(self, message: f.Message) -> None:
        """A faulty or tampered machine: it sends ``message`` now, whatever its deals said (an
        extra hand, a hand again with other cards)."""
        with self._lock:
            self._send(message)

    def power_cycle(self) -> None:
        """Lose every unacknowledged message and restart the link at sequence 0."""
        with self._lock:
            self._boot()

    @property
    def link_idle(self) -> bool:
        with self._lock:
            return self._arq.idle and not self._timeline

    # ------------------------------------------------------------------ the wire
    def feed(self, data: bytes, now: float) -> None:
        with self._lock:
            for frame in self._framer.feed(data):
                if frame.packet is None:
                    if not frame.checked:  # a packet that does not read: not acknowledged
                        self._out += [o.frame for o in self._arq.damaged()]
                    continue
                delivered, out = self._arq.receive(frame.packet, now)
                self._out += [o.frame for o in out]
                if delivered is not None and frame.message is not None:
                    self.received.append(frame.message)
                    self._command(frame.message, now)

    def poll(self, now: float) -> list[bytes]:
        with self._lock:
            while self._timeline and self._timeline[0][0] <= now:
                _, item = self._timeline.popleft()
                if isinstance(item, ShufflerState):
                    self._set_state(item)
                else:
                    self._send(item)
            self._out += [o.frame for o in self._arq.poll(now)]
            out, self._out = self._out, []
            return out

    # ------------------------------------------------------------------ behaviour
    def _send(self, message: f.Message) -> None:
        self._arq.send(message.KIND, message.payload())

    def _status(self) -> f.Status:
        return f.Status(self.state, self._current, self.firmware, self.serial_number)

    def _set_state(self, state: ShufflerState) -> None:
        if state is not self.state:
            self.state = state
            self._send(self._status())

    def _command(self, message: f.Message, now: float) -> None:
        if isinstance(message, f.StatusRequest | f.Hello):
            self._send(self._status())
        elif isinstance(message, f.Reset):
            self._timeline.clear()
            self.state = ShufflerState.READY
            self._send(self._status())
        elif isinstance(message, f.DeckCount):
            self._send(f.DeckCheck(0, self.scenario.deck_count))
        elif isinstance(message, f.StartDeal):
            if (
                message.deal_id in self._recent
                or self.state is not ShufflerState.READY
                or not 1 <= message.hands <= 8
            ):
                self._send(self._status())  # a repeat or an impossible request: say where we are
                return
            self._deal(message, now)

    def _deal(self, request: f.StartDeal, now: float) -> None:
        s = self.scenario
        deal = Deal(request.deal_id, request.hands)
        self.dealt.pop(deal.deal_id, None)  # an id that came again is the newest
        self.dealt[deal.deal_id] = deal
        while len(self.dealt) > DEALS_KEPT:  # a long run is not kept whole
            del self.dealt[next(iter(self.dealt))]
        self._recent.append(deal.deal_id)
        self._current = deal.deal_id
        rng = random.Random(s.seed * 65536 + deal.deal_id)
        deck = list(DECK)
        rng.shuffle(deck)
        if s.deck_order is not None:
            deck = list(s.deck_order)
        deck = deck[: min(s.deck_count, DECK_SIZE)]
        self._set_state(ShufflerState.SHUFFLING)
        said = s.deck_count if s.deck_check_says is None else s.deck_check_says
        self._send(f.DeckCheck(deal.deal_id, said))
        if s.deck_count != DECK_SIZE:
            deal.count_error = True
            self._send(f.CountError(deal.deal_id, s.deck_count))
            self._set_state(ShufflerState.READY)
            return
        deal.number = s.random_number if s.random_number is not None else rng.randint(1, 7)
        self._send(f.RandomDrawn(deal.deal_id, deal.number))
        self._set_state(ShufflerState.DEALING)
        at = now + s.shuffle_seconds
        for index in range(1, request.hands + 1):
            size = HAND_SIZE - 1 if index in s.short_hands else HAND_SIZE
            cards, deck = tuple(deck[:size]), deck[size:]
            if index in s.missing_hands:
                continue
            deal.delivered[index] = cards
            when = HELD if s.deal_button else at
            self._timeline.append((when, f.Hand(deal.deal_id, index, cards)))
            at += s.hand_interval
            if s.jam_after == index:
                self._timeline.append((at, ShufflerState.JAM))
                return
        deal.left = tuple(deck)
        last = HELD if s.deal_button else at  # the count once the last hand is taken
        self._timeline.append((last, f.Left(deal.deal_id, deal.left)))
        self._timeline.append((last, ShufflerState.READY))
