"""Each paytable of a table's profile with its exact return, as the technician's test-mode
banner shows it (a check that the console runs the paytables the table is approved for)."""

from __future__ import annotations

from dealer_console.math.jackpot import jackpot_figures
from dealer_console.math.returns import ace_high_return, fortune_return, percent
from dealer_console.profiles.model import Profile


def paytable_returns(profile: Profile) -> list[tuple[str, str]]:
    """(paytable, its return) for every paytable the profile offers; a jackpot's return is its
    fixed pays' (the meters' share changes with the meters)."""
    out = []
    if profile.fortune is not None:
        out.append((profile.fortune.name, percent(fortune_return(profile.fortune), 2)))
    if profile.ace_high is not None:
        out.append((profile.ace_high.name, percent(ace_high_return(profile.ace_high), 2)))
    for game in profile.jackpots.games if profile.jackpots else ():
        figures = jackpot_figures(game.paytable)
        out.append((f"{figures.name} (fixed pays)", percent(figures.fixed_return, 2)))
    return out
