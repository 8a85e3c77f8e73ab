"""What each marked hit of a round will pay, and each meter after it, before anyone swipes.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 c: several meter pays
in one round are paid one after another, each on the meter as the hits before it left it. So
the second hit's amount (and whose card it needs) is not what the meter quotes now: it is the
award on the meter after the first. This module walks the pending hits in the order they will
be paid and applies each award (``meters.award`` / ``meters.apply``, the same arithmetic the
confirmation uses), so the dealer's panel shows what the swipes will actually pay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealer_console.employees.authorize import required_role
from dealer_console.jackpot.marks import Mark
from dealer_console.jackpot_values import meters
from dealer_console.jackpot_values.config import GameConfig
from dealer_console.jackpot_values.meters import MeterState


@dataclass(frozen=True, slots=True)
class ProjectedHit:
    """One marked hit as it will be paid, after the hits listed before it."""

    spot: int
    seat: int
    line_no: int
    label: str
    amount_cents: int
    needs: str
    """``supervisor``, ``executive`` or ``two people``: whose card this amount needs."""
    level: str | None
    """The meter the award comes off, or None for a pay from the tray alone."""
    meter_before_cents: int | None
    meter_after_cents: int | None
    meters_after: tuple[tuple[str, int], ...]
    """Every meter of the hit's game, in cents (rounded down), once this hit is paid."""


def project(games: Mapping[int, GameConfig], states: Mapping[int, Mapping[str, MeterState]],
            pending: Sequence[tuple[int, Mark]]) -> list[ProjectedHit]:
    """``pending`` as ``(spot, mark)`` in payment order -> each hit's award and the meters
    after it; ``states`` (each game's meters now) is not changed."""
    current = {spot: dict(levels) for spot, levels in states.items()}
    out = []
    for spot, mark in pending:
        game = games[spot]
        result = meters.award(game, mark.line, current[spot])
        current[spot] = meters.apply(current[spot], result)
        out.append(ProjectedHit(
            spot=spot, seat=mark.seat, line_no=game.paytable.number_of(mark.line),
            label=mark.line.label, amount_cents=result.amount_cents,
            needs="two people" if game.needs_two(result.amount_cents)
            else required_role(result.amount_cents, game.executive_threshold_cents).value,
            level=result.level,
            meter_before_cents=None if result.before is None else result.before.meter_cents,
            meter_after_cents=None if result.after is None else result.after.meter_cents,
            meters_after=tuple((name, state.meter_cents)
                               for name, state in current[spot].items()),
        ))
    return out
