"""What seven cards hold, however they are set: the Fortune class, the ace-high pai gow status
and the best five-card hand.

Rules README, "Fortune bonus and Envy": the classes are checked top first, and that order also
decides a hand holding two classes (trips beside a straight is three of a kind). "Face Up: the
dealer's ace-high pai gow" defines the ace-high status used for the push and the Ace-High bonus.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import Enum
from itertools import combinations

from dealer_console.cards import ACE, KING, QUEEN, SUITS, Card, check_cards
from dealer_console.hands import (
    DEFAULT_RULES,
    STRAIGHT_WINDOWS,
    HandRules,
    HandValue,
    five_card_value,
)


class FortuneClass(Enum):
    """Fortune bonus classes, top first; the value is the id used in paytables and JSON."""

    NATURAL_SEVEN_CARD_STRAIGHT_FLUSH = "natural_seven_card_straight_flush"
    ROYAL_FLUSH_ROYAL_MATCH = "royal_flush_royal_match"
    WILD_SEVEN_CARD_STRAIGHT_FLUSH = "wild_seven_card_straight_flush"
    FIVE_ACES = "five_aces"
    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    THREE_PAIR = "three_pair"

    @property
    def order(self) -> int:
        """0 for the top class; lower is better."""
        return _FORTUNE_ORDER[self]

    @property
    def is_envy_hand(self) -> bool:
        """Four of a kind or better earns the other envy holders their payout."""
        return self.order <= _FORTUNE_ORDER[FortuneClass.FOUR_OF_A_KIND]


_FORTUNE_ORDER = {cls: i for i, cls in enumerate(FortuneClass)}


class AceHigh(Enum):
    """Ace-high pai gow status of seven cards: with a natural ace, or with the joker as the ace."""

    NATURAL = "natural"
    JOKER = "joker"


_SEVEN_WINDOWS = tuple(
    [frozenset(range(high - 6, high + 1)) for high in range(ACE, 7, -1)]
    + [frozenset({ACE, 2, 3, 4, 5, 6, 7})]
)
_ROYAL = frozenset({ACE, KING, QUEEN, 11, 10})


def _check_seven(cards: Sequence[Card]) -> None:
    check_cards(cards, 7)


def _suit_ranks(cards: Sequence[Card]) -> dict[str, set[int]]:
    by_suit: dict[str, set[int]] = {s: set() for s in SUITS}
    for c in cards:
        if not c.is_joker:
            by_suit[c.suit].add(c.rank)
    return by_suit


def _has_run(ranks: set[int], jokers: int, windows: Sequence[frozenset[int]]) -> bool:
    """Whether ``ranks`` fill some window with at most ``jokers`` gaps."""
    return any(len(w - ranks) <= jokers for w in windows)


def _royal_match(cards: Sequence[Card], has_joker: bool) -> bool:
    """A royal flush (the joker may fill one card of it) and a natural suited K-Q beside it."""
    for suit in SUITS:
        royal = [c for c in cards if c.suit == suit and c.rank in _ROYAL]
        missing = 5 - len(royal)
        if missing > (1 if has_joker else 0):
            continue
        rest = [c for c in cards if c not in royal and not (missing and c.is_joker)]
        if (
            len(rest) == 2
            and not any(c.is_joker for c in rest)
            and rest[0].suit == rest[1].suit
            and {rest[0].rank, rest[1].rank} == {KING, QUEEN}
        ):
            return True
    return False


def fortune_class(cards: Sequence[Card]) -> FortuneClass | None:
    """The Fortune class of seven cards, or None for a losing hand."""
    _check_seven(cards)
    jokers = sum(1 for c in cards if c.is_joker)
    naturals = [c for c in cards if not c.is_joker]
    by_suit = _suit_ranks(cards)
    suit_sizes = sorted((len(r) for r in by_suit.values()), reverse=True)
    counts = Counter(c.rank for c in naturals)
    # Outside straights and flushes the joker can only be an ace.
    as_ace = counts.copy()
    if jokers:
        as_ace[ACE] += 1

    if not jokers and suit_sizes[0] == 7 and _has_run(set(by_suit[naturals[0].suit]), 0,
                                                      _SEVEN_WINDOWS):
        return FortuneClass.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH
    if _royal_match(cards, bool(jokers)):
        return FortuneClass.ROYAL_FLUSH_ROYAL_MATCH
    if jokers and suit_sizes[0] == 6:
        suit = max(by_suit, key=lambda s: len(by_suit[s]))
        if _has_run(by_suit[suit], 1, _SEVEN_WINDOWS):
            return FortuneClass.WILD_SEVEN_CARD_STRAIGHT_FLUSH
    if as_ace[ACE] == 5:
        return FortuneClass.FIVE_ACES
    if any(len(_ROYAL - r) <= jokers for r in by_suit.values()):
        return FortuneClass.ROYAL_FLUSH
    if any(_has_run(r, jokers, STRAIGHT_WINDOWS) for r in by_suit.values()):
        return FortuneClass.STRAIGHT_FLUSH
    shape = sorted(as_ace.values(), reverse=True)
    if shape[0] >= 4:
        return FortuneClass.FOUR_OF_A_KIND
    if shape[0] == 3 and shape[1] >= 2:
        return FortuneClass.FULL_HOUSE
    if suit_sizes[0] + jokers >= 5:
        return FortuneClass.FLUSH
    if shape[0] == 3:
        return FortuneClass.THREE_OF_A_KIND
    if _has_run(set(counts), jokers, STRAIGHT_WINDOWS):
        return FortuneClass.STRAIGHT
    if shape[:3] == [2, 2, 2]:
        return FortuneClass.THREE_PAIR
    return None


def ace_high_status(cards: Sequence[Card]) -> AceHigh | None:
    """Ace-high pai gow: no pair, straight or flush (the joker as an ace or a filler), ace on top.

    With the joker beside a natural ace the hand holds a pair of aces, so it is not pai gow.
    """
    _check_seven(cards)
    jokers = sum(1 for c in cards if c.is_joker)
    ranks = [c.rank for c in cards if not c.is_joker]
    distinct = set(ranks)
    if len(distinct) != len(ranks):
        return None
    if jokers and ACE in distinct:
        return None
    if not jokers and ACE not in distinct:
        return None
    if _has_run(distinct, jokers, STRAIGHT_WINDOWS):
        return None
    if any(len(r) + jokers >= 5 for r in _suit_ranks(cards).values()):
        return None
    return AceHigh.JOKER if jokers else AceHigh.NATURAL


def best_five(
    cards: Sequence[Card], rules: HandRules = DEFAULT_RULES
) -> tuple[HandValue, tuple[Card, ...]]:
    """The best five-card hand among seven cards and its value."""
    _check_seven(cards)
    best: tuple[HandValue, tuple[Card, ...]] | None = None
    for five in combinations(cards, 5):
        value = five_card_value(five, rules)
        if best is None or value > best[0]:
            best = (value, five)
    assert best is not None
    return best
