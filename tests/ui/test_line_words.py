"""What the dealer is told to do with each settled wager (``ui/words.line_words``), on a round
played through the real table: an outside review found a won Oxford Downs tip bet worded as a
lost one ("Tips: take $5.00"), so the dealer was never told to have the designated player pay
the tip's win into the toke box (Oxford Downs, "Dealer Tip Bets")."""

from __future__ import annotations

from pathlib import Path

from dealer_console.round import commands as c
from dealer_console.round.state import Line, Phase
from dealer_console.round.table import Table
from tests.round.helpers import deal, hands_with, make_table, set_all_house_way
from tests.round.test_line_limits import capped_round, commission_lines
from ui.words import line_words

HANDS = {1: "3c 4d 6h 8s 9c Jd 2h",  # the designated player's, set the House Way
         2: "As Ad Ks Kd Qc Qh 2c",  # beats it
         3: "2s 3h 4c 5h 7d 8d Tc"}  # loses to it


def oxford_tips_lines(tmp_path: Path) -> list[Line]:
    return list(oxford_tips_round(tmp_path).state.plan)


def oxford_tips_round(tmp_path: Path, bank: int = 10000) -> Table:
    """Seat 1 banks; seat 2 bets $20 with a $5 tip bet, seat 3 $10 with a $3 one; every hand
    the House Way (seat 2 beats the banker, seat 3 loses); the round at its settlement."""
    t = make_table(tmp_path, "oxford-downs-face-up")
    while t.state.phase is Phase.BANKER and t.state.offer_seat != 1:
        t.handle(c.DeclineBank(t.state.offer_seat))
    t.handle(c.AcceptBank(1, bank))
    for seat, kind, cents in ((2, "base", 2000), (2, "tips", 500), (3, "base", 1000),
                              (3, "tips", 300)):
        t.handle(c.PlaceWager(seat, kind, cents))
    t.handle(c.StartGame())
    t.handle(c.SetActionSeat(2, restart=True, who="the floor"))  # the button put in play
    order = t.state.order
    deal(t, hands_with({order.index(seat): cards for seat, cards in HANDS.items()}, seed=1))
    t.handle(c.RemainingCards(4))
    set_all_house_way(t)
    return t


def test_a_won_tip_bet_tells_the_dealer_to_pay_it_into_the_toke_box(tmp_path: Path) -> None:
    lines = {(x.seat, x.kind): x for x in oxford_tips_lines(tmp_path)}
    won, lost = lines[(2, "tips")], lines[(3, "tips")]
    assert (won.outcome, lost.outcome) == ("win", "loss")
    assert line_words(won) == "Tips won: the banker pays $5.00; $10.00 to the toke box"
    assert line_words(lost) == "Tips: take $3.00"


def test_a_won_tip_bet_the_bank_cannot_match_is_returned_in_part(tmp_path: Path) -> None:
    """A $22 bank: seat 2's $20 win takes $20, so $2 of its $5 tip is matched (and wins $2
    for the toke box), and the dealer gives the other $3 back."""
    t = oxford_tips_round(tmp_path, bank=2200)
    won = next(x for x in t.state.plan if (x.seat, x.kind) == (2, "tips"))
    assert line_words(won) == ("Tips won: the banker pays $2.00; $4.00 to the toke box; "
                               "return $3.00 (not matched)")


def test_a_payout_cut_or_a_commission_is_said_beside_the_amount(tmp_path: Path) -> None:
    """What cut or added to a line's money (``Line.limits``) is said where the dealer pays
    it: a Fortune win cut by Washington's aggregate limit, a base win less commission."""
    for folder in ("capped", "commission"):
        (tmp_path / folder).mkdir()
    _path, lines = capped_round(tmp_path / "capped")
    fortune = next(x for x in lines if (x.seat, x.kind) == (1, "fortune"))
    assert fortune.limits.startswith("aggregate limit cut $")
    pay = fortune.returned - fortune.staked
    assert line_words(fortune) == f"Fortune: pay ${pay / 100:,.2f} ({fortune.limits})"
    for line in commission_lines(tmp_path / "commission"):
        assert line.limits.startswith("commission $")
        assert line_words(line) == (f"Base: pay ${(line.returned - line.staked) / 100:,.2f} "
                                    f"({line.limits})")
