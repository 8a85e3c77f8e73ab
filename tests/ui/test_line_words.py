"""What the dealer is told to do with each settled wager (``ui/words.line_words``), on rounds
played through the real table: an outside review found a won Oxford Downs tip bet worded as a
lost one ("Tips: take $5.00"), so the dealer was never told to have the designated player pay
the tip's win into the toke box (Oxford Downs, "Dealer Tip Bets")."""

from __future__ import annotations

import random
from pathlib import Path

from dealer_console.cards import DECK, parse_cards
from dealer_console.round import commands as c
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import Line, Phase
from dealer_console.round.table import Table
from tests.round.helpers import make_table, settle_all
from ui.words import line_words


def play(t: Table, *, bank: tuple[int, int] | None = None,
         wagers: tuple[tuple[int, str, int], ...] = (), hands: dict[int, str] | None = None,
         action_seat: int | None = None, end: bool = True) -> list[Line]:
    """One round: bank offer (accepted by bank[0] with bank[1] cents, else declined), wagers
    [(seat, kind, cents)], hands {seat: cards} (the rest dealt from a seeded shuffle), every
    hand set the House Way, every seat settled, END GAME. Returns the planned lines."""
    if t.state.phase is Phase.BANKER:
        if bank is None:
            t.handle(c.DeclineBank(t.state.offer_seat))
        else:
            while t.state.offer_seat != bank[0]:
                t.handle(c.DeclineBank(t.state.offer_seat))
            t.handle(c.AcceptBank(bank[0], bank[1]))
    for seat, kind, cents in wagers:
        t.handle(c.PlaceWager(seat, kind, cents))
    t.handle(c.StartGame())
    if t.rules.action_method.value == "high_card":
        t.handle(c.SetActionSeat(action_seat, restart=True))
    else:
        t.handle(c.SetActionNumber(9))
    fixed = {s: parse_cards(h, 7) for s, h in (hands or {}).items()}
    used = {x for v in fixed.values() for x in v}
    rest = [x for x in DECK if x not in used]
    random.Random(1).shuffle(rest)
    for s in t.state.order:
        if s in fixed:
            t.handle(c.DealHand(fixed[s]))
        else:
            t.handle(c.DealHand(tuple(rest[:7])))
            rest = rest[7:]
    t.handle(c.RemainingCards(4))
    if t.state.phase is Phase.BANKER_SET and t.rules.face_up:
        t.handle(c.SetBankerHand())
    while t.state.phase is Phase.PLAYERS_SET:
        t.handle(c.SetPlayerHand(RoundSnapshot.of(t.state).players_to_set()[0]))
    if t.state.phase is Phase.BANKER_SET:
        t.handle(c.SetBankerHand())
    plan = list(t.state.plan)
    if end:
        settle_all(t)
        t.handle(c.EndGame())
    return plan


def line(plan: list[Line], seat: int, kind: str) -> Line:
    return next(x for x in plan if x.seat == seat and x.kind == kind)


def _oxford_tips_round(tmp_path: Path) -> list[Line]:
    t = make_table(tmp_path, "oxford-downs-face-up")
    plan = play(t, bank=(1, 10000), action_seat=2,
                wagers=((2, "base", 2000), (2, "tips", 500),     # seat 2's hand beats the DP
                        (3, "base", 1000), (3, "tips", 300)),    # seat 3's hand loses to the DP
                hands={1: "3c 4d 6h 8s 9c Jd 2h",                 # DP: set the House Way
                       2: "As Ad Ks Kd Qc Qh 2c",
                       3: "2s 3h 4c 5h 7d 8d Tc"}, end=True)
    return plan


def test_a_won_tip_bet_tells_the_dealer_to_pay_it_into_the_toke_box(tmp_path: Path) -> None:
    plan = _oxford_tips_round(tmp_path)
    won, lost = line(plan, 2, "tips"), line(plan, 3, "tips")
    assert (won.outcome, lost.outcome) == ("win", "loss")
    assert line_words(won) == "Tips won: the banker pays $5.00; $10.00 to the toke box"
    assert line_words(lost) == "Tips: take $3.00"
