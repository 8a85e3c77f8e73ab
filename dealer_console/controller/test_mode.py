"""The technician's test mode: when the table may enter it, where entering and leaving are
logged, and the bench that turns the devices' events into each test's pass or fail.

Test mode is entered only between rounds: the round's phase is before START GAME (the bank's
offer or the wagers) and nothing is staked on it yet (no wager, fee, or banker's stake, and the
bet sensors unlocked). Then no money can be on the layout that a test could disturb. While the
table is in test mode the controller hands every device event to the :class:`Bench` instead of
the round, refuses every round command ("the table is in test mode"), and writes nothing but
this module's own table: no round event and no meter.

Entering and leaving are logged in ``test_mode_sessions`` (who, when, for how long), written
from events of the table's hash-chained log (``storage/service_log.py``), so the audit holds
the table to the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from sqlite_utils import Database

from dealer_console.cards import format_cards
from dealer_console.controller.facts import DEALS_PER_BLOCK
from dealer_console.controller.view import BenchView, TestResult
from dealer_console.devices.bet_sensors import (
    BetSpotChanged,
    NodeLightTest,
    SensorNodeChanged,
    Spot,
)
from dealer_console.devices.events import DeviceEvent
from dealer_console.devices.keypad import BadRead, Button, ButtonPressed
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    DeckChecked,
    HandDelivered,
    ShufflerState,
    ShufflerStatus,
)
from dealer_console.employees.registry import Employee
from dealer_console.round.state import Phase, RoundState
from dealer_console.storage import service_log

IN_TEST_MODE: Final = "the table is in test mode"
"""The refusal of every round command while a technician tests the devices."""

TEST_DEAL_HANDS: Final = 7
CARDS_PER_HAND: Final = 7
DECK: Final = 53
TEST_DEAL_OFFSET: Final = 4096 * DEALS_PER_BLOCK
"""A test deal's id is this far from the round's own deal ids (1-65535, eight per round), so
neither the shuffler nor its driver, which remember the last eight deals, mistakes a coming
round's deal for a test deal (``facts.deal_id_for`` keeps a round's late deals elsewhere)."""
TEST_DEAL_SLOTS: Final = 16
"""Test deals of one session take this many ids in turn; each session (by its number, out of
256) has its own sixteen."""

MIGRATIONS = service_log.MIGRATIONS
"""The test-mode sessions' table, made and written by ``storage/service_log.py`` (its rows are
events of the hash-chained log)."""


def between_rounds_problem(state: RoundState) -> str | None:
    """Why test mode cannot start now, or None (see the module doc for "between rounds")."""
    if state.phase not in (Phase.BANKER, Phase.BETTING):
        return ("test mode starts only between rounds: finish this round (END GAME) first")
    if state.wagers or state.fees or state.banker_wager or state.locked:
        return ("test mode starts only between rounds: wagers are placed; take them back or "
                "play the round first")
    return None


def test_deal_id(round_id: int, session: int, deals_before: int) -> int:
    """The id of a test deal between rounds ``round_id`` - 1 and ``round_id``, in test-mode
    session ``session`` after ``deals_before`` others: each test deal its own among the deals
    the shuffler remembers (every test deal had one id, so the shuffler answered the second
    with a status only and its hands never came)."""
    slot = (session % 256) * TEST_DEAL_SLOTS + deals_before % TEST_DEAL_SLOTS
    return ((round_id - 1) * DEALS_PER_BLOCK + TEST_DEAL_OFFSET + slot) % 0xFFFF + 1


def log_entered(db: Database, employee: Employee) -> int:
    """Log the start of a session (an event of the table's log); returns its number."""
    return service_log.log_entered(db, employee.employee_id)


def log_left(db: Database, session: int, seconds: int) -> None:
    service_log.log_left(db, session, seconds)


@dataclass
class Bench:
    """What the technician's tests have seen so far; fed every device event in test mode.

    ``roles`` tells a card's role without authorising anything (the card number is never
    kept)."""

    technician: Employee
    session: int
    entered: float
    seats: tuple[int, ...] = ()
    spots: tuple[int, ...] = (1, 2)
    """The sensor spots the table's jackpot games use: a chip is tested on those only (a
    one-game table's second spot senses nothing it uses, and its test never finished)."""
    keys: frozenset[Button] = frozenset(Button)
    """The buttons the table's keypad has: a one-game keypad has no game keys (the "every
    button" test asked for 22 of its 20 and could never pass)."""
    status: str = ""
    status_ok: bool | None = None
    deal_id: int | None = None
    deals: int = 0
    """Test deals asked for in this session."""
    hands: list[str] = field(default_factory=list)
    hand_sizes: list[int] = field(default_factory=list)
    left: int | None = None
    deal_error: str = ""
    deck: int | None = None
    nodes: dict[int, bool] = field(default_factory=dict)
    lit: set[int] = field(default_factory=set)
    answered: dict[int, bool] = field(default_factory=dict)
    """Each seat's light test: its node answered it, or not."""
    chips: set[Spot] = field(default_factory=set)
    chip_on: set[Spot] = field(default_factory=set)
    chip_off: set[Spot] = field(default_factory=set)
    buttons: set[Button] = field(default_factory=set)
    last_button: str = ""
    card: str = ""
    card_ok: bool | None = None

    def start_deal(self, deal_id: int) -> None:
        self.deals += 1
        self.deal_id, self.hands, self.hand_sizes = deal_id, [], []
        self.left, self.deal_error = None, ""

    def apply(self, event: DeviceEvent) -> None:
        """Take one device event into the tests' results (a card swipe: :meth:`card_read`)."""
        if isinstance(event, ShufflerStatus):
            self.status = event.state.name.replace("_", " ").lower()
            self.status_ok = event.state in (ShufflerState.READY, ShufflerState.SHUFFLING,
                                             ShufflerState.DEALING)
        elif isinstance(event, HandDelivered) and event.deal_id == self.deal_id:
            self.hands.append(format_cards(event.cards))
            self.hand_sizes.append(len(event.cards))
        elif isinstance(event, CardsLeft) and event.deal_id == self.deal_id:
            self.left = event.count
        elif isinstance(event, CardCountError) and event.deal_id == self.deal_id:
            self.deal_error = f"card-count error: the shuffler counted {event.counted}"
        elif isinstance(event, DeckChecked) and event.deal_id == 0:
            self.deck = event.counted
        elif isinstance(event, SensorNodeChanged):
            self.nodes[event.seat] = event.online
        elif isinstance(event, NodeLightTest):
            self.answered[event.seat] = event.answered
        elif isinstance(event, BetSpotChanged):
            (self.chips.add if event.present else self.chips.discard)(event.spot)
            (self.chip_on if event.present else self.chip_off).add(event.spot)
        elif isinstance(event, ButtonPressed) and event.button in self.keys:
            self.buttons.add(event.button)
            self.last_button = event.button.name.replace("_", " ")
        elif isinstance(event, BadRead):
            self.card, self.card_ok = f"not read ({event.reason.name.lower()})", False

    def card_read(self, role: str | None) -> None:
        """A card swiped in test mode: its holder's role, or unknown (never its number)."""
        if role is None:
            self.card, self.card_ok = "a card no employee holds", False
        else:
            self.card, self.card_ok = f"a {role}'s card", True

    def view(self, elapsed: float) -> BenchView:
        return BenchView(
            technician=f"{self.technician.name} ({self.technician.employee_id})",
            seconds=int(elapsed), results=tuple(self._results()), hands=tuple(self.hands),
            chips=frozenset(self.chips), nodes=dict(self.nodes),
            buttons=frozenset(b.name for b in self.buttons), last_button=self.last_button,
            card=self.card)

    def _results(self) -> list[TestResult]:
        out = [TestResult("shuffler", "status", self.status_ok,
                          f"the shuffler says {self.status}" if self.status else
                          "press Status"),
               self._deal_result(),
               TestResult("shuffler", "deck count",
                          None if self.deck is None else self.deck == DECK,
                          "press Deck count" if self.deck is None else
                          f"{self.deck} cards counted, {DECK} expected")]
        for seat in self.seats:
            answered = self.answered.get(seat)
            if seat not in self.lit:
                passed, detail = None, "press its Lights button"
            elif answered is None:
                passed, detail = None, "waiting for the node's answer"
            elif answered:
                passed, detail = True, "the node answered: its lights blink"
            else:
                passed, detail = False, f"seat {seat}'s node does not answer"
            out.append(TestResult("bet-sensors", f"seat {seat} node", passed, detail))
        for seat in self.seats:
            for number in self.spots:
                spot = Spot(seat, number)
                seen = spot in self.chip_on and spot in self.chip_off
                out.append(TestResult(
                    "bet-sensors", f"seat {seat} spot {number} chip", True if seen else None,
                    "chip seen on and off" if seen else
                    "chip on now: take it off" if spot in self.chips else
                    "put a chip on, then take it off"))
        missing = [b for b in Button if b in self.keys and b not in self.buttons]
        out.append(TestResult("keypad", "every button", None if missing else True,
                              f"{len(self.keys) - len(missing)} of {len(self.keys)} pressed" +
                              (f"; next: {missing[0].name.replace('_', ' ')}" if missing
                               else "")))
        out.append(TestResult("keypad", "card reader", self.card_ok,
                              self.card or "swipe any card"))
        return out

    def _deal_result(self) -> TestResult:
        if self.deal_id is None:
            return TestResult("shuffler", "test deal", None, "press Test deal")
        if self.deal_error:
            return TestResult("shuffler", "test deal", False, self.deal_error)
        if self.left is None:
            return TestResult("shuffler", "test deal", None,
                              f"{len(self.hands)} of {TEST_DEAL_HANDS} hands")
        good = (len(self.hands) == TEST_DEAL_HANDS and self.left == DECK - 49
                and all(n == CARDS_PER_HAND for n in self.hand_sizes))
        return TestResult("shuffler", "test deal", good,
                          f"{len(self.hands)} hands, {self.left} cards left")
