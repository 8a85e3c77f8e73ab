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


class _Facts:
    """What every class predicate needs from seven cards, computed once."""

    __slots__ = ("by_suit", "cards", "jokers", "ranks", "shape")

    def __init__(self, cards: Sequence[Card]) -> None:
        _check_seven(cards)
        self.cards = tuple(cards)
        self.jokers = sum(1 for c in cards if c.is_joker)
        self.by_suit = _suit_ranks(cards)
        natural = Counter(c.rank for c in cards if not c.is_joker)
        self.ranks = set(natural)
        as_ace = natural.copy()
        if self.jokers:
            as_ace[ACE] += 1  # outside straights and flushes the joker can only be an ace
        self.shape = [*sorted(as_ace.values(), reverse=True), 0, 0, 0]

    def royal_match(self) -> bool:
        """A royal flush (the joker may fill one card of it) and a natural suited K-Q beside it;
        the joker is never part of the match (rules README, "Fortune bonus and Envy")."""
        for suit in SUITS:
            royal = [c for c in self.cards if c.suit == suit and c.rank in _ROYAL]
            missing = 5 - len(royal)
            if missing > self.jokers:
                continue
            rest = [c for c in self.cards if c not in royal and not (missing and c.is_joker)]
            if (
                len(rest) == 2
                and not any(c.is_joker for c in rest)
                and rest[0].suit == rest[1].suit
                and {rest[0].rank, rest[1].rank} == {KING, QUEEN}
            ):
                return True
        return False


def _holds(f: _Facts, cls: FortuneClass) -> bool:
    suits = f.by_suit.values()
    match cls:
        case FortuneClass.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH:
            return not f.jokers and any(len(r) == 7 and _has_run(r, 0, _SEVEN_WINDOWS)
                                        for r in suits)
        case FortuneClass.ROYAL_FLUSH_ROYAL_MATCH:
            return f.royal_match()
        case FortuneClass.WILD_SEVEN_CARD_STRAIGHT_FLUSH:
            return bool(f.jokers) and any(len(r) == 6 and _has_run(r, 1, _SEVEN_WINDOWS)
                                          for r in suits)
        case FortuneClass.FIVE_ACES:
            return f.shape[0] == 5
        case FortuneClass.ROYAL_FLUSH:
            return any(len(_ROYAL - r) <= f.jokers for r in suits)
        case FortuneClass.STRAIGHT_FLUSH:
            return any(_has_run(r, f.jokers, STRAIGHT_WINDOWS) for r in suits)
        case FortuneClass.FOUR_OF_A_KIND:
            return f.shape[0] >= 4
        case FortuneClass.FULL_HOUSE:
            return f.shape[0] >= 3 and f.shape[1] >= 2
        case FortuneClass.FLUSH:
            return any(len(r) + f.jokers >= 5 for r in suits)
        case FortuneClass.THREE_OF_A_KIND:
            return f.shape[0] >= 3
        case FortuneClass.STRAIGHT:
            return _has_run(f.ranks, f.jokers, STRAIGHT_WINDOWS)
        case FortuneClass.THREE_PAIR:
            return f.shape[:3] == [2, 2, 2]
    raise AssertionError(cls)  # pragma: no cover - the match is exhaustive


def holds(cards: Sequence[Card], cls: FortuneClass) -> bool:
    """Whether seven cards can be read as a hand of class ``cls``, not only as their best.

    A table that does not list a hand's own class pays the best listed class it holds
    (a seven-card straight flush holds a straight flush; five aces hold four of a kind).
    """
    return _holds(_Facts(cards), cls)


def held_classes(cards: Sequence[Card]) -> list[FortuneClass]:
    """Every Fortune class the seven cards hold, top first."""
    facts = _Facts(cards)
    return [cls for cls in FortuneClass if _holds(facts, cls)]


def fortune_class(cards: Sequence[Card]) -> FortuneClass | None:
    """The Fortune class of seven cards, or None for a losing hand: the top class they hold.

    Precedence is the class order of the rules README, so trips beside a straight are trips.
    """
    facts = _Facts(cards)
    for cls in FortuneClass:
        if _holds(facts, cls):
            return cls
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
