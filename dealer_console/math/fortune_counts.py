"""Exact count of each Fortune class over every seven-card hand, without visiting the hands.

Method (``docs/math.md`` gives it in full):

1. A hand is a *rank multiset* (how many cards of each rank, the joker apart) and a choice of
   suits. Without a flush, the Fortune class depends on the ranks alone (five aces, quads, full
   house, trips, straight, three pair or nothing: ``dealer_console.seven.fortune_class``), so
   every multiset ``M`` adds ``prod C(q, c_r)`` hands to its rank class.
2. A flush needs five natural cards of one suit, or four beside the joker; in seven cards only
   one suit can have that many. So a flush hand is: its flush suit (``q`` ways), the set ``S`` of
   ranks it holds in that suit, and a *rest* of at most two natural cards from the other suits.
   There are only a few thousand ``S`` and about a hundred rests each. For each, the flush-side
   class (seven-card straight flushes, royal flush + royal match, royal, straight flush) comes
   from ``S``; quads and full houses from the merged ranks beat a plain flush. These hands were
   counted under their rank class in step 1, so they are moved from it to their true class.

The deck may be any :class:`~dealer_console.math.deck.CountDeck`, so the same code is checked
hand by hand against the engine on small decks and against the published full-deck counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb

from dealer_console.cards import ACE, KING, QUEEN
from dealer_console.hands import STRAIGHT_WINDOWS
from dealer_console.math.deck import FULL_DECK, HAND_SIZE, CountDeck, mask_of
from dealer_console.seven import _SEVEN_WINDOWS, FortuneClass

F = FortuneClass

FIVE_WINDOW_MASKS = tuple(mask_of(w) for w in STRAIGHT_WINDOWS)
SEVEN_WINDOW_MASKS = tuple(mask_of(w) for w in _SEVEN_WINDOWS)
ROYAL_MASK = mask_of((10, 11, QUEEN, KING, ACE))

# A rank multiset is packed into one int, three bits per rank at bit 3*rank, so that the
# multiset of a flush suit and that of the rest add up to the hand's multiset.
_BITS = 3
_FIELD = (1 << _BITS) - 1

FortuneCounts = dict[FortuneClass | None, int]
"""Hands per Fortune class; ``None`` holds the hands that win nothing."""


@dataclass(frozen=True, slots=True)
class FortuneTally:
    """The counts and the deck they were taken over."""

    deck: CountDeck
    counts: FortuneCounts
    holding_royal: dict[FortuneClass, int]
    """Hands of a seven-card straight flush class that also hold a royal flush: a jackpot table
    without a seven-card line pays them as a royal flush, the others as a straight flush."""

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def rank_class(counts: list[int], ranks_mask: int, aces: int, jokers: int) -> FortuneClass | None:
    """Fortune class of a hand that holds no flush, from its ranks alone.

    ``counts`` are the natural cards per rank present, ``aces`` the natural aces. As in the engine,
    outside straights and flushes the joker can only be an ace (rules README, "Cards").
    """
    shape = sorted(counts, reverse=True)
    if jokers:
        if aces == 5 - jokers:
            return F.FIVE_ACES
        if aces:
            shape.remove(aces)
        shape.append(aces + jokers)
        shape.sort(reverse=True)
    top = shape[0]
    if top >= 4:
        return F.FOUR_OF_A_KIND
    second = shape[1] if len(shape) > 1 else 0
    if top == 3:
        return F.FULL_HOUSE if second >= 2 else F.THREE_OF_A_KIND
    for window in FIVE_WINDOW_MASKS:
        if (window & ~ranks_mask).bit_count() <= jokers:
            return F.STRAIGHT
    if top == 2 and second == 2 and len(shape) > 2 and shape[2] == 2:
        return F.THREE_PAIR
    return None


def _multisets(
    ranks: tuple[int, ...], size: int, suits: int
) -> Iterator[tuple[int, int, list[int], int]]:
    """Every rank multiset of ``size`` natural cards: (packed key, rank mask, counts, hands).

    ``hands`` is the number of ways to give the cards suits: prod C(suits, count).
    """
    n = len(ranks)
    ways = [comb(suits, c) for c in range(suits + 1)]

    def walk(
        i: int, left: int, key: int, mask: int, counts: list[int], hands: int
    ) -> Iterator[tuple[int, int, list[int], int]]:
        if left == 0:
            yield key, mask, counts, hands
            return
        if i == n:
            return
        rank = ranks[i]
        yield from walk(i + 1, left, key, mask, counts, hands)
        for c in range(1, min(suits, left) + 1):
            yield from walk(
                i + 1,
                left - c,
                key + (c << (_BITS * rank)),
                mask | (1 << rank),
                [*counts, c],
                hands * ways[c],
            )

    yield from walk(0, size, 0, 0, [], 1)


def _rests(ranks: tuple[int, ...], size: int, others: int) -> list[tuple[int, int]]:
    """Multisets of ``size`` <= 2 natural cards outside the flush suit: (packed key, ways)."""
    if size == 0:
        return [(0, 1)]
    if size == 1:
        return [(1 << (_BITS * r), others) for r in ranks if others]
    out = [(2 << (_BITS * r), comb(others, 2)) for r in ranks if others >= 2]
    out += [((1 << (_BITS * a)) + (1 << (_BITS * b)), others * others)
            for a, b in combinations(ranks, 2) if others]
    return out


def _flush_top(suited: int, size: int, jokers: int) -> FortuneClass | None:
    """Seven-card straight flushes: all seven cards (joker included) in one suit and in a run."""
    if jokers == 0 and size == 7 and suited in SEVEN_WINDOW_MASKS:
        return F.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH
    if jokers and size == 6 and any((w & ~suited).bit_count() <= jokers
                                    for w in SEVEN_WINDOW_MASKS):
        return F.WILD_SEVEN_CARD_STRAIGHT_FLUSH
    return None


def _flush_low(suited: int, jokers: int) -> FortuneClass | None:
    """Royal flush or straight flush inside the flush suit, the joker filling one gap."""
    if (ROYAL_MASK & ~suited).bit_count() <= jokers:
        return F.ROYAL_FLUSH
    if any((w & ~suited).bit_count() <= jokers for w in FIVE_WINDOW_MASKS):
        return F.STRAIGHT_FLUSH
    return None


_KQ_KEY = (1 << (_BITS * KING)) + (1 << (_BITS * QUEEN))


@cache
def count_fortune(deck: CountDeck = FULL_DECK) -> FortuneTally:
    """Hands of ``deck`` per Fortune class, exactly."""
    counts: dict[FortuneClass | None, int] = {cls: 0 for cls in FortuneClass}
    counts[None] = 0
    holding_royal = {F.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: 0, F.WILD_SEVEN_CARD_STRAIGHT_FLUSH: 0}
    q = deck.suits
    ranks = tuple(sorted(deck.ranks))
    for jokers in (0, 1) if deck.joker else (0,):
        naturals = HAND_SIZE - jokers
        # Step 1: every hand under the class its ranks give.
        by_key: dict[int, FortuneClass | None] = {}
        for key, mask, mcounts, hands in _multisets(ranks, naturals, q):
            aces = mcounts[-1] if (mask >> ACE) & 1 else 0
            ranked = rank_class(mcounts, mask, aces, jokers)
            by_key[key] = ranked
            counts[ranked] += hands
        # Step 2: move the flush hands to their class.
        need = 5 - jokers
        for size in range(need, naturals + 1):
            rests = _rests(ranks, naturals - size, q - 1)
            for suited_ranks in combinations(ranks, size):
                suited = mask_of(suited_ranks)
                skey = sum(1 << (_BITS * r) for r in suited_ranks)
                top = _flush_top(suited, size, jokers)
                low = _flush_low(suited, jokers)
                match_ok = (
                    (suited & ~ROYAL_MASK) == 0
                    and (ROYAL_MASK & ~suited).bit_count() == jokers
                )
                for rkey, ways in rests:
                    mkey = skey + rkey
                    rc = by_key[mkey]
                    hands = q * ways
                    counts[rc] -= hands
                    if match_ok and rkey == _KQ_KEY:
                        # The rest is a king and a queen: suited (q - 1 ways) is a royal match.
                        matched = q * (q - 1)
                        counts[F.ROYAL_FLUSH_ROYAL_MATCH] += matched
                        hands -= matched
                    if top is not None:
                        cls: FortuneClass | None = top
                        if low is F.ROYAL_FLUSH:
                            holding_royal[top] += hands
                    elif rc is F.FIVE_ACES:
                        cls = rc
                    elif low is not None:
                        cls = low
                    elif rc is F.FOUR_OF_A_KIND or rc is F.FULL_HOUSE:
                        cls = rc
                    else:
                        cls = F.FLUSH
                    counts[cls] += hands
    return FortuneTally(deck, counts, holding_royal)
