"""Return of a jackpot paytable: now, at a given meter, and in the long run.

Washington document, "Face Up Pai Gow Poker Jackpot Paytables" and "Progressive systems
flexibility": fixed pays are "N for 1" (the wager is not returned), percentage pays take that
share of a meter; every wager feeds the meter by its contribution rate and the reserve by the
reserve rate; after a 100% award the meter starts again from the seed plus the reserve.

Two figures answer two questions:

* **Return at the meter** (a player's view of one wager now): each fixed line gives back ``N``
  times the wager, each percentage line that share of the meter as it stands. It grows with the
  meter; the *break-even meter* is where it reaches 100%.
* **Long-run return** (the operator's view): every cent put on a meter is paid out to players
  sooner or later, because a 100% award empties it. So over a long run the meters pay, per
  wager, the contribution and reserve rates plus the seed the casino puts in after each reset.
  Fixed pays come from the tray. Long-run return = fixed return + contribution + reserve +
  seed x P(100% award) / wager. Where the table takes all pays from the meter, the fixed pays
  are part of the meter's outflow and the long-run return is the meter inflow alone.

A hand's line follows settlement (``dealer_console.settlement.bonuses.jackpot_line``): its own
class, or the best listed class it necessarily holds (a royal flush + royal match is a royal
flush; a seven-card straight flush is a royal flush when it holds one, else a straight flush;
five aces are four of a kind).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from dealer_console.jackpot_values.paytable import FixedPay, JackpotLine, JackpotPaytable, MeterPay
from dealer_console.math.fortune_counts import FortuneTally, count_fortune
from dealer_console.seven import FortuneClass

F = FortuneClass


def _held(cls: FortuneClass, royal: bool) -> list[FortuneClass]:
    """Classes a hand of class ``cls`` can be paid as, best first."""
    rf = [F.ROYAL_FLUSH] if royal else []
    return {
        F.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: [cls, *rf, F.STRAIGHT_FLUSH],
        F.ROYAL_FLUSH_ROYAL_MATCH: [cls, F.ROYAL_FLUSH, F.STRAIGHT_FLUSH],
        F.WILD_SEVEN_CARD_STRAIGHT_FLUSH: [cls, *rf, F.STRAIGHT_FLUSH],
        F.FIVE_ACES: [cls, F.FOUR_OF_A_KIND],
        F.ROYAL_FLUSH: [cls, F.STRAIGHT_FLUSH],
    }.get(cls, [cls])


def _line_for(table: JackpotPaytable, held: list[FortuneClass]) -> JackpotLine | None:
    for cls in held:
        for line in table.lines:
            if cls in line.hands:
                return line
    return None


def line_counts(table: JackpotPaytable, tally: FortuneTally | None = None) -> dict[int, int]:
    """Hands hitting each line (by line number, from 1 at the top)."""
    tally = tally or count_fortune()
    out = {n: 0 for n in range(1, len(table.lines) + 1)}
    for cls, count in tally.counts.items():
        if cls is None:
            continue
        with_royal = tally.holding_royal.get(cls, 0)
        for royal, n in ((True, with_royal), (False, count - with_royal)):
            line = _line_for(table, _held(cls, royal))
            if n and line is not None:
                out[table.number_of(line)] += n
    return out


@dataclass(frozen=True, slots=True)
class JackpotFigures:
    """Exact figures for one jackpot paytable, per unit wagered."""

    name: str
    probabilities: tuple[tuple[JackpotLine, Fraction], ...]
    fixed_return: Fraction  # what the tray pays back per unit wagered
    meter_share: dict[str, Fraction]  # expected share of each meter taken per wager
    reset_chance: dict[str, Fraction]  # chance per wager of a 100% award on each meter

    def return_at(self, meters_cents: Mapping[str, int], wager_cents: int) -> Fraction:
        """Return of one wager with the meters standing at ``meters_cents``."""
        return self.fixed_return + sum(
            (share * meters_cents[level] / wager_cents for level, share in
             self.meter_share.items()),
            Fraction(0),
        )

    def break_even_cents(
        self, level: str, meters_cents: Mapping[str, int], wager_cents: int
    ) -> Fraction | None:
        """Meter ``level`` at which the return is 100%, the other meters as given.

        None when the level takes no share of the meter (nothing to break even on).
        """
        share = self.meter_share[level]
        if share == 0:
            return None
        others = {k: v for k, v in meters_cents.items() if k != level}
        rest = self.return_at({**others, level: 0}, wager_cents)
        return (1 - rest) * wager_cents / share

    def long_run_return(
        self,
        contribution: Mapping[str, Fraction],
        reserve: Mapping[str, Fraction],
        seed_cents: Mapping[str, int],
        wager_cents: int,
        fixed_from_meter: bool = False,
    ) -> Fraction:
        """Fixed pays plus everything the meters receive: rates and the casino's seeds.

        With ``fixed_from_meter`` the fixed pays are drawn from the meter too, so they are
        already inside the meter's inflow and not added again (assuming the meter never runs
        dry; the document warns that it may below about 70% contribution).
        """
        meters = sum(
            (
                contribution[level]
                + reserve[level]
                + self.reset_chance[level] * seed_cents[level] / wager_cents
                for level in self.meter_share
            ),
            Fraction(0),
        )
        return meters if fixed_from_meter else self.fixed_return + meters


def jackpot_figures(table: JackpotPaytable, tally: FortuneTally | None = None) -> JackpotFigures:
    tally = tally or count_fortune()
    counts = line_counts(table, tally)
    probabilities = tuple(
        (line, Fraction(counts[table.number_of(line)], tally.total)) for line in table.lines
    )
    fixed = Fraction(0)
    share = {level: Fraction(0) for level in table.levels}
    reset = {level: Fraction(0) for level in table.levels}
    for line, p in probabilities:
        pay = line.pay
        if isinstance(pay, FixedPay):
            fixed += p * pay.for_one
        elif isinstance(pay, MeterPay):
            share[pay.level] += p * pay.percent / 100
            if pay.is_full:
                reset[pay.level] += p
    return JackpotFigures(table.name, probabilities, fixed, share, reset)
