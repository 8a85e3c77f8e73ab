"""The structural Fortune counter against the engine (hand by hand on small decks) and against
the published full-deck counts (rules README, "Fortune bonus and Envy")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_console.math.deck import FULL_DECK, CountDeck
from dealer_console.math.fortune_counts import count_fortune
from dealer_console.seven import FortuneClass
from tests.math.brute import fortune_by_engine

GOLDEN = json.loads((Path(__file__).parent / "golden" / "fortune_counts_53.json").read_text())

# Three decks that together reach every class: the royal ranks with the joker (royal match,
# five aces, royal flush), a wheel-to-seven deck with the joker (both seven-card straight
# flushes, flush, nothing), and a joker-less run (natural hands only). 402,844 hands in all.
REDUCED_DECKS = [
    CountDeck(ranks=(10, 11, 12, 13, 14), suits=4, joker=True),
    CountDeck(ranks=(14, 2, 3, 4, 5, 6, 7), suits=3, joker=True),
    CountDeck(ranks=(2, 3, 4, 5, 6, 7, 8), suits=3, joker=False),
]


def _by_id(counts: dict[FortuneClass | None, int]) -> dict[str, int]:
    return {(cls.value if cls else "nothing"): n for cls, n in counts.items()}


def test_full_deck_reproduces_published_counts() -> None:
    tally = count_fortune(FULL_DECK)
    assert tally.total == GOLDEN["hands"] == FULL_DECK.hands
    assert _by_id(tally.counts) == GOLDEN["counts"]


@pytest.mark.slow
@pytest.mark.parametrize("deck", REDUCED_DECKS, ids=lambda d: f"{len(d.ranks)}x{d.suits}")
def test_counter_equals_engine_on_every_hand_of_reduced_deck(deck: CountDeck) -> None:
    engine = fortune_by_engine(deck)
    counted = count_fortune(deck).counts
    assert sum(engine.values()) == deck.hands
    assert {k: v for k, v in counted.items() if v} == dict(engine)


def test_reduced_decks_reach_every_class() -> None:
    """The engine comparison above means something only if every class occurs in it."""
    reached = {cls for deck in REDUCED_DECKS for cls, n in count_fortune(deck).counts.items() if n}
    assert reached == {*FortuneClass, None}


@st.composite
def small_decks(draw: st.DrawFn) -> CountDeck:
    suits = draw(st.integers(1, 4))
    joker = draw(st.booleans())
    most = (13 - int(joker)) // suits
    count = draw(st.integers(max(1, -(-(7 - int(joker)) // suits)), min(13, most)))
    ranks = draw(st.lists(st.integers(2, 14), min_size=count, max_size=count, unique=True))
    return CountDeck(ranks=tuple(ranks), suits=suits, joker=joker)


@settings(max_examples=40, deadline=None)
@given(small_decks())
def test_counter_equals_engine_on_random_small_decks(deck: CountDeck) -> None:
    engine = fortune_by_engine(deck)
    counted = count_fortune(deck).counts
    assert sum(counted.values()) == deck.hands
    assert {k: v for k, v in counted.items() if v} == dict(engine)
