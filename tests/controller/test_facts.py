"""The pure mapping from a device's fact to the round's command: the same fact stands for a
command in one phase, is held back in another (it came early) and means nothing in a third;
the state is only read."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.cards import parse_cards
from dealer_console.controller import test_mode
from dealer_console.controller.facts import HOLD, deal_command, deal_id_for, lock_id_for
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    FirstPositionDrawn,
    HandDelivered,
)
from dealer_console.round import commands as c
from dealer_console.round.machine import clone
from dealer_console.round.state import Phase
from drivers.shuffler.framer import DEALS_REMEMBERED
from tests.round.helpers import make_table

HAND = parse_cards("As Kd Qh Jc Ts 9d 8h", 7)


def hand(index: int) -> HandDelivered:
    return HandDelivered(device="shuffler", seq=index, deal_id=1, index=index, cards=HAND)


def test_a_deal_s_facts_by_phase(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up", action="shuffler", deal="shuffler")
    table.handle(c.PlaceWager(1, "base", 1000))
    table.handle(c.StartGame())
    st, rules = table.state, table.rules
    assert st.phase is Phase.ACTION
    before = clone(st)
    drawn = FirstPositionDrawn(device="shuffler", seq=1, deal_id=1, number=9)
    assert deal_command(drawn, st, rules, None) == c.SetActionNumber(9)
    assert deal_command(hand(1), st, rules, None) is HOLD  # the hands came before the action
    left = CardsLeft(device="shuffler", seq=8, deal_id=1, cards=HAND[:4])
    assert deal_command(left, st, rules, None) is HOLD
    counted = CardCountError(device="shuffler", seq=9, deal_id=1, counted=51)
    assert deal_command(counted, st, rules, None) == c.ShufflerCountError(
        "the shuffler counted 51 cards")
    assert st == before  # only read
    table.handle(c.SetActionNumber(9))
    st = table.state
    assert st.phase is Phase.DEALING
    assert deal_command(drawn, st, rules, None) is None  # the action is taken: nothing more
    assert deal_command(hand(1), st, rules, 4) == c.DealHand(HAND, 4, 1)  # told where it went
    assert deal_command(left, st, rules, None) == c.RemainingCards(4, HAND[:4])


def test_deal_and_lock_ids_are_the_same_after_a_restart_and_stay_in_range() -> None:
    assert deal_id_for(1, 0) == deal_id_for(1, 0) == 1
    assert deal_id_for(1, 1) != deal_id_for(2, 0)
    assert all(1 <= deal_id_for(r, d) <= 0xFFFF for r in (1, 8191, 8192, 70000)
               for d in range(40))
    assert lock_id_for(1) == 1 and 1 <= lock_id_for(0x10000 + 5) <= 0xFFFF


@pytest.mark.parametrize("start", [1, 8185, 8190, 8191, 8192, 16383, 40_000, 65_530])
def test_no_deal_id_comes_again_among_the_deals_a_shuffler_remembers(start: int) -> None:
    """Rounds of one deal, of two, of ten and of forty (misdeal after misdeal), each with a
    session of test deals before it, over the wrap of the ids: any nine deals in a row have
    nine ids, so no request meets an id the shuffler or its driver still remembers."""
    asked: list[int] = []
    for round_id in range(start, start + 60):
        asked += [test_mode.test_deal_id(round_id, round_id * 3 + s, n) for s in range(2)
                  for n in range(20 if round_id % 7 == 0 else 1)]
        asked += [deal_id_for(round_id, d) for d in range((1, 2, 10, 40)[round_id % 4])]
    window = DEALS_REMEMBERED + 1
    assert all(len(set(asked[i:i + window])) == window for i in range(len(asked) - window))


@pytest.mark.parametrize("round_id", [1, 8191, 8192, 65_530])
def test_a_round_never_deals_one_id_twice(round_id: int) -> None:
    """A round keeps its deals' facts by deal id: a 25th deal on the 9th's id was refused as
    "already applied" (an outside review). Three hundred deals in a round, each its own."""
    ids = [deal_id_for(round_id, d) for d in range(300)]
    assert len(set(ids)) == 300
