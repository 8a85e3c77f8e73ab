"""A random dealer and players acting through the table controller, the way the console's
screens and a real table's devices do: wagers and settings as a dealer's touches, START GAME,
END GAME, the jackpot's seat and hand buttons and the card swipes on the simulated keypad, the
deal from the shuffler double behind its real driver.

The dealer only decides what to do next from the round's phase, so it picks up a round in any
phase after a crash. It takes device events one at a time (:meth:`TableController.pump` with
``max_events=1``) wherever it may act between two of them, so that its own actions fall
between the same events in every run: a seeded run is the same run every time, whatever the
machine's speed. A deal's hands waiting together go as one run, as the console takes them,
never past the deal's last hand, and never in a round whose faults act between two hands.

Its parts, each a module of this package: the staff and their cards (``staff``), waiting for
the table and reading its notices (``waiting``), the faults a round plays (``fault_plan``),
what to do in each phase (``phases``) and the jackpot's buttons and swipes
(``jackpot_player``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from dealer_console.controller import TableController
from dealer_console.controller.link_device import LINK_DEVICE
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.state import Phase, RoundState
from dealer_console.storage.anchor import FinishedRounds
from drivers.sim.table.fault_plan import FAULTS, Counters, FaultPlan
from drivers.sim.table.jackpot_player import JackpotPlayer
from drivers.sim.table.phases import PhasePolicy
from drivers.sim.table.staff import StaffCards, install_sim_staff
from drivers.sim.table.waiting import SimError, Waiting
from drivers.sim.table.world import World


class RandomDealer:
    def __init__(self, controller: TableController, world: World, seed: int,
                 faults: frozenset[str], hold_before_end: float = 0.0,
                 holds: Mapping[Phase, float] | None = None) -> None:
        self.ctl = controller
        self.world = world
        self.seed = seed
        self.holds = dict(holds or {})
        self.counters = Counters()
        self.waiting = Waiting(controller)
        self.plan = FaultPlan(controller, seed, faults, self.counters)
        self.jackpot = JackpotPlayer(controller, world, seed, self.waiting, StaffCards(),
                                     self.counters)
        self.policy = PhasePolicy(controller, world, seed, self.plan, self.waiting,
                                  self.jackpot, self.counters, hold_before_end)
        self._finished: tuple[int, int] | None = None  # (round in play, rounds finished)
        self._counter = FinishedRounds()

    @property
    def state(self) -> RoundState:
        return self.ctl.state

    def resume(self) -> None:
        """After opening (or reopening after a crash): the shuffler scripted for the deal in
        play, then the controller brings the devices in line with the round."""
        st = self.state
        if st.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK):
            self.world.script_deal(self.plan.deal_fault(st.deal_no))
        self.ctl.start()
        # every device answering (and every sensor node) before the first step, as a dealer
        # waits for the table to come up; not the jackpot link: the base game goes on without
        # it (START GAME refuses the jackpot wagers while it is down)
        self.waiting.wait(lambda: all(d.connected and d.fault is None
                                      for d in self.ctl.snapshot().devices
                                      if d.name != LINK_DEVICE), "device connection")

    def finished_rounds(self) -> int:
        """Counted again only when a new round has opened (:meth:`run` asks before every
        step), and then on from the rounds counted before (a long run slowed as its database
        grew)."""
        round_id = self.state.round_id
        if self._finished is None or self._finished[0] != round_id:
            self._finished = (round_id, self._counter.count(self.ctl.table.db))
        return self._finished[1]

    def run(self, rounds: int) -> None:
        while self.finished_rounds() < rounds:
            self.step()

    def step(self) -> None:
        """Do the next thing the current phase needs."""
        if self.state.phase in self.holds:
            time.sleep(self.holds[self.state.phase])
        self.policy.for_phase(self.state.phase)()


__all__ = ["FAULTS", "JACKPOT_KINDS", "RandomDealer", "SimError", "install_sim_staff"]
