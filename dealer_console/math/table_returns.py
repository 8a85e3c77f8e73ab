"""Each paytable of a table's profile with its exact return, as the technician's test-mode
banner shows it (a check that the console runs the paytables the table is approved for)."""

from __future__ import annotations

from dealer_console.math.jackpot import jackpot_figures
from dealer_console.math.returns import percent
from dealer_console.math.verdict import bonus_verdicts
from dealer_console.profiles.model import Profile


def paytable_returns(profile: Profile) -> list[tuple[str, str]]:
    """(paytable, its return) for every paytable the profile offers, a bonus table over 100%
    marked refused (the one verdict, ``verdict.py``); a jackpot's return is its fixed pays'
    (the meters' share changes with the meters)."""
    out = [(v.name, percent(v.ret, 2) + (" REFUSED, over 100%" if v.refused else ""))
           for v in bonus_verdicts(profile)]
    for game in profile.jackpots.games if profile.jackpots else ():
        figures = jackpot_figures(game.paytable)
        out.append((f"{figures.name} (fixed pays)", percent(figures.fixed_return, 2)))
    return out
