"""The back-out for an executive whose card the console already authorised
(``back_outs.back_out_by``): the employee is checked again, a reason is required, the meter is
restored exactly, the adjustment names who and why, and no second swipe is logged."""

from __future__ import annotations

import pytest
from sqlite_utils import Database

from dealer_console.employees.authorize import RefusalReason, Refused
from dealer_console.jackpot import back_outs, games, hits
from dealer_console.jackpot.audit import verify_meters
from dealer_console.jackpot.games import JackpotError
from dealer_console.jackpot.history import awards_newest_first, ledger_newest_first
from dealer_console.jackpot.service import JackpotRound
from dealer_console.jackpot_values import meters
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import swipe_round
from tests.jackpot.test_authorisation import SEVEN_SF, game

__all__ = ["game"]  # the fixture, shared with the card path's tests


def _hit(db: Database) -> tuple[int, meters.MeterState]:
    jr = JackpotRound.start(db, 1, {1: [1, 2]})
    jr.show_hands({1: SEVEN_SF})
    before = games.meter_states(db, 1)["main"]
    return swipe_round(jr, CARDS["executive"]).hit_id, before


def _swipes(db: Database) -> int:
    return int(db.execute(
        "SELECT COUNT(*) FROM employee_log WHERE action = 'swipe_accepted'").fetchone()[0])


@pytest.mark.parametrize(("employee", "reason"), [
    ("S1", RefusalReason.NOT_AUTHORISED), ("S2", RefusalReason.DISABLED)])
def test_only_an_enabled_executive_backs_out(game: Database, employee: str,
                                             reason: RefusalReason) -> None:
    hit_id, _ = _hit(game)
    after = games.meter_states(game, 1)
    with pytest.raises(Refused) as info:
        back_outs.back_out_by(game, hit_id=hit_id, reason="wrong seat", employee_id=employee)
    assert info.value.reason is reason
    assert games.meter_states(game, 1) == after
    assert not hits.get_hit(game, hit_id).backed_out


def test_a_back_out_restores_the_meter_and_names_who_and_why(game: Database) -> None:
    hit_id, before = _hit(game)
    assert back_outs.back_out_problem(game, hit_id, "   ") == "a back-out needs a reason"
    with pytest.raises(JackpotError, match="reason"):
        back_outs.back_out_by(game, hit_id=hit_id, reason=" ", employee_id="X1")
    swipes = _swipes(game)
    back_outs.back_out_by(game, hit_id=hit_id, reason="  dealer misread  ", employee_id="X1")
    assert games.meter_states(game, 1)["main"] == before
    assert _swipes(game) == swipes  # the console logged the swipe when it was read
    entry = awards_newest_first(game)[0]
    assert entry.hit.hit_id == hit_id and entry.back_out is not None
    assert (entry.back_out.employee_name, entry.back_out.reason) == ("Ella Exec",
                                                                     "dealer misread")
    assert ledger_newest_first(game)[0].kind == "adjustment"
    assert back_outs.back_out_problem(game, hit_id, "again") == (
        f"jackpot hit {hit_id} is already backed out")
    assert verify_meters(game) == []
