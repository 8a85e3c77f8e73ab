"""Card swipes in tests, through the console's own path: the jackpot system decides what a
swipe comes to and the jackpot desk's :func:`carry_out` hands a payment to the round; a
back-out's card goes through the card desk, as the money bag's prompt does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlite_utils import Database

from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.jackpot_desk import carry_out
from dealer_console.employees.authorize import authorise
from dealer_console.employees.registry import Employee, Role
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.jackpot import back_outs, confirm_rules
from dealer_console.jackpot.games import JackpotError
from dealer_console.jackpot.hits import HitRecord
from dealer_console.jackpot.marks import mark_refusal
from dealer_console.jackpot.service import JackpotRound
from dealer_console.jackpot.system import JackpotSystem
from dealer_console.jackpot_values.link_records import HitAnswer
from dealer_console.round.table import Table


def swipe(system: JackpotSystem, table: Table, track: str) -> HitRecord | None:
    """A card swiped for the next hit: the hit when it is paid, None when held, a PIN is
    asked or the link is asked."""
    return carry_out(system, table, system.confirm(table.state, track))


def pin(system: JackpotSystem, table: Table, typed: str) -> HitRecord | None:
    """The confirmer's PIN typed after their swipe."""
    return carry_out(system, table, system.enter_pin(table.state, typed))


def answered(system: JackpotSystem, table: Table, answer: HitAnswer) -> HitRecord | None:
    """The link server's answer, carried out (None: an answer to nothing asked)."""
    pay = system.answered(answer)
    return None if pay is None else carry_out(system, table, pay)


def swipe_round(jr: JackpotRound, track: str, spot: int | None = None,
                seat: int | None = None) -> HitRecord:
    """A swipe on a round's jackpot without the round's table (the jackpot's own tests): the
    next pending hit, or seat ``seat`` of game ``spot``, authorised by the confirmation rules
    and recorded as the round's hook records it."""
    if spot is None or seat is None:
        pending = jr.pending()
        if not pending:
            raise mark_refusal("no jackpot hand is waiting to be confirmed")
        spot, seat = pending[0].spot, pending[0].mark.seat
    game = jr.game(spot)
    mark = game.marks.get(seat)
    if mark is None:
        raise mark_refusal(f"seat {seat} has no jackpot hand marked on game {spot}")
    role, action = confirm_rules.hit_action(jr.db, jr.round_id, spot, seat,
                                            game.paytable.number_of(mark.line))
    employee = authorise(jr.db, track, role, action)
    return jr.confirm_as(spot, seat, employee.employee_id)


def back_out_by_card(db: Database, *, hit_id: int, reason: str, track: str) -> int:
    """An award backed out on an executive's swipe, as the money bag asks for it: the
    problem told first (no card wanted), then the card desk's prompt."""
    problem = back_outs.back_out_problem(db, hit_id, reason)
    if problem:
        raise JackpotError(problem)
    done: list[int] = []

    def on_card(employee: Employee) -> None:
        done.append(back_outs.back_out_by(db, hit_id=hit_id, reason=reason,
                                          employee_id=employee.employee_id))

    desk = CardDesk(db, lambda: None, lambda _why: None)
    desk.want(Role.EXECUTIVE, f"back out jackpot award {hit_id} ({reason.strip()})", on_card)
    desk.swiped(track)
    return done[0]


@contextmanager
def mark_refused(match: str | None = None) -> Iterator[pytest.ExceptionInfo[Refusal]]:
    """The round's jackpot marks refuse what the block does: the one refusal, its code
    ``jackpot_mark``."""
    with pytest.raises(Refusal, match=match) as info:
        yield info
    assert info.value.code is RefusalCode.JACKPOT_MARK, info.value.code
