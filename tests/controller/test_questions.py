"""The questions screens ask, answered from the round: who may set their own hand, what a
player banker's wager still covers, which hands stay face down."""

from __future__ import annotations

from pathlib import Path

from dealer_console.controller.questions import hidden_seats, sets_own_hand
from dealer_console.round import commands as c
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import Phase
from tests.round.helpers import deal, hands_with, make_table, set_all_house_way, take_bank


def test_the_house_sets_only_the_house_way_a_player_banker_sets_their_own(
        tmp_path: Path) -> None:
    house = make_table(tmp_path, "washington-face-up", name="w.db")
    assert not sets_own_hand(house.state, 0) and sets_own_hand(house.state, 3)
    player = make_table(tmp_path, "california-face-up", name="c.db")
    take_bank(player)
    banker = player.state.banker_seat
    assert sets_own_hand(player.state, banker)


def test_a_player_banker_s_coverage_left_follows_the_seats_settled(tmp_path: Path) -> None:
    table = make_table(tmp_path, "california-face-up")
    take_bank(table, 100_000)
    assert RoundSnapshot.of(table.state, table.rules).banker_coverage_left == 100_000
    for seat in (2, 3):
        table.handle(c.PlaceWager(seat, "base", 2000))
    table.handle(c.StartGame())
    table.handle(c.SetActionNumber(9))
    assert table.state.banker_seat in hidden_seats(table.rules, table.state)
    deal(table, hands_with({}))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    while table.state.phase is Phase.SETTLEMENT:
        table.handle(c.SettleNext())
        view = RoundSnapshot.of(table.state, table.rules)
        paid = sum(x.banker_delta for x in table.state.lines)
        assert view.banker_coverage_left == 100_000 + paid
    house = make_table(tmp_path, "washington-face-up", name="h.db")
    assert RoundSnapshot.of(house.state, house.rules).banker_coverage_left is None
