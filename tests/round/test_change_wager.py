"""A wager's amount typed again before START GAME changes it (``ChangeWager``): the old one
taken back and the new one placed as one step, the seat's other wagers left as they are. An
outside review counted ten touches to raise a base wager that had a Fortune on it (take back
the Fortune, the base, type, place both again); the change is one command."""

from __future__ import annotations

from pathlib import Path

from dealer_console.audit.verify import audit
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from tests.round.helpers import (
    deal,
    hands_with,
    make_table,
    reopen,
    set_all_house_way,
    settle_all,
    start_and_act,
)
from tests.round.test_procedure import _refused


def test_a_base_wager_raised_keeps_its_fortune_and_settles_on_the_new_amount(
        tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    table.handle(c.PlaceWager(1, "base", 2500))
    table.handle(c.PlaceWager(1, "fortune", 500))
    table.handle(c.PlaceWager(2, "base", 2500))
    written = table.handle(c.ChangeWager(1, "base", 5000))
    assert [(e.kind, e.payload) for e in written] == [
        ("wager_removed", {"seat": 1, "kind": "base"}),
        ("wager_placed", {"seat": 1, "kind": "base", "cents": 5000, "envy": False})]
    assert table.state.wagers == {(1, "base"): 5000, (1, "fortune"): 500, (2, "base"): 2500}
    table = reopen(table)  # the log's two events rebuild the same wagers
    assert table.state.wagers == {(1, "base"): 5000, (1, "fortune"): 500, (2, "base"): 2500}
    table.handle(c.ChangeWager(1, "fortune", 1000))
    start_and_act(table, 9)
    deal(table, hands_with({}))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    staked = {(ln.seat, ln.kind): ln.staked for ln in table.state.lines}
    assert staked[(1, "base")] == 5000 and staked[(1, "fortune")] == 1000
    table.handle(c.EndGame())
    assert audit(table.db).ok


def test_a_change_is_checked_as_a_new_wager_and_a_refused_one_changes_nothing(
        tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    _refused(table, c.ChangeWager(1, "base", 2500), "has no base wager to change")
    table.handle(c.PlaceWager(1, "base", 2500))
    table.handle(c.PlaceWager(1, "jackpot", 100))
    _refused(table, c.ChangeWager(1, "base", 2500), r"is \$25\.00 already")
    _refused(table, c.ChangeWager(1, "base", 1), "below the minimum")
    _refused(table, c.ChangeWager(1, "base", 0), "more than")
    _refused(table, c.ChangeWager(1, "jackpot", 500), "fixed amount")
    table.handle(c.PlaceWager(2, "base", 2500))
    table.handle(c.StartGame())
    assert table.state.phase is Phase.ACTION
    _refused(table, c.ChangeWager(1, "base", 5000), "locked after START GAME")
