"""The simulated dealer takes a step of its own in every phase a round passes through, which
``--hold PHASE=SECONDS`` (and the crash test's kill aimed at each phase) relies on. Stop 44's
run of a deal's hands once pumped everything waiting, the shuffler's count of the cards left
too, so the deal check went by inside the dealing step: the crash test's kill aimed at it
failed now and then."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from dealer_console.round.state import Phase
from drivers.sim.table.run import open_sim

EVERY_ROUND = [Phase.BETTING, Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK, Phase.BANKER_SET,
               Phase.SETTLEMENT, Phase.END]


@pytest.mark.parametrize("profile", ["washington-face-up", "catfish-bend-fortune"])
def test_the_dealer_steps_in_every_phase_of_every_round(tmp_path: Path, profile: str) -> None:
    seen: dict[int, list[Phase]] = defaultdict(list)
    with open_sim(tmp_path / "t.db", profile, 11, "in-process", frozenset(),
                  resume=False) as sim:
        dealer = sim.dealer
        take_step = dealer.step

        def step() -> None:
            seen[dealer.state.round_id].append(dealer.state.phase)
            take_step()

        dealer.step = step  # type: ignore[method-assign]
        dealer.run(12)
    assert len(seen) >= 12
    for round_id, phases in seen.items():
        if Phase.END not in phases:
            continue  # the round the run stopped in
        missed = [p for p in EVERY_ROUND if p not in phases]
        assert not missed, (round_id, missed, phases)
