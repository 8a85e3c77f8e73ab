"""Under ``--faults all`` the simulated dealer hung (an outside review) when the
"device-repeat" fault (the shuffler's third hand sent again) met a deal whose fourth hand is
short: ``_dealing`` pumped one event after sending the hand again, that event could be the
short hand, which declares the misdeal, and the dealer then waited for the next hand of a deal
that was over ("no hand from the shuffler within 20 s"). Seed 4 met it in round 30 on
washington-face-up and california-face-up, with the one-touch steps or seat by seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.sim.table.run import open_sim, parse_faults


@pytest.mark.parametrize("one_touch_rate", [0.0, 1.0])
def test_a_repeated_hand_then_a_misdeal_does_not_hang_the_dealer(
        tmp_path: Path, one_touch_rate: float) -> None:
    with open_sim(tmp_path / "t.db", "washington-face-up", 4, "in-process",
                  parse_faults("all"), resume=False) as sim:
        sim.dealer.policy.one_touch_rate = one_touch_rate
        sim.dealer.run(31)  # SimError: round 30: no hand from the shuffler within 20 s
        assert sim.dealer.state.round_id == 32
