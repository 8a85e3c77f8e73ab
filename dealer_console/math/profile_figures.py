"""Every paytable of a table's profile with its exact figures, as ``dealer-console math``
computes them: the Fortune bonus and the Ace-High bonus (return, house edge, each line's
chance), the envy (what one holder is paid per other Fortune hand) and each jackpot game
(return and house edge at the meters as they stand, and over the long run with the profile's
contribution, reserve and seed).

A bonus paytable that returns more than 100% is marked refused with its figure, the one
verdict (``verdict.py``) the self-test and ``profile check`` give: the operator must not offer
it. The counts behind the figures are computed once per process (they depend only on the
deck), so a screen asks again for free.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from dealer_console.math.ace_high_counts import count_ace_high
from dealer_console.math.envy import envy_figures
from dealer_console.math.fortune_counts import FortuneTally, count_fortune
from dealer_console.math.jackpot import jackpot_figures
from dealer_console.math.returns import (
    AceHighOdds,
    PaytableFigures,
    ace_high_figures,
    decimal_text,
    fortune_figures,
    percent,
)
from dealer_console.math.verdict import refusal
from dealer_console.money import format_cents
from dealer_console.profiles.model import Profile

PPM = 1_000_000


@dataclass(frozen=True, slots=True)
class FigureLine:
    label: str
    pays: str
    probability: Fraction


@dataclass(frozen=True, slots=True)
class TableFigures:
    """One paytable of the profile and what it returns per unit wagered."""

    area: str
    """Where it is played: "Fortune bonus", "Ace-High bonus", "Envy", "Jackpot, sensor 1"."""
    name: str
    title: str
    ret: Fraction | None
    """The exact return (None for the envy, which is an amount per other hand)."""
    lines: tuple[FigureLine, ...]
    notes: tuple[str, ...] = ()
    refused: str | None = None
    """Why the operator must not offer this table (it returns more than 100%), or None."""

    @property
    def house_edge(self) -> Fraction | None:
        return None if self.ret is None else 1 - self.ret


@lru_cache(maxsize=1)
def fortune_tally() -> FortuneTally:
    return count_fortune()


@lru_cache(maxsize=1)
def ace_high_odds() -> AceHighOdds:
    return AceHighOdds.from_tally(count_ace_high())


def _bonus(area: str, figures: PaytableFigures) -> TableFigures:
    lines = tuple(FigureLine(x.label, x.pays, x.probability) for x in figures.lines)
    return TableFigures(area, figures.name, figures.title, figures.ret, lines,
                        (f"hit frequency {percent(figures.hit_frequency)}",),
                        refusal(figures.name, figures.ret))


def profile_figures(profile: Profile,
                    meters: Mapping[int, Mapping[str, int]] | None = None
                    ) -> tuple[TableFigures, ...]:
    """Every paytable of ``profile``; ``meters`` are the jackpot meters in cents by sensor spot
    and level as they stand (each at its seed when not given)."""
    out: list[TableFigures] = []
    if profile.fortune is not None:
        out.append(_bonus("Fortune bonus", fortune_figures(profile.fortune, fortune_tally())))
        if profile.envy is not None and profile.fortune.envy_lines:
            envy = envy_figures(profile.fortune, fortune_tally())
            out.append(TableFigures(
                "Envy", envy.name, envy.title, None,
                tuple(FigureLine(x.label, x.pays, x.probability) for x in envy.lines),
                (f"one envy holder is paid {_cents(envy.per_other_hand_cents)} on average "
                 "for each other hand with a Fortune wager",
                 f"an envy button needs a Fortune wager of at least "
                 f"{format_cents(profile.envy.threshold)}")))
    if profile.ace_high is not None:
        out.append(_bonus("Ace-High bonus", ace_high_figures(profile.ace_high, ace_high_odds())))
    for game in profile.jackpots.games if profile.jackpots is not None else ():
        f = jackpot_figures(game.paytable, fortune_tally())
        seeds = {lv.name: lv.seed_cents for lv in game.levels}
        now = {**seeds, **(meters or {}).get(game.spot, {})}
        at_meters = f.return_at(now, game.wager_cents)
        long_run = f.long_run_return(
            {lv.name: Fraction(lv.contribution_ppm, PPM) for lv in game.levels},
            {lv.name: Fraction(lv.reserve_ppm, PPM) for lv in game.levels},
            seeds, game.wager_cents, game.fixed_from_meter)
        notes = [f"a {format_cents(game.wager_cents)} wager; fixed pays return "
                 f"{percent(f.fixed_return)}",
                 "meters now: " + ", ".join(f"{lv} {format_cents(c)}" for lv, c in now.items()),
                 f"long-run return {percent(long_run)} with the profile's contribution, "
                 "reserve and seed"]
        if long_run > 1:
            notes.append("long-run return above 100%: the meters receive more than the "
                         "table keeps")
        out.append(TableFigures(
            f"Jackpot, sensor {game.spot}", f.name, f"{game.mode.value} jackpot", at_meters,
            tuple(FigureLine(line.label, str(line.pay), p) for line, p in f.probabilities),
            tuple(notes)))
    return tuple(out)


def _cents(value: Fraction) -> str:
    """An expected amount in cents, shown in dollars to four places, without a float."""
    return f"${decimal_text(value / 100, 4)}"
