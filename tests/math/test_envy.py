"""Envy: the published figures, and that they are the unconditional (marginal) ones."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from dealer_console.math.deck import HAND_SIZE, CountDeck
from dealer_console.math.envy import envy_figures, envy_probability
from dealer_console.math.fortune_counts import count_fortune
from dealer_console.math.returns import decimal_text, percent
from dealer_console.paytables import get_paytable
from dealer_console.settlement.bonuses import envy_line


def test_published_envy_figures() -> None:
    """0.33707% and $0.046342 per other player on the $5/.../$5,000 table (issue 7)."""
    assert percent(envy_probability(), 5) == "0.33707%"
    figures = envy_figures(get_paytable("wa-fortune-2"))
    assert decimal_text(figures.per_other_hand_cents / 100, 6) == "0.046342"
    assert figures.per_holder_cents(5) == 5 * figures.per_other_hand_cents


def test_envy_return_is_the_other_hand_marginal_over_every_deal_of_a_small_deck() -> None:
    """Holder and one other hand dealt from the same deck: averaging the envy the holder is paid
    over every ordered pair gives exactly the single-hand figure, however the two interact."""
    deck = CountDeck(ranks=(2, 3, 4, 5, 6, 7, 8), suits=2, joker=True)
    table = get_paytable("wa-fortune-2")
    cards = deck.cards()
    paid = 0
    pairs = 0
    for holder in combinations(cards, HAND_SIZE):
        rest = [c for c in cards if c not in holder]
        for other in combinations(rest, HAND_SIZE):
            line = envy_line(table, other)
            paid += line.envy_cents or 0 if line is not None else 0
            pairs += 1
    tally = count_fortune(deck)
    assert paid > 0
    assert envy_figures(table, tally).per_other_hand_cents == Fraction(paid, pairs)
