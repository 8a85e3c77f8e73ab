"""Fortune and Ace-High returns: the published figure, the settlement path on a small deck, and
linearity in the pays over the published counts."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_console.cards import Card
from dealer_console.math.ace_high_counts import count_ace_high
from dealer_console.math.deck import HAND_SIZE, CountDeck
from dealer_console.math.returns import (
    AceHighOdds,
    ace_high_figures,
    ace_high_return,
    decimal_text,
    fortune_figures,
    percent,
)
from dealer_console.paytables import PayLine, get_paytable, paytable_names
from dealer_console.settlement.bonuses import ace_high_due
from dealer_console.settlement.model import LineOutcome
from dealer_console.seven import ace_high_status

GOLDEN = json.loads((Path(__file__).parent / "golden" / "fortune_counts_53.json").read_text())


def test_published_fortune_house_edge() -> None:
    """8000/2000/1000/400/150/50/25/5/4/3/2 has a house edge of 7.7656% (issue 7)."""
    for name in ("wa-fortune-2", "catfish-bend-fortune"):
        assert percent(fortune_figures(get_paytable(name)).house_edge) == "7.7656%"


def test_every_shipped_table_has_figures() -> None:
    for name in paytable_names():
        table = get_paytable(name)
        if table.kind.value == "fortune":
            f = fortune_figures(table)
        elif table.kind.value == "ace_high":
            f = ace_high_figures(table)
        else:
            continue
        assert 0 < f.hit_frequency < 1
        assert sum(li.contribution for li in f.lines) == f.ret


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 10_000), min_size=11, max_size=11), st.booleans())
def test_fortune_return_is_linear_in_the_pays(odds: list[int], three_pair_push: bool) -> None:
    """Any pays on the eleven paying lines: return = sum of count x (odds + 1) / C(53,7)."""
    base = get_paytable("wa-fortune-1")
    paying = [li for li in base.lines if not li.push][:11]
    lines = [replace(li, odds=o) for li, o in zip(paying, odds, strict=True)]
    if three_pair_push:
        lines.append(PayLine("three_pair", "Three pair", push=True))
    table = replace(base, lines=tuple(lines))
    expected = sum(GOLDEN["counts"][li.id] * (o + 1) for li, o in zip(paying, odds, strict=True))
    if three_pair_push:
        expected += GOLDEN["counts"]["three_pair"]
    assert fortune_figures(table).ret == Fraction(expected, GOLDEN["hands"])


def test_ace_high_return_matches_settlement_over_every_pair_of_a_small_deck() -> None:
    """Seven ranks in two suits and the joker: 51,480 ordered pairs, each settled."""
    deck = CountDeck(ranks=(14, 12, 10, 8, 6, 4, 2), suits=2, joker=True)
    odds = AceHighOdds.from_tally(count_ace_high(deck))
    cards = deck.cards()
    status = {hand: ace_high_status(hand) for hand in combinations(cards, HAND_SIZE)}
    for name in ("california-ace-high", "wa-ace-high-20-15-8", "wa-ace-high-4"):
        table = get_paytable(name)
        back = 0
        pairs = 0
        for banker, b_status in status.items():
            rest: list[Card] = [c for c in cards if c not in banker]
            for player in combinations(rest, HAND_SIZE):
                due = ace_high_due(table, player, b_status, 1)
                back += due.amount + 1 if due.outcome is LineOutcome.WIN else 0
                pairs += 1
        assert odds.both > 0 and odds.banker_joker > 0 and odds.banker_natural > 0
        assert ace_high_figures(table, odds).ret == Fraction(back, pairs)


def test_ace_high_table_above_100_percent_is_flagged() -> None:
    table = get_paytable("wa-ace-high-20-15-8")
    assert ace_high_return(table) > 1
    assert ace_high_figures(table).over_100
    assert not ace_high_figures(get_paytable("california-ace-high")).over_100


def test_decimal_text_rounds_exactly() -> None:
    assert decimal_text(Fraction(5, 100000), 4) == "0.0001"  # half rounds away from zero
    assert decimal_text(Fraction(-1, 3), 4) == "-0.3333"
    assert decimal_text(Fraction(-1, 10**9), 4) == "0.0000"
    assert percent(Fraction(1, 8)) == "12.5000%"
