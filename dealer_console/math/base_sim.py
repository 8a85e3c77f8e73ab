"""A seeded simulation of the base game: one player against the banker, both set the House Way.

The base game has no closed form worth a regulator's time (the House Way is a long chart), so it
is simulated. Each round shuffles the 53 cards with a seeded generator, deals the banker and one
player seven cards each, sets both hands with the profile's House Way
(``dealer_console.house_ways``) and compares them (``dealer_console.setting.compare``):

* Face Up (rules README, "Face Up"): a banker's ace-high pai gow pushes the base wager before
  anyone sets a hand;
* a player win pays even money, less the profile's commission when it has one (Catfish Bend's
  5%; no Fortune wager is assumed, so it is not waived);
* a copy is any round where the two hands tie on one side (won by the banker).

The player's result per unit is added up exactly (integer hundredths of a unit); the house edge
is minus its mean, with a 95% normal confidence interval from the sample variance.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from dealer_console.cards import DECK
from dealer_console.house_ways import set_house_way
from dealer_console.profiles.model import Game, Profile
from dealer_console.setting import Outcome, Side, compare
from dealer_console.seven import ace_high_status

UNIT = 10_000
"""Results are kept in ten-thousandths of the wager: a 5% commission is exact."""

Z95 = Fraction(196, 100)


@dataclass(slots=True)
class BaseTally:
    """Running totals; every figure is derived from these integers."""

    rounds: int = 0
    wins: int = 0
    pushes: int = 0
    losses: int = 0
    copies: int = 0
    ace_high_pushes: int = 0
    total: int = 0  # player's net, in UNITs
    total_sq: int = 0  # sum of squared nets, in UNIT**2

    def add(self, outcome: Outcome, copy: bool, net: int, ace_high: bool) -> None:
        self.rounds += 1
        if outcome is Outcome.WIN:
            self.wins += 1
        elif outcome is Outcome.LOSS:
            self.losses += 1
        else:
            self.pushes += 1
        self.copies += copy
        self.ace_high_pushes += ace_high
        self.total += net
        self.total_sq += net * net

    def rate(self, count: int) -> Fraction:
        return Fraction(count, max(self.rounds, 1))

    @property
    def house_edge(self) -> Fraction:
        return -Fraction(self.total, max(self.rounds, 1) * UNIT)

    @property
    def half_width(self) -> Fraction:
        """Half the 95% confidence interval of the house edge (normal approximation)."""
        n = self.rounds
        if n < 2:
            return Fraction(0)
        var_num = n * self.total_sq - self.total * self.total  # n(n-1) * sample variance
        var = Fraction(var_num, n * (n - 1))
        # standard error = sqrt(var / n) / UNIT, to 1e-9 of a unit, without floats
        scale = 10**9
        se = Fraction(isqrt(int(var * scale * scale / n)), scale * UNIT)
        return Z95 * se


def play_round(profile: Profile, rng: random.Random) -> tuple[Outcome, bool, int, bool]:
    """One round: (outcome, copy, player's net in UNITs, banker's ace-high push)."""
    cards = list(DECK)
    rng.shuffle(cards)
    banker, player = cards[:7], cards[7:14]
    if profile.game is Game.FACE_UP and ace_high_status(banker) is not None:
        return Outcome.PUSH, False, 0, True
    rules = profile.hand_rules
    b = set_house_way(profile.house_way, banker, rules)
    p = set_house_way(profile.house_way, player, rules)
    result = compare(p, b, rules)
    copy = Side.COPY in (result.high, result.low)
    if result.outcome is Outcome.WIN:
        net = UNIT
        if profile.commission is not None:
            net -= UNIT * profile.commission.basis_points // 10_000
    elif result.outcome is Outcome.LOSS:
        net = -UNIT
    else:
        net = 0
    return result.outcome, copy, net, False


def simulate(
    profile: Profile,
    rounds: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    tally: BaseTally | None = None,
) -> BaseTally:
    """Play ``rounds`` rounds from ``seed``; the same seed gives the same figures.

    The tally is filled in place, so on an interruption the caller still has the rounds played.
    """
    rng = random.Random(seed)
    tally = tally if tally is not None else BaseTally()
    for i in range(rounds):
        tally.add(*play_round(profile, rng))
        if progress is not None and i % 1000 == 999:
            progress(i + 1)
    if progress is not None:
        progress(rounds)
    return tally
