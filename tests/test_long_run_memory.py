"""A table plays for weeks without a restart, so nothing may grow with the rounds played. An
hour's simulated play found what did: the five-card value cache, bounded only at 262,144
hands (about 19,000 rounds to fill; full, 90 MB and 0.9 million objects more, and a full
collection on the console's GUI thread 145 ms longer), and, in the simulated table, every
hand the shuffler's driver reported and every deal and message the double kept.
``benchmarks/long_run.py`` plays the long form and prints the objects kept as it goes."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from dealer_console.cards import DECK
from dealer_console.hands import FIVE_CARD_VALUES_KEPT, HandRules, _five_value
from dealer_console.seven import best_five
from drivers.sim.shuffler import DEALS_KEPT, MESSAGES_KEPT
from drivers.sim.table.run import open_sim


def test_the_five_card_values_kept_stay_few_however_many_hands_are_read() -> None:
    rng = random.Random(5)
    for _ in range(3_000):  # 63,000 five-card hands, each of seven cards as a report's
        best_five([replace(card) for card in rng.sample(DECK, 7)], HandRules())
    kept = _five_value.cache_info().currsize
    assert kept <= FIVE_CARD_VALUES_KEPT <= 10_000


def test_the_simulated_table_keeps_only_what_its_faults_and_tests_look_at(
        tmp_path: Path) -> None:
    with open_sim(tmp_path / "t.db", "washington-face-up", 7, "in-process", frozenset(),
                  resume=False) as sim:
        sim.dealer.run(DEALS_KEPT + 6)
        world = sim.world
        assert world.hardware.shuffler is not None
        assert len({deal_id for deal_id, _index in world.hands}) == 1  # the last deal's
        assert len(world.hardware.shuffler.dealt) == DEALS_KEPT
        assert len(world.hardware.shuffler.received) <= MESSAGES_KEPT
