"""The values of a table profile. Every difference between casinos is one of these fields,
read from ``config/profiles/<name>.toml`` (see ``docs/profiles.md``); no code branches on a
casino's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from dealer_console.hands import HandRules, JokerInFlush, Wheel
from dealer_console.jackpot_values.config import TableJackpots
from dealer_console.money import format_cents
from dealer_console.paytables import Paytable


class Game(Enum):
    """``face_up``: the banker's hand is exposed first and its ace-high pai gow pushes every
    base wager (rules README, "Face Up"); ``classic``: Fortune Pai Gow, hands set unseen."""

    FACE_UP = "face_up"
    CLASSIC = "classic"


class Banking(Enum):
    """Who banks (rules README, table of documents)."""

    PLAYER_DEALER = "player_dealer"  # California: a player, covered by their wager
    DESIGNATED_PLAYER = "designated_player"  # Oxford Downs: a player, covered by their wager
    HOUSE = "house"  # Washington
    HOUSE_OR_PLAYER_BANKER = "house_or_player_banker"  # Catfish Bend

    @property
    def covered(self) -> bool:
        """The banker's wager bounds what they win and lose (the coverage walk)."""
        return self in (Banking.PLAYER_DEALER, Banking.DESIGNATED_PLAYER)


class Direction(Enum):
    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter_clockwise"


class SettleFrom(Enum):
    """Where settlement starts: the action seat (California, Oxford Downs, Washington) or the
    first position after the banker (Catfish Bend, "Paying and Taking": the player farthest to
    the dealer's right, which is position 2 counting counter-clockwise from the dealer)."""

    ACTION_SEAT = "action_seat"
    FIRST_AFTER_BANKER = "first_after_banker"


class Foul(Enum):
    """What a foul player hand costs (rules README, "Setting and comparing hands")."""

    LOSES = "loses"
    RESET_HOUSE_WAY = "reset_house_way"
    RESET_ONCE_THEN_DEAD = "reset_once_then_dead"


class ActionSeatMethod(Enum):
    DICE = "dice"
    RNG = "rng"
    SHUFFLER = "shuffler"
    HIGH_CARD = "high_card"


class DealMethod(Enum):
    HAND = "hand"
    SHUFFLER = "shuffler"


class BankerRotation(Enum):
    """Rules README, "Round procedure": banker rotation."""

    TWO_ROUNDS_THEN_CLOCKWISE = "two_rounds_then_clockwise"  # California
    EVERY_ROUND_CLOCKWISE = "every_round_clockwise"  # Oxford Downs
    COUNTER_CLOCKWISE_DEALER_BETWEEN = "counter_clockwise_dealer_between"  # Catfish Bend
    NONE = "none"  # the house always banks


class Area(Enum):
    """Betting areas with table limits."""

    BASE = "base"
    FORTUNE = "fortune"
    ACE_HIGH = "ace_high"
    BACKLINE = "backline"
    TIPS = "tips"
    BANKER = "banker"  # a player banker's own wager (what they put at risk)
    HOUSE_WAGER = "house_wager"  # the house's wager against a player banker


class FeePayer(Enum):
    EACH_HAND = "each_hand"  # California collection fee: every hand with a wager, banker too
    BANKER = "banker"  # Oxford Downs rake: the designated player, before the deal


class AggregateScope(Enum):
    TABLE = "table"
    POSITION = "position"


@dataclass(frozen=True, slots=True)
class Limit:
    minimum: int
    maximum: int
    increment: int

    def check(self, cents: int) -> str | None:
        """Why ``cents`` is not a valid wager here, or None."""
        if cents < self.minimum:
            return f"below the minimum of {format_cents(self.minimum)}"
        if cents > self.maximum:
            return f"above the maximum of {format_cents(self.maximum)}"
        if cents % self.increment:
            return f"not a multiple of the {format_cents(self.increment)} increment"
        return None


@dataclass(frozen=True, slots=True)
class Envy:
    threshold: int  # least Fortune wager that earns an envy button, in cents
    needs_fortune_on_hand: bool  # the qualifying hand itself must hold a Fortune wager


@dataclass(frozen=True, slots=True)
class Commission:
    basis_points: int  # 500 = 5%
    waived_by_fortune: int | None  # a Fortune wager of at least this waives it
    player_banker_pays_on_net: bool


@dataclass(frozen=True, slots=True)
class FeeRate:
    up_to: int | None  # largest wager this rate applies to; None for the top rate
    fee: int


@dataclass(frozen=True, slots=True)
class Fees:
    payer: FeePayer
    rates: tuple[FeeRate, ...]

    def fee_for(self, wager: int) -> int:
        for rate in self.rates:
            if rate.up_to is None or wager <= rate.up_to:
                return rate.fee
        return self.rates[-1].fee


@dataclass(frozen=True, slots=True)
class AggregateLimit:
    cents: int
    scope: AggregateScope


@dataclass(frozen=True, slots=True)
class JackpotGame:
    """The jackpot game on sensor spot 1 as the round and settlement see it; the whole set-up
    (both games, meters, mode) is ``Profile.jackpots``."""

    paytable: Paytable
    wager: int  # the fixed jackpot wager in cents; pays scale from the printed $1


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    title: str
    source: str
    game: Game
    banking: Banking
    positions: int
    direction: Direction
    settle_from: SettleFrom
    house_way: str
    wheel: Wheel
    joker_in_flush: JokerInFlush
    foul: Foul
    action_seat_methods: tuple[ActionSeatMethod, ...]
    deal_methods: tuple[DealMethod, ...]
    banker_rotation: BankerRotation
    backline: bool
    tip_bets: bool
    limits: dict[Area, Limit]
    fortune: Paytable | None
    envy: Envy | None
    ace_high: Paytable | None
    commission: Commission | None
    fees: Fees | None
    aggregate_limit: AggregateLimit | None
    jackpot: JackpotGame | None
    house_covers_bonuses: bool  # Catfish Bend: the house pays Fortune and Envy, even with a PB
    jackpots: TableJackpots | None = None
    """Every jackpot game of the layout (at most two, one per sensor spot) with its meters."""

    @property
    def hand_rules(self) -> HandRules:
        return HandRules(self.wheel, self.joker_in_flush)

    def limit(self, area: Area) -> Limit | None:
        return self.limits.get(area)
