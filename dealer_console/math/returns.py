"""Exact return, house edge and hit frequency of Fortune and Ace-High paytables.

Figures are per unit wagered, as exact fractions. *Return* is what a wager gives back on average,
stake included (a win at ``N`` to 1 gives back ``N + 1``, a push gives back the stake, a loss
nothing); *house edge* is ``1 - return``; *hit frequency* is the chance the wager wins (a push is
not a hit). A line missing from a table loses, as in settlement
(``dealer_console.settlement.bonuses``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dealer_console.errors import ConsoleError
from dealer_console.math.ace_high_counts import AceHighTally, count_ace_high
from dealer_console.math.deck import HAND_SIZE
from dealer_console.math.fortune_counts import FortuneTally, count_fortune
from dealer_console.paytables import AceHighLine, Paytable, PaytableKind
from dealer_console.seven import FortuneClass


class PaytableKindError(ConsoleError, ValueError):
    """A paytable of the wrong kind for the figure asked."""


def _check_kind(table: Paytable, kind: PaytableKind) -> None:
    if table.kind is not kind:
        raise PaytableKindError(
            f"paytable {table.name} is a {table.kind.value} table, not a {kind.value} table"
        )


@dataclass(frozen=True, slots=True)
class LineFigure:
    """One line: the chance of landing on it and what it adds to the return."""

    id: str
    label: str
    pays: str
    probability: Fraction
    contribution: Fraction


@dataclass(frozen=True, slots=True)
class PaytableFigures:
    name: str
    title: str
    lines: tuple[LineFigure, ...]
    ret: Fraction
    hit_frequency: Fraction

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.ret

    @property
    def over_100(self) -> bool:
        """A return above 100%: the operator must not offer this table."""
        return self.ret > 1


def fortune_figures(table: Paytable, tally: FortuneTally | None = None) -> PaytableFigures:
    """Return of a Fortune paytable over every seven-card hand (issue 7)."""
    _check_kind(table, PaytableKind.FORTUNE)
    tally = tally or count_fortune()
    total = tally.total
    lines: list[LineFigure] = []
    ret = Fraction(0)
    hits = Fraction(0)
    for cls in FortuneClass:
        line = table.line(cls.value)
        if line is None:
            continue
        p = Fraction(tally.counts[cls], total)
        if line.push:
            back = Fraction(1)
        else:
            assert line.odds is not None
            back = Fraction(line.odds + 1)
            hits += p
        ret += p * back
        lines.append(LineFigure(line.id, line.label, line.describe(), p, p * back))
    return PaytableFigures(table.name, table.title, tuple(lines), ret, hits)


@dataclass(frozen=True, slots=True)
class AceHighOdds:
    """Chances of the three Ace-High lines, exactly (rules README, "Face Up")."""

    both: Fraction  # banker and player both ace-high pai gow
    banker_joker: Fraction  # banker ace-high with the joker, player not
    banker_natural: Fraction  # banker ace-high with a natural ace, player not

    @classmethod
    def from_tally(cls, tally: AceHighTally) -> AceHighOdds:
        # For each banker hand, the player's seven come from the other 46 cards.
        rest = tally.pairs // tally.hands
        assert tally.pairs == tally.hands * rest and tally.deck.size - HAND_SIZE >= HAND_SIZE
        return cls(
            both=Fraction(tally.both, tally.pairs),
            banker_joker=Fraction(tally.joker * rest - tally.both_joker, tally.pairs),
            banker_natural=Fraction(tally.natural * rest - tally.both_natural, tally.pairs),
        )

    def of(self, line: AceHighLine) -> Fraction:
        return {
            AceHighLine.BOTH: self.both,
            AceHighLine.BANKER_JOKER: self.banker_joker,
            AceHighLine.BANKER_NATURAL: self.banker_natural,
        }[line]


def ace_high_figures(table: Paytable, odds: AceHighOdds | None = None) -> PaytableFigures:
    """Return of an Ace-High paytable over every ordered (banker, player) pair of hands."""
    _check_kind(table, PaytableKind.ACE_HIGH)
    odds = odds or AceHighOdds.from_tally(count_ace_high())
    lines: list[LineFigure] = []
    ret = Fraction(0)
    hits = Fraction(0)
    for which in AceHighLine:
        line = table.line(which.value)
        if line is None:
            continue
        assert line.odds is not None
        p = odds.of(which)
        hits += p
        ret += p * (line.odds + 1)
        lines.append(LineFigure(line.id, line.label, line.describe(), p, p * (line.odds + 1)))
    return PaytableFigures(table.name, table.title, tuple(lines), ret, hits)


def ace_high_return(paytable: Paytable) -> Fraction:
    """Exact return of an Ace-High paytable; above 1 the table must not be offered.

    ``profile check`` flags such a table with this figure.
    """
    return ace_high_figures(paytable).ret


def fortune_return(paytable: Paytable) -> Fraction:
    """Exact return of a Fortune paytable (the envy is apart: see ``envy.py``)."""
    return fortune_figures(paytable).ret


def percent(value: Fraction, places: int = 4) -> str:
    """``Fraction(77656, 1000000)`` -> ``"7.7656%"``: rounded half away from zero, exactly."""
    return f"{decimal_text(value * 100, places)}%"


def decimal_text(value: Fraction, places: int = 4) -> str:
    """A fraction printed to ``places`` decimals without passing through a float."""
    scale = 10**places
    scaled = abs(value) * scale
    whole = int(scaled + Fraction(1, 2))
    sign = "-" if value < 0 and whole else ""
    text = f"{whole // scale}.{whole % scale:0{places}d}" if places else str(whole)
    return sign + text
