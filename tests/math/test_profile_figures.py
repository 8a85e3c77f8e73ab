"""Each shipped profile's paytables with the figures the math module gives them, and a bonus
table over 100% carried with the refusal ``profile check`` gives."""

from __future__ import annotations

import dataclasses

import pytest

from dealer_console.math.envy import envy_figures
from dealer_console.math.profile_figures import profile_figures
from dealer_console.math.returns import ace_high_figures, fortune_figures, percent
from dealer_console.paytables import Paytable
from dealer_console.profiles.loader import get_profile


@pytest.mark.parametrize("name", ["washington-face-up", "california-face-up",
                                  "catfish-bend-fortune", "oxford-downs-face-up"])
def test_every_paytable_of_a_profile_has_the_math_modules_figures(name: str) -> None:
    profile = get_profile(name)
    figures = {f.area: f for f in profile_figures(profile)}
    expected = set()
    if profile.fortune is not None:
        expected.add("Fortune bonus")
        assert figures["Fortune bonus"].ret == fortune_figures(profile.fortune).ret
        if profile.envy is not None and profile.fortune.envy_lines:
            expected.add("Envy")
            per_hand = envy_figures(profile.fortune).per_other_hand_cents
            assert figures["Envy"].ret is None and per_hand > 0
    if profile.ace_high is not None:
        expected.add("Ace-High bonus")
        assert figures["Ace-High bonus"].ret == ace_high_figures(profile.ace_high).ret
    for game in profile.jackpots.games if profile.jackpots is not None else ():
        expected.add(f"Jackpot, sensor {game.spot}")
    assert set(figures) == expected
    assert all(f.refused is None for f in figures.values())  # no shipped table is refused


def test_a_bonus_table_over_100_percent_is_refused_with_its_figure() -> None:
    profile = get_profile("washington-face-up")
    table = profile.ace_high
    assert table is not None
    rich = Paytable(table.name, table.kind, table.title, table.source,
                    tuple(dataclasses.replace(x, odds=(x.odds or 0) * 40) for x in table.lines))
    figures = {f.area: f for f in profile_figures(dataclasses.replace(profile, ace_high=rich))}
    refused = figures["Ace-High bonus"].refused
    assert refused is not None and percent(ace_high_figures(rich).ret) in refused
    assert figures["Fortune bonus"].refused is None
