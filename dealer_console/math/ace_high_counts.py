"""Exact counts of ace-high pai gow hands, alone and for a banker and a player together.

Ace-high pai gow (rules README, "Face Up: the dealer's ace-high pai gow"; engine:
``dealer_console.seven.ace_high_status``) is a property of two separate things:

* the *rank set*: seven different ranks with a natural ace and no five in a run, or six different
  non-ace ranks beside the joker, none four of a five-rank run (the joker would fill it);
* the *suits*: no suit holding five cards (four beside the joker).

Whether a choice of suits avoids a flush does not depend on which ranks carry them, only on how
many cards there are. So a single count is (valid rank sets) x (suit choices without a flush).

For a banker and a player on disjoint cards, a rank both hold must come in two different suits.
The number of suit choices then depends only on the two sizes and the number ``o`` of shared
ranks; it is counted once per (sizes, ``o``) by walking the ranks and tracking, suit by suit, how
many cards each hand has. The number of pairs of valid rank sets sharing exactly ``o`` ranks
comes from superset sums: with ``g(T)`` the number of valid sets containing ``T``, the sum of
``g1(T) g2(T)`` over sets ``T`` of size ``i`` counts pairs weighted by C(shared, i), and a
binomial inversion turns those into exact-overlap counts. ``docs/math.md`` has the details.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb

from dealer_console.cards import ACE
from dealer_console.math.deck import FULL_DECK, HAND_SIZE, CountDeck, mask_of
from dealer_console.math.fortune_counts import FIVE_WINDOW_MASKS

_LOW_BIT = 2  # ranks are 2..14; bit r - 2 in the superset-sum tables


@dataclass(frozen=True, slots=True)
class AceHighTally:
    """Ace-high pai gow counts over one deck.

    ``natural``/``joker``: banker hands that are ace-high with a natural ace / with the joker.
    ``both_natural``/``both_joker``: ordered (banker, player) pairs of disjoint hands where both are
    ace-high, split by the banker's kind. ``hands`` and ``pairs`` are the denominators.
    """

    deck: CountDeck
    natural: int
    joker: int
    both_natural: int
    both_joker: int

    @property
    def hands(self) -> int:
        return self.deck.hands

    @property
    def pairs(self) -> int:
        return self.deck.hands * comb(self.deck.size - HAND_SIZE, HAND_SIZE)

    @property
    def both(self) -> int:
        return self.both_natural + self.both_joker


def _valid_rank_sets(deck: CountDeck, jokers: int) -> list[int]:
    """Rank masks that can be ace-high pai gow with ``jokers`` jokers in the hand."""
    size = HAND_SIZE - jokers
    out = []
    for ranks in combinations(sorted(deck.ranks), size):
        has_ace = ACE in ranks
        if has_ace == bool(jokers):  # the ace is natural xor the joker
            continue
        mask = mask_of(ranks)
        if any((w & ~mask).bit_count() <= jokers for w in FIVE_WINDOW_MASKS):
            continue
        out.append(mask)
    return out


@cache
def suit_choices(both: int, only1: int, only2: int, limit1: int, limit2: int, suits: int) -> int:
    """Ways to give suits to two hands' distinct ranks with no suit over each hand's limit.

    ``both`` ranks are held by the two hands (different suits, since the cards differ), ``only1``
    by the first alone, ``only2`` by the second alone. States are the per-suit card counts of
    the two hands, sorted because suits are interchangeable.
    """
    start = ((0, 0),) * suits
    states: dict[tuple[tuple[int, int], ...], int] = {start: 1}

    def step(moves: list[tuple[int, int, int, int]]) -> None:
        nonlocal states
        nxt: dict[tuple[tuple[int, int], ...], int] = {}
        for state, ways in states.items():
            for s1, d1, s2, d2 in moves:
                cells = list(state)
                b, p = cells[s1]
                cells[s1] = (b + d1, p)
                b, p = cells[s2]
                cells[s2] = (b, p + d2)
                if any(b > limit1 or p > limit2 for b, p in cells):
                    continue
                key = tuple(sorted(cells))
                nxt[key] = nxt.get(key, 0) + ways
        states = nxt

    shared = [(s1, 1, s2, 1) for s1 in range(suits) for s2 in range(suits) if s1 != s2]
    first = [(s, 1, s, 0) for s in range(suits)]
    second = [(s, 0, s, 1) for s in range(suits)]
    for moves, n in ((shared, both), (first, only1), (second, only2)):
        for _ in range(n):
            step(moves)
    return sum(states.values())


def _limit(jokers: int) -> int:
    """Most natural cards one suit may hold without a flush (five cards with the joker)."""
    return 4 - jokers


def _superset_sums(masks: list[int]) -> list[int]:
    """``g[T]`` = how many of ``masks`` contain ``T`` (over the 13 rank bits)."""
    g = [0] * (1 << 13)
    for m in masks:
        g[m >> _LOW_BIT] += 1
    for bit in range(13):
        b = 1 << bit
        for t in range(1 << 13):
            if not t & b:
                g[t] += g[t | b]
    return g


def _overlaps(first: list[int], second: list[int]) -> list[int]:
    """``out[o]`` = ordered pairs (A in first, B in second) sharing exactly ``o`` ranks."""
    g1 = _superset_sums(first)
    g2 = _superset_sums(second)
    weighted = [0] * 14  # sum over pairs of C(shared, i)
    for t in range(1 << 13):
        if g1[t] and g2[t]:
            weighted[t.bit_count()] += g1[t] * g2[t]
    return [
        sum((-1) ** (i - o) * comb(i, o) * weighted[i] for i in range(o, 14)) for o in range(14)
    ]


@cache
def count_ace_high(deck: CountDeck = FULL_DECK) -> AceHighTally:
    """Single and joint ace-high counts over ``deck``, exactly."""
    q = deck.suits
    kinds = (0, 1) if deck.joker else (0,)
    sets = {j: _valid_rank_sets(deck, j) for j in kinds}
    single = {
        j: len(sets[j]) * suit_choices(0, HAND_SIZE - j, 0, _limit(j), 0, q) for j in kinds
    }
    both = {}
    for banker in kinds:
        total = 0
        for player in kinds:
            if banker + player > 1:  # one joker in the deck
                continue
            k1, k2 = HAND_SIZE - banker, HAND_SIZE - player
            for o, pairs in enumerate(_overlaps(sets[banker], sets[player])):
                if pairs:
                    total += pairs * suit_choices(
                        o, k1 - o, k2 - o, _limit(banker), _limit(player), q
                    )
        both[banker] = total
    return AceHighTally(
        deck=deck,
        natural=single[0],
        joker=single.get(1, 0),
        both_natural=both[0],
        both_joker=both.get(1, 0),
    )
