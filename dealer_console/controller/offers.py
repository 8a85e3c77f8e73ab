"""The commands a screen's buttons send in the round's phase, each answered once per view with
why the round would refuse it (or None): the screens draw these answers from the snapshot
instead of asking the round on every redraw. A command typed by hand (an amount, a number, a
hand set otherwise) is still checked as it is typed (``TableController.check``).
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_console.round import commands as c
from dealer_console.round.decide_dealing import button_seat
from dealer_console.round.decide_quick import copy_source
from dealer_console.round.phases import ACCEPTS
from dealer_console.round.rotation import last_wagers, own_bank
from dealer_console.round.rules import RoundRules
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import RoundState

DECK = 53

SUPERVISOR = "the supervisor"
"""The name the supervisor's offers are checked with: the round asks only that a name is
given, never whose."""


def offered(st: RoundState, rules: RoundRules) -> list[c.Command]:
    """The buttons' commands the phase accepts now, with the seats they name (and the seat
    the action button moves to by itself)."""
    accepts = ACCEPTS[st.phase]
    plain: list[c.Command] = [c.StartGame(), c.CorrectFirstHand(), c.Redeal(),
                              c.SetBankerHand(), c.SetHandsHouseWay(), c.SettleNext(),
                              c.SettleAll(), c.EndGame()]
    out = [cmd for cmd in plain if type(cmd) in accepts]
    if c.DeclineBank in accepts:
        out.append(c.DeclineBank(st.offer_seat))
        bank = own_bank(st)
        if bank is not None:
            out.append(c.AcceptBank(st.offer_seat, bank))
    if c.RepeatWagers in accepts:
        out.append(c.RepeatWagers())
        out.extend(c.RepeatWagers(seat) for seat in sorted({s for s, _k, _a in last_wagers(st)}))
    if c.CopyWagers in accepts:
        copies = ((to, copy_source(st, rules, to)) for to in rules.player_seats)
        out.extend(c.CopyWagers(to, source) for to, source in copies if source is not None)
    if c.SettleAll in accepts and rules.profile.jackpot is None:
        out.append(c.SettleAll(end_game=True))  # no jackpot: the round ends with the money
    if c.SetActionSeat in accepts:
        seat = button_seat(st, rules)
        if seat is not None:
            out.append(c.SetActionSeat(seat))
    if c.RemoveWager in accepts:
        out.extend(c.RemoveWager(seat, kind) for seat, kind in sorted(st.wagers))
    if c.SetPlayerHand in accepts:
        # the hands waiting for a second chance too (Catfish Bend, "Irregularities");
        # whether each may be set is the round's answer, once per view
        out.extend(c.SetPlayerHand(seat)
                   for seat in RoundSnapshot.of(st, rules).players_to_set())
    return out


def answered(st: RoundState, check: Callable[[c.Command], str | None],
             rules: RoundRules) -> tuple[tuple[c.Command, str | None], ...]:
    return tuple((cmd, check(cmd)) for cmd in offered(st, rules))


def supervisor_problems(check: Callable[[c.Command], str | None]
                        ) -> tuple[str | None, str | None]:
    """Why a supervisor could not void the round, and could not enter a deck count, now."""
    return check(c.VoidRound("-", SUPERVISOR)), check(c.DeckCounted(DECK, SUPERVISOR))
