"""Envy: the chance that another hand earns the envy holders a payout, and what it is worth.

Rules README, "Fortune bonus and Envy": the holder of an envy bet collects the table's fixed
amount once per *other* Fortune-wagering hand whose class is four of a kind or above.

The figures are unconditional: each other hand, looked at alone before the deal, is seven cards
drawn from the full deck, so its chance of each class is the full-deck count over C(53,7). The
hands at a table are not independent (they share a deck), but an expected value is a sum over
hands, and each term needs only that one hand's own (marginal) distribution. So the envy return
per holder with ``n`` other Fortune hands is exactly ``n`` times the figure per other hand, with
no independence assumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dealer_console.math.fortune_counts import FortuneTally, count_fortune
from dealer_console.math.returns import LineFigure, PaytableKindError
from dealer_console.money import format_cents
from dealer_console.paytables import Paytable, PaytableKind
from dealer_console.seven import FortuneClass


@dataclass(frozen=True, slots=True)
class EnvyFigures:
    name: str
    title: str
    lines: tuple[LineFigure, ...]  # contribution in cents per other hand
    per_other_hand_cents: Fraction  # expected envy paid to one holder for one other hand

    def per_holder_cents(self, others: int) -> Fraction:
        """Expected envy paid to one holder when ``others`` other hands hold a Fortune wager."""
        return self.per_other_hand_cents * others


def envy_probability(tally: FortuneTally | None = None) -> Fraction:
    """Chance that one hand holds four of a kind or better (an envy hand)."""
    tally = tally or count_fortune()
    hits = sum(n for cls, n in tally.counts.items() if cls is not None and cls.is_envy_hand)
    return Fraction(hits, tally.total)


def envy_figures(table: Paytable, tally: FortuneTally | None = None) -> EnvyFigures:
    """Envy return of a Fortune paytable, in cents per other hand."""
    if table.kind is not PaytableKind.FORTUNE:
        raise PaytableKindError(f"paytable {table.name} is not a Fortune table")
    tally = tally or count_fortune()
    lines = []
    total = Fraction(0)
    for cls in FortuneClass:
        line = table.line(cls.value)
        if line is None or line.envy_cents is None:
            continue
        p = Fraction(tally.counts[cls], tally.total)
        lines.append(LineFigure(line.id, line.label, format_cents(line.envy_cents), p,
                                p * line.envy_cents))
        total += p * line.envy_cents
    return EnvyFigures(table.name, table.title, tuple(lines), total)
