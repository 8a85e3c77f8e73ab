"""Crash recovery inside one process: a table reopened at any point of a round resumes in the
same phase with the same wagers, hands and settled seats; device events apply once; a
transition that fails half-way leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_console.cards import Card
from dealer_console.devices.shuffler import HandDelivered
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import Phase
from dealer_console.round.table import Table
from tests.round.helpers import (
    PROFILES,
    bet_all,
    hands_with,
    make_table,
    reopen,
    set_all_house_way,
    settle_all,
    start_and_act,
    take_bank,
)


def _script(table: Table, seed: int) -> list[c.Command]:
    """The commands of one ordinary round from the betting phase on, computed lazily is not
    possible (they depend on the phase), so this yields the fixed prefix."""
    return [c.DealHand(h) for h in hands_with({}, seed)] + [c.RemainingCards(4)]


def _next_command(table: Table) -> c.Command | None:
    st_ = table.state
    if st_.phase is Phase.BANKER_SET:
        return c.SetBankerHand()
    if st_.phase is Phase.PLAYERS_SET:
        left = RoundSnapshot.of(st_, table.rules).players_to_set()
        return c.SetPlayerHand(left[0])
    if st_.phase is Phase.SETTLEMENT:
        return c.SettleNext()
    if st_.phase is Phase.END:
        return c.EndGame()
    return None


@pytest.mark.parametrize("profile", PROFILES)
def test_reopen_after_every_transition_resumes_exactly(tmp_path: Path, profile: str) -> None:
    table = make_table(tmp_path, profile)
    take_bank(table)
    bet_all(table)
    table = reopen(table)
    start_and_act(table, 11)
    for cmd in _script(table, 4):
        table.handle(cmd)
        before = table.state
        table = reopen(table)
        assert table.state == before
    while (cmd := _next_command(table)) is not None:
        round_id = table.state.round_id
        table.handle(cmd)
        before = table.state
        table = reopen(table)
        assert table.state == before
        if table.state.round_id != round_id:
            break
    done = table.db.execute("SELECT status FROM rounds WHERE round_id = 1").fetchone()[0]
    assert done == "complete"


def test_a_device_event_is_applied_once_even_after_restart(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    bet_all(table)
    start_and_act(table, 9)
    hands = hands_with({})
    assert table.handle(c.DealHand(hands[0]), device="shuffler", device_seq=41)
    assert table.handle(c.DealHand(hands[0]), device="shuffler", device_seq=41) == []
    table = reopen(table)
    assert table.handle(c.DealHand(hands[0]), device="shuffler", device_seq=41) == []
    assert len(table.state.hands) == 1
    row = table.db.execute("SELECT last_device_seq FROM devices WHERE device = 'shuffler'")
    assert row.fetchone()[0] == 41


def test_a_failing_transition_writes_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    bet_all(table, seats=[1])

    class Boom(Exception):
        pass

    class Failing:
        def start_game(self, db: object, round_id: int, wagers: object) -> None:
            raise Boom("meter offline")

        def award(self, *a: object) -> int:
            return 0

        def end_game(self, db: object, round_id: int) -> None:
            return None

    table.jackpot = Failing()  # type: ignore[assignment]
    events = table.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    before = table.state
    with pytest.raises(Boom):
        table.handle(c.StartGame())
    assert table.db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == events
    assert table.state is before and table.state.phase is Phase.BETTING
    assert reopen(table).state == before


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), number=st.integers(3, 18), stop=st.integers(0, 40),
       profile=st.sampled_from(PROFILES))
def test_replay_equals_memory_at_a_random_stop(tmp_path_factory: pytest.TempPathFactory,
                                               seed: int, number: int, stop: int,
                                               profile: str) -> None:
    table = make_table(tmp_path_factory.mktemp("r"), profile)
    take_bank(table)
    bet_all(table)
    start_and_act(table, number)
    cmds = _script(table, seed)
    steps = 0
    while steps < stop:
        cmd = cmds.pop(0) if cmds else _next_command(table)
        if cmd is None:
            break
        try:
            table.handle(cmd)
        except Refused:
            break
        steps += 1
    again = reopen(table)
    assert again.state == table.state


def test_a_database_is_refused_under_another_profile(tmp_path: Path) -> None:
    from dealer_console.round.table import TableMismatch

    table = make_table(tmp_path, "washington-face-up")
    table.db.close()
    with pytest.raises(TableMismatch, match="washington-face-up"):
        make_table(tmp_path, "catfish-bend-fortune")


def _delivered(deal_id: int, index: int, cards: tuple[Card, ...], run_seq: int
               ) -> HandDelivered:
    return HandDelivered(device="shuffler", seq=run_seq, deal_id=deal_id, index=index,
                         cards=cards)


def test_a_shuffler_fact_applies_once_across_a_driver_restart(tmp_path: Path) -> None:
    """The shuffler driver numbers its events 1, 2, 3, ... per run; after a crash the new run
    starts again at 1 and the machine resends the deal. The key is the fact (deal id and
    delivery index), so the resent hands are ignored and the new ones are not."""
    table = make_table(tmp_path, "washington-face-up")
    bet_all(table)
    start_and_act(table, 9)
    hands = hands_with({}, 3)
    first_run = [_delivered(500, i + 1, h, run_seq=i + 1) for i, h in enumerate(hands[:3])]
    for event in first_run:
        assert table.handle(c.DealHand(event.cards), device=event.device, fact=event.key)
    table = reopen(table)
    before = table.state
    second_run = [_delivered(500, i + 1, h, run_seq=i + 1) for i, h in enumerate(hands)]
    for event in second_run[:3]:  # resent: same facts, seq restarted
        assert table.handle(c.DealHand(event.cards), device=event.device, fact=event.key) == []
    assert table.state == before
    for event in second_run[3:]:  # new facts whose seq numbers were used by the first run
        assert table.handle(c.DealHand(event.cards), device=event.device, fact=event.key)
    assert table.state.phase is Phase.DEAL_CHECK
    assert [table.state.hands[s] for s in table.state.order] == hands
    facts = [r[0] for r in table.db.execute("SELECT fact FROM device_facts ORDER BY seq")]
    assert facts == [f"hand/shuffler/500/{i}" for i in range(1, 8)]
    assert reopen(table).state == table.state


def test_a_deal_id_used_again_in_a_later_round_is_a_new_fact(tmp_path: Path) -> None:
    """Deal ids are 1-65535 and a restarted driver may pick one used before: a fact is only
    the same fact within its round."""
    table = make_table(tmp_path, "washington-face-up")
    for round_no in range(2):
        bet_all(table)
        start_and_act(table, 9)
        for i, h in enumerate(hands_with({}, round_no)):
            event = _delivered(77, i + 1, h, run_seq=i + 1)
            assert table.handle(c.DealHand(h), device="shuffler", fact=event.key)
        table.handle(c.RemainingCards(4))
        set_all_house_way(table)
        settle_all(table)
        table.handle(c.EndGame())
    assert table.db.execute("SELECT COUNT(*) FROM device_facts").fetchone()[0] == 14


def test_a_device_fact_needs_its_device(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    with pytest.raises(ValueError, match="device"):
        table.handle(c.StartGame(), fact=("x", 1))
    with pytest.raises(ValueError, match="device"):
        table.handle(c.StartGame(), device="keypad", device_seq=1, fact=("x", 1))
