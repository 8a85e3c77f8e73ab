"""The amounts and meters the dealer's panel shows before any swipe: each hit on the meter the
hits before it leave (Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play"
item 9 c). Figures worked by hand."""

from __future__ import annotations

from dealer_console.jackpot.marks import Mark, MarkSource
from dealer_console.jackpot.projection import project
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot_values.meters import MICRO, MeterState
from dealer_console.jackpot_values.paytable import load

PAYTABLE = load("fupgpp-wa01")
GAME = GameConfig(spot=1, paytable=PAYTABLE, mode=JackpotMode.HOUSE,
                  levels=level_configs(PAYTABLE, {"main": {"seed": "$800"}}),
                  executive_threshold_cents=20_000)


def mark(seat: int, line_no: int) -> tuple[int, Mark]:
    line = PAYTABLE.line(line_no)
    return 1, Mark(seat, line, MarkSource.DETECTED, line)


def test_each_meter_hit_is_paid_on_what_the_one_before_left() -> None:
    meters = {1: {"main": MeterState(1000_00 * MICRO, 40_00 * MICRO)}}  # $1,000, reserve $40
    # 50% (royal + royal match) at seat 6, then 25% (wild straight flush) at seat 2
    first, second = project({1: GAME}, meters, [mark(6, 2), mark(2, 3)])
    assert (first.amount_cents, first.meter_before_cents, first.meter_after_cents) == (
        500_00, 1000_00, 500_00)
    assert first.needs == "executive"  # $500 is above the $200 level
    assert (second.amount_cents, second.meter_before_cents, second.meter_after_cents) == (
        125_00, 500_00, 375_00)
    assert second.needs == "supervisor"  # on today's meter it would be $250: an executive's
    assert second.meters_after == (("main", 375_00),)
    assert meters[1]["main"].meter_micro == 1000_00 * MICRO  # the meters now are not changed


def test_a_full_award_restarts_the_meter_for_the_next_hit() -> None:
    meters = {1: {"main": MeterState(1000_00 * MICRO, 40_00 * MICRO)}}
    full, after = project({1: GAME}, meters, [mark(5, 1), mark(3, 3)])
    assert (full.amount_cents, full.meter_after_cents) == (1000_00, 840_00)  # seed + reserve
    assert (after.amount_cents, after.meter_before_cents) == (210_00, 840_00)


def test_a_tray_pay_leaves_the_meter_as_it_is() -> None:
    meters = {1: {"main": MeterState(1000_00 * MICRO)}}
    (royal,) = project({1: GAME}, meters, [mark(4, 5)])
    assert (royal.amount_cents, royal.level, royal.meter_before_cents) == (200_00, None, None)
    assert royal.meters_after == (("main", 1000_00),)
