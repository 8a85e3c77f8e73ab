"""Jackpot line chances against the engine's qualifier on small decks; break-even identities."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_console.jackpot.qualify import winning_line
from dealer_console.jackpot_values.paytable import load
from dealer_console.math.deck import HAND_SIZE, CountDeck
from dealer_console.math.fortune_counts import count_fortune
from dealer_console.math.jackpot import jackpot_figures, line_counts
from dealer_console.paytables import get_paytable
from dealer_console.settlement.bonuses import jackpot_line
from dealer_console.seven import FortuneClass

TABLES = ("fupgpp-wa01", "fupgpp-wa03", "fupgpp-wa07", "fupgpp-ml02")
# Seven-card straight flushes with and without a royal, royal match, five aces: 26,026 hands.
DECKS = [
    CountDeck(ranks=(8, 9, 10, 11, 12, 13, 14), suits=2, joker=True),
    CountDeck(ranks=(7, 8, 9, 10, 11, 12, 13), suits=2, joker=True),
    CountDeck(ranks=(10, 11, 12, 13, 14), suits=3, joker=True),
    CountDeck(ranks=(12, 13, 14), suits=4, joker=True),
]


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: f"{len(d.ranks)}x{d.suits}")
def test_line_counts_match_qualifier_and_settlement(deck: CountDeck) -> None:
    hands = list(combinations(deck.cards(), HAND_SIZE))
    tally = count_fortune(deck)
    for name in TABLES:
        table = load(name)
        by_qualifier: Counter[int] = Counter()
        by_settlement: Counter[str] = Counter()
        for hand in hands:
            line = winning_line(table, hand)
            if line is not None:
                by_qualifier[table.number_of(line)] += 1
            pay = jackpot_line(get_paytable(name), hand)
            if pay is not None:
                by_settlement[pay.id] += 1
        counted = {n: c for n, c in line_counts(table, tally).items() if c}
        assert counted == dict(by_qualifier), name
        # settlement names the class line; the jackpot view may merge two classes in one line
        merged: Counter[int] = Counter()
        for line_id, c in by_settlement.items():
            line = next(li for li in table.lines if any(h.value == line_id for h in li.hands))
            merged[table.number_of(line)] += c
        assert counted == dict(merged), name


def test_decks_reach_the_fallbacks() -> None:
    """The comparison above must see a seven-card flush with and without a royal, and a royal
    match, so that WA03's and WA07's missing lines are exercised."""
    seen: Counter[str] = Counter()
    for deck in DECKS:
        t = count_fortune(deck)
        for cls, n in t.holding_royal.items():
            seen[cls.value + "+royal"] += n
            seen[cls.value + "-royal"] += t.counts[cls] - n
        seen["royal_match"] += t.counts[FortuneClass.ROYAL_FLUSH_ROYAL_MATCH]
    assert all(seen[k] for k in (
        "natural_seven_card_straight_flush+royal", "natural_seven_card_straight_flush-royal",
        "wild_seven_card_straight_flush+royal", "wild_seven_card_straight_flush-royal",
        "royal_match"))


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(TABLES), st.integers(1, 10**9), st.integers(1, 10_000))
def test_return_at_break_even_meter_is_exactly_one(name: str, meter: int, wager: int) -> None:
    f = jackpot_figures(load(name))
    meters = {level: meter for level in f.meter_share}
    for level in f.meter_share:
        be = f.break_even_cents(level, meters, wager)
        assert be is not None
        assert f.return_at({**meters, level: be}, wager) == 1  # type: ignore[dict-item]


def test_long_run_return_adds_the_meter_inflow() -> None:
    f = jackpot_figures(load("fupgpp-wa01"))
    rates = {"main": Fraction(7, 10)}
    zero = {"main": Fraction(0)}
    seed = {"main": 1_000_000}
    tray = f.long_run_return(rates, zero, seed, 100)
    p_reset = f.reset_chance["main"]
    assert p_reset == Fraction(32, 154_143_080)  # only the natural seven-card line is 100%
    assert tray == f.fixed_return + Fraction(7, 10) + p_reset * 10_000
    assert f.long_run_return(rates, zero, seed, 100, fixed_from_meter=True) == tray - f.fixed_return
