"""What settlement takes (a dealt, set round with its wagers) and what it gives back (the payout
sheet). Amounts are integer cents throughout (rules README, "Money and settlement").

Positions are numbered from the banker as 1 in the profile's direction (rules README, "Round
procedure"), so the banker is always position 1 and players sit at 2..N.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from dealer_console.cards import Card
from dealer_console.errors import ConsoleError
from dealer_console.money import format_cents
from dealer_console.setting import Setting


class SetBy(Enum):
    """A hand the player asked the dealer to set the House Way."""

    HOUSE_WAY = "house way"


HandChoice = Setting | SetBy | None
"""How a hand was set: explicitly, the House Way, or not at all (allowed only where nobody
sets, as when the banker's face up hand is ace-high pai gow)."""


class BankedBy(Enum):
    HOUSE = "house"
    PLAYER = "player"


class RoundError(ConsoleError, ValueError):
    """A round that cannot be settled; ``place`` says where in the input (``positions[2].cards``).

    Raised before anything is settled: a refused round moves no money."""

    def __init__(self, place: str, message: str) -> None:
        super().__init__(f"{place}: {message}" if place else message)
        self.place = place
        self.reason = message


@dataclass(frozen=True, slots=True)
class Backline:
    """A wager behind a seated player's base wager, riding on that hand (California)."""

    bettor: str
    amount: int


@dataclass(frozen=True, slots=True)
class Wagers:
    base: int = 0
    fortune: int = 0
    ace_high: int = 0
    jackpot: int = 0
    tips: int = 0  # an Oxford Downs dealer tip bet riding on the hand, won for the dealer
    # (the part of it a designated player's bank cannot match goes back to the bettor)
    backline: tuple[Backline, ...] = ()


@dataclass(frozen=True, slots=True)
class PositionInput:
    position: int
    cards: tuple[Card, ...]
    setting: HandChoice
    wagers: Wagers
    prior_fouls: int = 0  # fouls already forgiven this session (Catfish Bend's second chance)


@dataclass(frozen=True, slots=True)
class BankerInput:
    """The banker's hand. ``wager`` is a player banker's stake (what bounds the coverage walk for
    a player-dealer or designated player; what a Catfish Bend player banker puts at risk)."""

    by: BankedBy
    cards: tuple[Card, ...]
    setting: HandChoice = SetBy.HOUSE_WAY
    wager: int = 0
    fortune: int = 0  # a Catfish Bend player banker may play Fortune against the house


@dataclass(frozen=True, slots=True)
class HouseHand:
    """Catfish Bend, "Player Banker": the dealer's hand and the house's wager against the PB."""

    cards: tuple[Card, ...]
    wager: int
    setting: HandChoice = SetBy.HOUSE_WAY


@dataclass(frozen=True, slots=True)
class RoundInput:
    action_seat: int | None
    """The position holding the action button, where settlement starts; None at a table that
    settles from the first position after the banker (Catfish Bend), which has none."""
    banker: BankerInput
    positions: tuple[PositionInput, ...]
    house: HouseHand | None = None


class WagerKind(Enum):
    """Line kinds in the order a seat is settled (rules README, "Money and settlement")."""

    FEE = "fee"
    HOUSE_WAGER = "house_wager"
    BASE = "base"
    BACKLINE = "backline"
    TIPS = "tips"
    ACE_HIGH = "ace_high"
    FORTUNE = "fortune"
    ENVY = "envy"
    JACKPOT = "jackpot"
    COMMISSION = "commission"


class LineOutcome(Enum):
    WIN = "win"
    LOSS = "loss"
    PUSH = "push"
    CHARGE = "charge"  # a fee, rake or commission
    METER = "meter"  # a jackpot percentage award, paid off the meter by the jackpot system


HOUSE = "house"
BANKER = "banker"
COLLECTION = "collection"
DEALER_TIPS = "dealer tips"


def position_party(position: int) -> str:
    return f"position {position}"


def backline_party(position: int, bettor: str) -> str:
    return f"backline {position} {bettor}"


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    cents: int


@dataclass(slots=True)
class SheetLine:
    """One wager (or charge) settled: what the table said was due and what really moved."""

    kind: WagerKind
    position: int | None
    party: str  # who placed the wager / pays the charge
    counterparty: str  # who wins it or pays it: banker, house, collection
    wager: int
    outcome: LineOutcome
    reason: str
    due: int = 0  # the payout (win) or the forfeited wager (loss) before any limit
    reduced: int = 0  # cut by the aggregate payout limit
    uncovered: int = 0  # not paid or not collected: the banker's wager was exhausted
    commission: int = 0
    transfers: list[Transfer] = field(default_factory=list)

    @property
    def moved(self) -> int:
        """Cents of the payout or collection that changed hands (commission excluded)."""
        return self.due - self.reduced - self.uncovered

    def limits(self) -> list[str]:
        """What made this line's money differ from what its odds or wager say, in words: the
        aggregate limit's cut, the banker's coverage, the commission. The payout sheet and the
        round's line (its note) both say them, so a short payout is never unexplained."""
        words = []
        if self.reduced:
            words.append(f"aggregate limit cut {format_cents(self.reduced)}")
        if self.uncovered:
            verb = "not paid" if self.outcome is LineOutcome.WIN else "returned"
            words.append(f"banker's wager exhausted: {format_cents(self.uncovered)} {verb}")
        if self.commission:
            words.append(f"commission {format_cents(self.commission)}")
        return words


@dataclass(frozen=True, slots=True)
class Sheet:
    profile: str
    lines: tuple[SheetLine, ...]
    totals: dict[str, int]  # net gain per party; sums to zero
    notes: tuple[str, ...] = ()
