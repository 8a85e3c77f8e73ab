"""The simulated dealer takes the one-touch steps ("same wagers", "House Way for all", "all
settled") in most rounds and goes seat by seat in the others (``drivers/sim/table/phases.py``).
Both ways play the same rounds of a seed to the cent, so ``simulate`` exercises the steps a
dealer at the console uses without changing what a seed plays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from drivers.sim.table.run import open_sim, parse_faults
from drivers.sim.table.summary import summary

PROFILES = ["washington-face-up", "california-face-up", "oxford-downs-face-up",
            "catfish-bend-fortune"]


def play(db: Path, profile: str, one_touch_rate: float | None) -> tuple[dict[str, Any], ...]:
    """A seeded run with every fault: its totals, every line, wager, setting and fee, the
    faults it played, and the dealer's commands by name."""
    with open_sim(db, profile, 11, "in-process", parse_faults("all"), resume=False) as sim:
        if one_touch_rate is not None:
            sim.dealer.policy.one_touch_rate = one_touch_rate
        sim.dealer.run(16)
        d = sim.opened.db
        rows = {
            "summary": summary(d, profile),
            "lines": sorted(d.execute(
                "SELECT round_id, seat, kind, outcome, staked_cents, returned_cents,"
                " banker_delta_cents, house_delta_cents, note FROM settlement_lines").fetchall()),
            "wagers": sorted(d.execute("SELECT * FROM wagers").fetchall()),
            "hands": sorted(d.execute("SELECT * FROM hands").fetchall()),
            "fees": sorted(d.execute("SELECT * FROM fees").fetchall()),
        }
        rows["faults"] = dict(sim.dealer.counters.faults)  # the fault plan's draws, counted
        return rows, dict(sim.dealer.counters.by_command)


@pytest.mark.parametrize("profile", PROFILES)
def test_the_one_touch_dealer_plays_the_rounds_the_seat_by_seat_dealer_plays(
        tmp_path: Path, profile: str) -> None:
    mixed, commands = play(tmp_path / "mixed.db", profile, None)
    by_seat, seat_commands = play(tmp_path / "by-seat.db", profile, 0.0)
    assert mixed == by_seat
    assert mixed["summary"]["rounds_complete"] >= 14  # a void or two, never a stuck run
    # both ways were played in the mixed run, and only the seat-by-seat way in the other
    for name in ("RepeatWagers", "SetHandsHouseWay", "SettleAll", "SetPlayerHand",
                 "SettleNext"):
        assert commands.get(name, 0) > 0, (name, commands)
    for name in ("RepeatWagers", "SetHandsHouseWay", "SettleAll"):
        assert name not in seat_commands, (name, seat_commands)
    assert sum(commands.values()) < sum(seat_commands.values())
