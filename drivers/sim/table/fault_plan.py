"""Which faults the simulated table plays in a round: each enabled fault hits a round by a
seeded draw of its own, so a run and its resumption after a crash play the same faults."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from dealer_console.controller import TableController
from drivers.sim.table.choices import HANDS, rng_for, stacked_deck
from drivers.sim.table.world import DealFault, shuffled_deck

FAULTS = ("misdeal", "exposed", "wrong-first", "reconstruct", "foul", "device-repeat", "wire",
          "jackpot-hands")
FAULT_RATE = 0.15
"""Chance per round of each enabled fault."""
JACKPOT_HANDS_RATE = 0.3
"""Chance per round that ``jackpot-hands`` stacks the deck: real hit rates are far too small
for a short run to see a jackpot (a seven-card straight flush is 32 hands in 154 million)."""


@dataclass
class Counters:
    commands: int = 0
    refused: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    by_command: Counter[str] = field(default_factory=Counter)
    """The dealer's commands taken, by their name (``SettleAll``, ``SettleNext``, ...)."""


class FaultPlan:
    def __init__(self, controller: TableController, seed: int, faults: frozenset[str],
                 counters: Counters) -> None:
        self.ctl = controller
        self.seed = seed
        self.faults = faults
        self.counters = counters

    def hit(self, name: str, purpose: str | None = None) -> bool:
        """True when fault ``name`` (enabled) strikes this round, for ``purpose``; counted."""
        if self.strikes(name, purpose):
            self.counters.faults[name] += 1
            return True
        return False

    def strikes(self, name: str, purpose: str | None = None) -> bool:
        """:meth:`hit` without counting it: a look ahead at what a later step will play."""
        if name not in self.faults:
            return False
        draw = rng_for(self.seed, self.ctl.state.round_id, f"fault/{purpose or name}").random()
        return draw < (JACKPOT_HANDS_RATE if name == "jackpot-hands" else FAULT_RATE)

    def deal_fault(self, deal_no: int) -> DealFault:
        """What the shuffler does on this round's deal ``deal_no`` (the same after a restart)."""
        st = self.ctl.state
        fault = DealFault()
        if deal_no == 0 and self.hit("misdeal"):
            rng = rng_for(self.seed, st.round_id, "misdeal-kind")
            kind = rng.choice(("short", "missing", "count"))
            index = rng.randint(2, HANDS)
            fault = DealFault(short_hand=index if kind == "short" else None,
                              missing_hand=index if kind == "missing" else None,
                              count_error=kind == "count")
        if self.ctl.opened.jackpot is not None and self.hit("jackpot-hands", f"stack/{deal_no}"):
            from dealer_console.controller.controller import deal_id_for

            shuffled = shuffled_deck(self.seed, deal_id_for(st.round_id, deal_no))
            stack_rng = rng_for(self.seed, st.round_id, f"jackpot-hands/{deal_no}")
            fault = replace(fault, deck=stacked_deck(stack_rng, shuffled))
        return fault
