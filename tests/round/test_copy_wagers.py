"""The seat before's wagers placed at a new seat in one touch (``CopyWagers``): each placed as
``PlaceWager`` would place it, the whole copy refused when one of them is, and offered at a
seat only from the nearest seat before it that has wagers. An outside review counted 43 taps
for five new players with a Fortune each; players who bet alike now cost one touch a seat."""

from __future__ import annotations

from pathlib import Path

from dealer_console.audit.verify import audit
from dealer_console.controller.offers import offered
from dealer_console.round import commands as c
from dealer_console.round.decide_quick import copy_source
from dealer_console.round.state import Phase
from tests.round.helpers import make_table, play_out, play_round, reopen
from tests.round.test_procedure import _refused


def test_a_seat_s_base_and_fortune_placed_again_at_the_next_seat(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    placed = [*table.handle(c.PlaceWager(1, "base", 2500)),
              *table.handle(c.PlaceWager(1, "fortune", 500))]
    table.handle(c.PlaceWager(1, "jackpot", 100))  # a jackpot chip is the player's own
    written = table.handle(c.CopyWagers(2, 1))
    # the same events seat by seat would write (the envy button placed with the Fortune)
    assert [(e.kind, {**e.payload, "seat": 1}) for e in written] == [
        (e.kind, e.payload) for e in placed]
    assert [e.payload["seat"] for e in written] == [2, 2]
    want = {(1, "base"): 2500, (1, "fortune"): 500, (1, "jackpot"): 100,
            (2, "base"): 2500, (2, "fortune"): 500}
    assert table.state.wagers == want
    assert reopen(table).state.wagers == want  # the log's events rebuild the copy


def test_a_copy_is_refused_whole_and_changes_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    _refused(table, c.CopyWagers(2, 1), "seat 1 has no wagers to place again")
    table.handle(c.PlaceWager(1, "base", 2500))
    table.handle(c.PlaceWager(1, "fortune", 500))
    _refused(table, c.CopyWagers(1, 1), "cannot take its own wagers")
    table.handle(c.PlaceWager(3, "base", 5000))
    _refused(table, c.CopyWagers(3, 1), "has wagers already")
    _refused(table, c.CopyWagers(9, 1), "seat 9")  # no such seat: the base refused, so all
    table.handle(c.PlaceWager(2, "base", 2500))
    table.handle(c.StartGame())
    assert table.state.phase is Phase.ACTION
    _refused(table, c.CopyWagers(4, 1), "not allowed in phase action")


def test_the_seat_before_is_the_nearest_with_wagers_never_a_player_banker(
        tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    st, rules = table.state, table.rules
    assert copy_source(st, rules, 2) is None  # no wagers yet
    table.handle(c.PlaceWager(1, "base", 2500))
    table.handle(c.PlaceWager(3, "base", 1000))
    st = table.state
    assert [copy_source(st, rules, s) for s in rules.player_seats] == [None, 1, None, 3, 3, 3]
    offers = [cmd for cmd in offered(st, rules) if isinstance(cmd, c.CopyWagers)]
    assert offers == [c.CopyWagers(2, 1), c.CopyWagers(4, 3), c.CopyWagers(5, 3),
                      c.CopyWagers(6, 3)]


def test_a_player_banker_s_own_fortune_is_not_copied(tmp_path: Path) -> None:
    """Catfish Bend ("Player banker"): the banking player may play the Fortune; that is the
    banker's wager, not a player's, so the seat after it copies from the seat before it."""
    table = make_table(tmp_path, "catfish-bend-fortune")
    play_round(table, seed=1)  # the house banks first, then offers the bank seat by seat
    while table.state.offer_seat != 4:  # seats either side of the banker
        table.handle(c.DeclineBank(table.state.offer_seat))
        play_round(table, seed=table.state.round_id)
    banker = table.state.offer_seat
    table.handle(c.AcceptBank(banker, 800_000))
    before = [s for s in table.rules.player_seats if s < banker]
    after = [s for s in table.rules.player_seats if s > banker]
    table.handle(c.PlaceWager(before[-1], "base", 2000))
    table.handle(c.PlaceWager(banker, "fortune", 500))
    _refused(table, c.CopyWagers(after[0], banker), f"seat {banker} banks this round")
    _refused(table, c.CopyWagers(banker, before[-1]), f"seat {banker} banks this round")
    assert copy_source(table.state, table.rules, after[0]) == before[-1]
    table.handle(c.CopyWagers(after[0], before[-1]))
    assert table.state.wagers[(after[0], "base")] == 2000
    assert (after[0], "fortune") not in table.state.wagers
    table.handle(c.PlaceWager(0, "house_wager", 2000))
    play_out(table, seed=2)
    table.handle(c.EndGame())
    assert audit(table.db).ok
