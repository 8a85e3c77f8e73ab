"""A round's state: everything the event log says so far. Rebuilt by folding events through
:func:`dealer_console.round.machine.evolve`, so what is in memory and what is on disk agree."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from dealer_console.cards import Card
from dealer_console.setting import Setting


class Phase(Enum):
    BANKER = "banker"  # bank offered and accepted (player-banked tables)
    BETTING = "betting"  # wagers, fees or rake
    ACTION = "action"  # after START GAME: dice / RNG / shuffler number / high card
    DEALING = "dealing"
    DEAL_CHECK = "deal_check"  # four cards left?
    MISDEAL = "misdeal"  # hands void, wagers kept; deck count when due, then redeal
    BANKER_SET = "banker_set"
    PLAYERS_SET = "players_set"
    SETTLEMENT = "settlement"
    END = "end"  # everything settled; waiting for END GAME
    COMPLETE = "complete"
    VOIDED = "voided"


class MisdealReason(Enum):
    """The misdeal list of Catfish Bend ("Irregularities") as the rules README states it."""

    NOT_FOUR_LEFT = "not_four_left"  # 1
    POSITION_MISSED = "position_missed"  # 2
    CARDS_EXPOSED = "cards_exposed"  # 3: more than three
    HAND_NOT_SEVEN = "hand_not_seven"  # 4
    CARD_COUNT_ERROR = "card_count_error"  # 5: the shuffler says so

    @property
    def deck_count_due(self) -> bool:
        """After 1 or 5 play waits for a count of the deck (53 cards expected)."""
        return self in (MisdealReason.NOT_FOUR_LEFT, MisdealReason.CARD_COUNT_ERROR)


@dataclass(frozen=True, slots=True)
class Line:
    """One settled wager. Money is conserved when ``staked == returned + banker_delta +
    house_delta``: what the player put down either comes back, or goes to the banker or house,
    and whatever the player won beyond their stake came from the banker or the house."""

    seat: int
    kind: str
    outcome: str
    staked: int
    returned: int
    banker_delta: int
    house_delta: int
    note: str = ""

    @property
    def limits(self) -> str:
        """What cut or added to this line's money, in words ("" for nothing): the aggregate
        payout limit, the banker's coverage, the commission (:func:`with_limits`)."""
        return limits_in(self.note)


def limits_in(note: str) -> str:
    """The words in brackets at the end of a line's note (:func:`with_limits`), or ""."""
    if note.endswith("]") and " [" in note:
        return note.rsplit(" [", 1)[1][:-1]
    return ""


def with_limits(reason: str, limits: list[str]) -> str:
    """A line's note: why it settled so, then in brackets what cut or added to its money
    (rounds settled before stop 50 have the reason alone: ``audit/rules.py`` reads both)."""
    return f"{reason} [{'; '.join(limits)}]" if limits else reason


@dataclass
class RoundState:
    round_id: int
    profile: str
    phase: Phase
    banker_seat: int
    banker_kind: str  # "house" or "player"
    offer_seat: int  # whom the bank is offered to (BANKER phase)
    consecutive: int = 1  # rounds in a row this banker has banked, this one included
    banker_wager: int = 0
    wagers: dict[tuple[int, str], int] = field(default_factory=dict)
    fees: dict[tuple[int, str], int] = field(default_factory=dict)
    locked: bool = False
    action_number: int | None = None
    first_seat: int | None = None
    action_seat: int | None = None
    deal_no: int = 0
    order: tuple[int, ...] = ()  # deal order of the current deal
    wrong_start: int | None = None  # the seat the first hand actually went to, if wrong
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    delivered: list[int] = field(default_factory=list)  # seats in delivery order
    exposed: int = 0
    deck_count_due: bool = False
    misdeal_reason: str | None = None
    banker_setting: Setting | None = None
    reconstructed: str = ""  # who reconstructed the banker's hand this round (once at most)
    ace_high_push: bool = False
    settings: dict[int, Setting] = field(default_factory=dict)
    set_how: dict[int, str] = field(default_factory=dict)
    fouls: dict[int, int] = field(default_factory=dict)
    dead: set[int] = field(default_factory=set)
    plan: list[Line] = field(default_factory=list)
    settled_seats: list[int] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    jackpot_hits: list[tuple[int, int, int, str, int]] = field(default_factory=list)
    """Confirmed hits: (seat, hand line, award cents, who confirmed, sensor spot)."""
    last_seq: int = 0
    banker_first: bool = True  # the profile's order: banker's hand before the players'
    opening: dict[str, Any] = field(default_factory=dict)  # round_opened payload and notes

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.COMPLETE, Phase.VOIDED)

    def wager(self, seat: int, kind: str) -> int:
        return self.wagers.get((seat, kind), 0)

    def seats_with_base(self) -> list[int]:
        return seats_with_base(self.wagers)

    def envy_seats(self, threshold: int) -> list[int]:
        return sorted(s for (s, k), c in self.wagers.items() if k == "fortune" and c >= threshold)


def seats_with_base(wagers: Mapping[tuple[int, str], int]) -> list[int]:
    """Seats whose hand plays: a base wager (or the house's wager against a player banker)."""
    return sorted({s for (s, k) in wagers if k in ("base", "house_wager")})
