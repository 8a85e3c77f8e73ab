"""Base-game simulation: the tally's arithmetic and the Face Up push."""

from __future__ import annotations

import random
from fractions import Fraction

from dealer_console.math.base_sim import UNIT, BaseTally, play_round, simulate
from dealer_console.profiles.loader import get_profile
from dealer_console.setting import Outcome


def test_nets_follow_outcomes_and_commission() -> None:
    for name in ("california-face-up", "catfish-bend-fortune"):
        profile = get_profile(name)
        tally = simulate(profile, 300, 3)
        win = UNIT
        if profile.commission is not None:
            win -= UNIT * profile.commission.basis_points // 10_000
        assert tally.total == tally.wins * win - tally.losses * UNIT
        assert tally.house_edge == -Fraction(tally.total, 300 * UNIT)


def test_face_up_banker_ace_high_pushes_and_classic_does_not() -> None:
    face_up = simulate(get_profile("california-face-up"), 300, 5)
    classic = simulate(get_profile("catfish-bend-fortune"), 300, 5)
    assert face_up.ace_high_pushes > 0 and classic.ace_high_pushes == 0
    assert face_up.pushes >= face_up.ace_high_pushes


def test_round_outcome_is_deterministic_per_seed() -> None:
    profile = get_profile("california-face-up")
    a = [play_round(profile, random.Random(11)) for _ in range(3)]
    b = [play_round(profile, random.Random(11)) for _ in range(3)]
    assert a == b and a[0][0] in Outcome


def test_half_width_matches_textbook_formula() -> None:
    tally = BaseTally()
    for outcome, net in [(Outcome.WIN, UNIT), (Outcome.LOSS, -UNIT), (Outcome.PUSH, 0)] * 50:
        tally.add(outcome, False, net, False)
    # mean 0, sample variance 100/149 (units^2); 1.96 * sqrt(var / n)
    expected = 1.96 * (100 / 149 / 150) ** 0.5
    assert abs(float(tally.half_width) - expected) < 1e-6
