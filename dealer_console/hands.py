"""Five-card and two-card hand values, with the joker.

A hand value is a tuple of ints whose first item is the hand class; Python's tuple order is the
poker order, so two hands compare with ``<``/``==`` and a two-card value compares with a
five-card value the way the foul rule needs (a shorter prefix is lower).

Rules (rules README, "Cards"): the joker is an ace, or any card that completes a straight, a
flush or a straight flush, whichever is best. Two table options change values:
``wheel`` (A-2-3-4-5 is the lowest straight, or the second highest as at Catfish Bend, "Pai Gow
Poker Hand Rankings") and ``joker_in_flush`` (a joker in a flush that already holds an ace is the
highest missing rank, or another ace).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import lru_cache

from dealer_console.cards import ACE, Card

HandValue = tuple[int, ...]


class FiveClass(IntEnum):
    """Five-card classes, lowest first. A royal flush is the top straight flush."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_ACES = 9

    @property
    def id(self) -> str:
        """The class id used in JSON output (``five_aces``, ``high_card``...)."""
        return self.name.lower()


class Wheel(Enum):
    """Where A-2-3-4-5 ranks among straights (profile option ``wheel``)."""

    LOWEST = "lowest"
    SECOND_HIGHEST = "second_highest"


class JokerInFlush(Enum):
    """What a joker counts as in a flush that already holds an ace (``joker_in_flush``)."""

    HIGHEST_MISSING = "highest_missing"
    ACE = "ace"


@dataclass(frozen=True, slots=True)
class HandRules:
    """The table options that change how hands rank."""

    wheel: Wheel = Wheel.LOWEST
    joker_in_flush: JokerInFlush = JokerInFlush.HIGHEST_MISSING


DEFAULT_RULES = HandRules()

_WHEEL_RANKS = frozenset({ACE, 2, 3, 4, 5})


def straight_key(ranks: frozenset[int] | set[int], rules: HandRules) -> int:
    """Order key of a five-rank straight, or 0 when the ranks are not a straight.

    Broadway is 15 only where the wheel is second highest, so the wheel can sit between it
    and K-high (14); otherwise the key is the straight's top card and the wheel's is 5.
    """
    if len(ranks) != 5:
        return 0
    if ranks == _WHEEL_RANKS:
        return 14 if rules.wheel is Wheel.SECOND_HIGHEST else 5
    high = max(ranks)
    if high - min(ranks) != 4:
        return 0
    if high == ACE and rules.wheel is Wheel.SECOND_HIGHEST:
        return 15
    return high


def _natural_value(ranks: list[int], flush: bool, rules: HandRules) -> HandValue:
    """Value of five ranks (the joker already replaced), given whether they are suited."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    order = [r for r, _ in groups]
    if shape[0] == 5:
        return (FiveClass.FIVE_ACES,)
    skey = straight_key(frozenset(ranks), rules)
    if skey and flush:
        return (FiveClass.STRAIGHT_FLUSH, skey)
    if shape[0] == 4:
        return (FiveClass.FOUR_OF_A_KIND, *order)
    if shape[:2] == [3, 2]:
        return (FiveClass.FULL_HOUSE, *order)
    if flush:
        return (FiveClass.FLUSH, *sorted(ranks, reverse=True))
    if skey:
        return (FiveClass.STRAIGHT, skey)
    if shape[0] == 3:
        return (FiveClass.THREE_OF_A_KIND, *order)
    if shape[:2] == [2, 2]:
        return (FiveClass.TWO_PAIR, *order)
    if shape[0] == 2:
        return (FiveClass.PAIR, *order)
    return (FiveClass.HIGH_CARD, *order)


def _straight_windows() -> list[frozenset[int]]:
    windows = [frozenset(range(high - 4, high + 1)) for high in range(ACE, 5, -1)]
    windows.append(_WHEEL_RANKS)
    return windows


STRAIGHT_WINDOWS = tuple(_straight_windows())


def _joker_value(naturals: Sequence[Card], rules: HandRules) -> HandValue:
    """Best value of four natural cards and the joker."""
    ranks = [c.rank for c in naturals]
    suited = len({c.suit for c in naturals}) == 1
    best = _natural_value([*ranks, ACE], False, rules)  # the joker as an (offsuit) ace
    distinct = frozenset(ranks)
    if len(distinct) == 4:
        for window in STRAIGHT_WINDOWS:
            if distinct <= window:
                filled = sorted(window)
                value = _natural_value(filled, suited, rules)
                best = max(best, value)
    if suited:
        if rules.joker_in_flush is JokerInFlush.ACE:
            filler = ACE
        else:
            filler = max(r for r in range(ACE, 1, -1) if r not in distinct)
        best = max(best, _natural_value([*ranks, filler], True, rules))
    return best


FIVE_CARD_VALUES_KEPT = 1 << 13
"""Five-card hands whose value is kept: a round reads the same hands several times (its House
Way, settlement and bonuses), and a rules batch a hand's 21 splits together. Kept by the
quarter million, the cache grew with every round for weeks of a table's play (when full,
90 MB and 0.9 million objects more, a full collection on the GUI thread 145 ms longer);
this few is as fast."""


@lru_cache(maxsize=FIVE_CARD_VALUES_KEPT)
def _five_value(cards: tuple[Card, ...], rules: HandRules) -> HandValue:
    naturals = [c for c in cards if not c.is_joker]
    if len(naturals) == 5:
        flush = len({c.suit for c in naturals}) == 1
        return _natural_value([c.rank for c in naturals], flush, rules)
    return _joker_value(naturals, rules)


def five_card_value(cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> HandValue:
    """Value of a five-card (high) hand."""
    if len(cards) != 5:
        raise ValueError(f"a high hand has 5 cards, not {len(cards)}")
    return _five_value(tuple(sorted(cards)), rules)


def two_card_value(cards: Sequence[Card]) -> HandValue:
    """Value of a two-card (low) hand: a pair or two high cards; the joker is an ace."""
    if len(cards) != 2:
        raise ValueError(f"a low hand has 2 cards, not {len(cards)}")
    high, low = sorted((ACE if c.is_joker else c.rank for c in cards), reverse=True)
    if high == low:
        return (FiveClass.PAIR, high)
    return (FiveClass.HIGH_CARD, high, low)


def five_card_class(value: HandValue) -> FiveClass:
    return FiveClass(value[0])
