"""Whose money the shift report counts, on rounds played through the real table: an outside
review found an Oxford Downs tip bet's toke box counted as the house's result (a designated
player banking, a tip bet won: the house "won" $10.00 it never had), and the house's own
wager against a Catfish Bend player banker counted as a player's drop, its result missing
from the house's."""

from __future__ import annotations

from pathlib import Path

from dealer_console.reports.shift import shift_report, summary_lines
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from tests.reports.test_shift import house_by_what_the_others_lost
from tests.round.helpers import (
    bet_all,
    deal,
    hands_with,
    make_table,
    play_round,
    set_all_house_way,
    settle_all,
    start_and_act,
    take_bank,
)
from tests.ui.test_line_words import oxford_tips_round

ALL_TIME = ("2000-01-01T00:00:00+00:00", "2200-01-01T00:00:00+00:00")


def test_a_won_tip_bet_goes_to_the_toke_box_not_the_house(tmp_path: Path) -> None:
    """Seat 1 banks; seat 2 wins $20 with a $5 tip bet, seat 3 loses $10 with a $3 one."""
    t = oxford_tips_round(tmp_path)
    settle_all(t)
    t.handle(c.EndGame())
    report = shift_report(t.db, *ALL_TIME)
    # the banker paid $20 and $5 and took $10 and $3; the toke box has $5 and $5
    assert (report.tip_bets_cents, report.tokes_cents) == (800, 1000)
    assert report.house_result_cents == 0  # the designated player banks: the house plays not
    assert house_by_what_the_others_lost(t.db, {1}) == 0
    assert report.drop == {"base": 3000} and report.paid == {"base": 4000}
    rows = dict(summary_lines(report))
    assert rows["Dealer tip bets (not in the drop)"] == "$8.00"
    assert rows["To the toke box"] == "$10.00"


def test_a_tip_bet_the_bank_cannot_match_is_partly_returned_not_tipped(tmp_path: Path) -> None:
    """The designated player banks $22: seat 2's $20 win takes $20 of it, so of the tip bet's
    $5 only $2 is matched; the toke box has those $2 of stake and the $2 win, and the $3 the
    bank could not match had no action and go back to seat 2 (rules README, "Banker
    coverage")."""
    t = oxford_tips_round(tmp_path, bank=2200)
    plan = {(line.seat, line.kind): line for line in t.state.plan}
    tips = plan[(2, "tips")]
    assert (tips.banker_delta, tips.returned, tips.house_delta) == (-200, 300, 400)
    settle_all(t)
    t.handle(c.EndGame())
    report = shift_report(t.db, *ALL_TIME)
    assert report.tokes_cents == 400
    assert report.house_result_cents == 0 == house_by_what_the_others_lost(t.db, {1})


def test_the_house_wager_against_a_player_banker_is_the_houses(tmp_path: Path) -> None:
    """Round 1 banked by the house; round 2 by seat 6, the house wagering $20 against it."""
    t = make_table(tmp_path, "catfish-bend-fortune")
    play_round(t, seed=0)
    first = shift_report(t.db, *ALL_TIME)
    assert t.state.phase is Phase.BANKER and t.state.offer_seat == 6
    take_bank(t, 50000)
    bet_all(t, base=2000, fortune=0)  # and the house's $20 (the helper's house wager)
    start_and_act(t)
    deal(t, hands_with({}, 3))
    t.handle(c.RemainingCards(4))
    set_all_house_way(t)
    lines = {(line.seat, line.kind): line for line in t.state.plan}
    house = lines[(0, "house_wager")]
    assert (house.outcome, house.staked, house.returned) == ("win", 2000, 4000)
    settle_all(t)
    t.handle(c.EndGame())
    report = shift_report(t.db, *ALL_TIME)
    assert report.house_wagers_cents == 2000
    # the house won its $20 from the banker and $1.00 commission from each of two winners
    assert report.house_result_cents - first.house_result_cents == 2000 + 100 + 100
    # five players' $20 each, and not the house's own
    assert report.drop["base"] - first.drop["base"] == 5 * 2000
    assert "house_wager" not in report.drop and "house_wager" not in report.paid
    assert dict(summary_lines(report))["House's own wagers against a player banker"] \
        == "+$20.00"
