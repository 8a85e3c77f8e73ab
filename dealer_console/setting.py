"""A seven-card hand set as a two-card low and a five-card high, and its comparison.

Rules README, "Setting and comparing hands": a setting whose low hand outranks its high hand
is foul; a player's high and low are each matched against the banker's high and low, and a
tie (a copy) is the banker's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from dealer_console.cards import Card, CardError, check_cards, format_cards, parse_cards
from dealer_console.hands import (
    DEFAULT_RULES,
    HandRules,
    HandValue,
    five_card_value,
    two_card_value,
)


@dataclass(frozen=True, slots=True)
class Setting:
    """How seven cards were split. ``rule`` names the House Way chart line when one was used."""

    low: tuple[Card, Card]
    high: tuple[Card, Card, Card, Card, Card]
    rule: str = ""

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.low + self.high

    def __str__(self) -> str:
        return f"{format_cards(self.low)} | {format_cards(self.high)}"


def make_setting(low: Sequence[Card], high: Sequence[Card], rule: str = "") -> Setting:
    """Build a setting, refusing wrong counts and repeated cards."""
    if len(low) != 2:
        raise CardError(f"the low hand needs 2 cards, got {len(low)}: {format_cards(low)}")
    if len(high) != 5:
        raise CardError(f"the high hand needs 5 cards, got {len(high)}: {format_cards(high)}")
    check_cards([*low, *high])
    return Setting((low[0], low[1]), (high[0], high[1], high[2], high[3], high[4]), rule)


def parse_setting(text: str) -> Setting:
    """Read ``"Kd 9c | As 7h 5s 3d 2c"`` (low, a bar, then high)."""
    if text.count("|") != 1:
        raise CardError(f"{text!r}: write a set hand as 'low low | high high high high high'")
    low_text, high_text = text.split("|")
    return make_setting(parse_cards(low_text), parse_cards(high_text))


def setting_values(setting: Setting, rules: HandRules = DEFAULT_RULES) -> tuple[HandValue, ...]:
    return two_card_value(setting.low), five_card_value(setting.high, rules)


def is_foul(setting: Setting, rules: HandRules = DEFAULT_RULES) -> bool:
    """True when the low hand ranks at or above the high hand."""
    low, high = setting_values(setting, rules)
    return not high > low


class Outcome(Enum):
    WIN = "win"
    LOSS = "loss"
    PUSH = "push"


class Side(Enum):
    """Which of two corresponding hands ranks higher; ``COPY`` is an identical rank."""

    PLAYER = "player"
    BANKER = "banker"
    COPY = "copy"


@dataclass(frozen=True, slots=True)
class Comparison:
    outcome: Outcome
    high: Side
    low: Side


def _side(player: HandValue, banker: HandValue) -> Side:
    if player > banker:
        return Side.PLAYER
    if player < banker:
        return Side.BANKER
    return Side.COPY


def compare(player: Setting, banker: Setting, rules: HandRules = DEFAULT_RULES) -> Comparison:
    """Compare a player's set hand with the banker's: both higher wins, both lower or a copy
    with a lower hand loses, one each pushes. A foul player hand is compared as set; what a foul
    costs is the profile's decision (``foul`` option), made by the caller."""
    p_low, p_high = setting_values(player, rules)
    b_low, b_high = setting_values(banker, rules)
    high = _side(p_high, b_high)
    low = _side(p_low, b_low)
    if high is Side.PLAYER and low is Side.PLAYER:
        outcome = Outcome.WIN
    elif Side.PLAYER in (high, low):
        outcome = Outcome.PUSH  # one hand higher, the other lower or a copy
    else:
        outcome = Outcome.LOSS
    return Comparison(outcome, high, low)
