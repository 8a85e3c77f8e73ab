"""Meter arithmetic, exact to the cent and below.

A meter and its reserve are held in **millionths of a cent** (integers). A wager of ``w`` cents
at a rate of ``r`` parts per million adds exactly ``w * r`` millionths, so no contribution is
ever rounded and the meter always equals its history: seed + contributions - awards + resets
(+ manual adjustments). The table's monitor and every award work in whole cents: the amount
shown is the meter rounded down to the cent, a percentage award is rounded down to the cent,
and the fraction of a cent left behind stays on the meter for the next player (nothing is lost).

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9: percentage pays come
off the meter as it stands; fixed pays come from the tray (or, if the game is configured so, off
the meter: any part the meter cannot cover comes from the tray, so the meter never goes below
zero). Item 4 and "Progressive systems flexibility": after a 100% award the meter restarts at
seed plus the reserve, and the reserve starts again from zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_console.jackpot_values.config import GameConfig, LevelConfig
from dealer_console.jackpot_values.paytable import FixedPay, JackpotLine, MeterPay

MICRO = 1_000_000
"""Millionths of a cent per cent."""


@dataclass(frozen=True, slots=True)
class MeterState:
    """A meter and its reserve, in millionths of a cent."""

    meter_micro: int
    reserve_micro: int = 0

    @property
    def meter_cents(self) -> int:
        """What the monitor shows and what a 100% award pays: whole cents, rounded down."""
        return self.meter_micro // MICRO

    @property
    def reserve_cents(self) -> int:
        return self.reserve_micro // MICRO


def seeded(level: LevelConfig) -> MeterState:
    return MeterState(level.seed_cents * MICRO, 0)


def contribute(state: MeterState, level: LevelConfig, wager_cents: int) -> MeterState:
    """One sensed wager's share to the meter and to the reserve."""
    return MeterState(
        state.meter_micro + wager_cents * level.contribution_ppm,
        state.reserve_micro + wager_cents * level.reserve_ppm,
    )


@dataclass(frozen=True, slots=True)
class Award:
    """What one confirmed hit pays and what it does to its meter (None for a tray-only pay)."""

    line: JackpotLine
    level: str | None
    amount_cents: int
    from_meter_cents: int
    from_tray_cents: int
    before: MeterState | None
    after_award: MeterState | None
    """The meter right after the award, before any reset."""
    after: MeterState | None
    """The meter once the award (and a 100% award's reset) is done."""

    @property
    def reset_micro(self) -> int:
        """What the reset added to the meter: the seed plus the reserve moved over."""
        if self.after is None or self.after_award is None:
            return 0
        return self.after.meter_micro - self.after_award.meter_micro

    @property
    def resets(self) -> bool:
        return isinstance(self.line.pay, MeterPay) and self.line.pay.is_full


def award(
    game: GameConfig, line: JackpotLine, meters: dict[str, MeterState]
) -> Award:
    """The award for ``line`` on the meters as they stand (``meters`` is not changed)."""
    pay = line.pay
    if isinstance(pay, MeterPay):
        before = meters[pay.level]
        amount = (before.meter_micro * pay.percent.numerator
                  // (pay.percent.denominator * 100 * MICRO))
        after_award = MeterState(before.meter_micro - amount * MICRO, before.reserve_micro)
        after = after_award
        if pay.is_full:
            seed = game.level(pay.level).seed_cents * MICRO
            after = MeterState(after_award.meter_micro + seed + after_award.reserve_micro, 0)
        return Award(line, pay.level, amount, amount, 0, before, after_award, after)
    assert isinstance(pay, FixedPay)
    amount = game.fixed_amount(pay)
    if not game.fixed_from_meter:
        return Award(line, None, amount, 0, amount, None, None, None)
    level = game.paytable.levels[-1]
    before = meters[level]
    from_meter = min(amount, before.meter_cents)
    after = MeterState(before.meter_micro - from_meter * MICRO, before.reserve_micro)
    return Award(line, level, amount, from_meter, amount - from_meter, before, after, after)


def apply(meters: dict[str, MeterState], result: Award) -> dict[str, MeterState]:
    """The meters after ``result``."""
    if result.level is None or result.after is None:
        return dict(meters)
    out = dict(meters)
    out[result.level] = result.after
    return out
