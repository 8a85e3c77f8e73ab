"""The ace-high counter against the engine, single hands and banker/player pairs, on small decks;
and the full deck against an independent, slower count of the same figures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_console.math.ace_high_counts import _valid_rank_sets, count_ace_high, suit_choices
from dealer_console.math.deck import FULL_DECK, HAND_SIZE, CountDeck
from tests.math.brute import ace_high_by_engine

REDUCED_DECKS = [
    CountDeck(ranks=(14, 2, 3, 4, 6, 7, 8, 9, 11), suits=2, joker=True),
    CountDeck(ranks=(14, 13, 12, 10, 9, 8, 6, 5, 3), suits=2, joker=True),
    CountDeck(ranks=(14, 12, 10, 8, 7, 5, 3), suits=3, joker=True),
]


@pytest.mark.parametrize("deck", REDUCED_DECKS, ids=lambda d: f"{len(d.ranks)}x{d.suits}")
def test_counter_equals_engine_on_reduced_deck(deck: CountDeck) -> None:
    tally = count_ace_high(deck)
    counted = (tally.natural, tally.joker, tally.both_natural, tally.both_joker)
    assert counted == ace_high_by_engine(deck)
    assert tally.natural and tally.joker and tally.both_natural and tally.both_joker


@st.composite
def small_decks(draw: st.DrawFn) -> CountDeck:
    suits = draw(st.integers(1, 3))
    joker = draw(st.booleans())
    count = draw(st.integers(6, max(6, min(13, 15 // suits))))
    ranks = draw(st.lists(st.integers(2, 14), min_size=count, max_size=count, unique=True))
    return CountDeck(ranks=(14, *[r for r in ranks if r != 14]), suits=suits, joker=joker)


@settings(max_examples=40, deadline=None)
@given(small_decks())
def test_counter_equals_engine_on_random_small_decks(deck: CountDeck) -> None:
    tally = count_ace_high(deck)
    counted = (tally.natural, tally.joker, tally.both_natural, tally.both_joker)
    assert counted == ace_high_by_engine(deck)


def _suits_without_flush(size: int, limit: int) -> int:
    """Independent count: every suit word over four suits, keep those with no suit over limit."""
    count = 0
    for word in range(4**size):
        seen = [0, 0, 0, 0]
        for _ in range(size):
            seen[word % 4] += 1
            word //= 4
        count += max(seen) <= limit
    return count


def test_full_deck_single_counts_by_plain_enumeration_of_suits() -> None:
    tally = count_ace_high(FULL_DECK)
    assert tally.natural == len(_valid_rank_sets(FULL_DECK, 0)) * _suits_without_flush(7, 4)
    assert tally.joker == len(_valid_rank_sets(FULL_DECK, 1)) * _suits_without_flush(6, 3)


def test_full_deck_joint_counts_by_plain_pair_loop() -> None:
    """The superset-sum shortcut against a loop over every pair of rank sets."""
    tally = count_ace_high(FULL_DECK)
    sets = {j: _valid_rank_sets(FULL_DECK, j) for j in (0, 1)}
    expected = {}
    for banker in (0, 1):
        total = 0
        for player in (0, 1) if banker == 0 else (0,):
            k1, k2 = HAND_SIZE - banker, HAND_SIZE - player
            for a in sets[banker]:
                for b in sets[player]:
                    o = (a & b).bit_count()
                    total += suit_choices(o, k1 - o, k2 - o, 4 - banker, 4 - player, 4)
        expected[banker] = total
    assert (tally.both_natural, tally.both_joker) == (expected[0], expected[1])


@pytest.mark.parametrize(("both", "only1", "only2"), [(0, 3, 2), (2, 1, 1), (3, 0, 2)])
def test_suit_choices_against_plain_enumeration(both: int, only1: int, only2: int) -> None:
    """Three suits, limits 2 and 1: every labelled suit assignment checked directly."""
    expected = 0
    n1, n2 = both + only1, both + only2
    for first in range(3**n1):
        a = [(first // 3**i) % 3 for i in range(n1)]
        for second in range(3**n2):
            b = [(second // 3**i) % 3 for i in range(n2)]
            if any(a[i] == b[i] for i in range(both)):
                continue
            if max(a.count(s) for s in range(3)) <= 2 and max(b.count(s) for s in range(3)) <= 1:
                expected += 1
    assert suit_choices(both, only1, only2, 2, 1, 3) == expected


def test_pair_denominator_is_all_ordered_disjoint_pairs() -> None:
    assert count_ace_high(FULL_DECK).pairs == 154_143_080 * 53_524_680
