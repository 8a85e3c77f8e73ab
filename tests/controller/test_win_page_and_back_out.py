"""The money bag and the back-out through the controller, headless (the simulated keypad and
reader behind their real drivers): the keypad's MONEY_BAG becomes a win-page request in the
table's view, and a back-out waits for an executive's card with its reason."""

from __future__ import annotations

import pytest

from dealer_console.cards import parse_cards
from dealer_console.devices.keypad import Button
from dealer_console.errors import Refusal
from dealer_console.jackpot import games, hits
from drivers.sim.table.world import shuffled_deck
from tests.controller.conftest import Rig
from tests.controller.test_controller import bet, finish_round, notice_text, start_by_keypad

SUPERVISOR, EXECUTIVE = "5000100000001=2912", "5000200000001=2912"


def hit_waiting(rig: Rig) -> None:
    """Seat 2 (its jackpot chip on the sensor) dealt a wild seven-card straight flush (25% of
    the meter, a supervisor's card), the round settled: the hit waits for its card."""
    assert rig.hardware.shuffler is not None
    hand = list(parse_cards("3d 4d 5d 6d JK 8d 9d"))
    rest = [x for x in shuffled_deck(5, 1) if x not in hand]
    rig.hardware.shuffler.script(deck_order=tuple(rest[:14] + hand + rest[14:]),
                                 random_number=1)
    bet(rig)
    start_by_keypad(rig)
    finish_round(rig)
    assert [p.seat for p in rig.controller.snapshot().jackpot_pending] == [2]


def confirmed_hit(rig: Rig) -> int:
    """:func:`hit_waiting`, confirmed on the keypad. Returns the award's number."""
    ctl, keypad = rig.controller, rig.hardware.keypad
    assert keypad is not None
    hit_waiting(rig)
    keypad.tap(Button.CONFIRM)
    rig.until(lambda: ctl.snapshot().jackpot_armed, "CONFIRM")
    keypad.swipe(SUPERVISOR)
    rig.until(lambda: not ctl.snapshot().jackpot_pending, "the confirmation")
    hit = hits.hit_for(rig.opened.db, ctl.state.round_id, 1, 2)
    assert hit is not None
    return hit.hit_id


def test_the_money_bag_asks_for_the_round_s_last_award_each_press(rig: Rig) -> None:
    ctl, keypad = rig.controller, rig.hardware.keypad
    assert keypad is not None
    keypad.tap(Button.MONEY_BAG)
    rig.until(lambda: notice_text(rig) != "", "the refusal")
    assert "no jackpot award has been confirmed in this round" in notice_text(rig)
    assert ctl.snapshot().win_page is None
    hit_id = confirmed_hit(rig)
    keypad.tap(Button.MONEY_BAG)
    rig.until(lambda: ctl.snapshot().win_page is not None, "the win page request")
    first = ctl.snapshot().win_page
    assert first is not None and (first.hit_id, first.copy) == (hit_id, 1)
    keypad.tap(Button.MONEY_BAG)  # a reprint is a new request for the same award
    rig.until(lambda: ctl.snapshot().win_page != first, "the second request")
    second = ctl.snapshot().win_page
    assert second is not None and (second.hit_id, second.number) == (hit_id, first.number + 1)
    assert second.copy == 2  # recorded before the window prints it: COPY 2 on the page
    assert [(p.copy, p.by) for p in ctl.win_page_prints(hit_id)] == [(1, "keypad"),
                                                                     (2, "keypad")]
    with pytest.raises(Refusal, match="no jackpot hit 99"):
        ctl.request_win_page(99)


def test_a_back_out_waits_for_an_executive_s_card_with_its_reason(rig: Rig) -> None:
    ctl, keypad = rig.controller, rig.hardware.keypad
    assert keypad is not None
    before = games.meter_states(rig.opened.db, 1)
    hit_id = confirmed_hit(rig)
    paid = games.meter_states(rig.opened.db, 1)  # the meter with the award taken off
    with pytest.raises(Refusal, match="needs a reason"):
        ctl.ask_back_out(hit_id, "   ")
    assert ctl.snapshot().card_wanted is None  # no card asked for without a reason
    ctl.ask_back_out(hit_id, "wrong seat")
    assert "executive's card" in (ctl.snapshot().card_wanted or "")
    keypad.swipe(SUPERVISOR)
    rig.until(lambda: "needs an executive's card" in notice_text(rig), "the refusal")
    assert games.meter_states(rig.opened.db, 1) == paid  # the refusal changed nothing
    keypad.swipe(EXECUTIVE)
    rig.until(lambda: hits.get_hit(rig.opened.db, hit_id).backed_out, "the back-out")
    award = hits.get_hit(rig.opened.db, hit_id)
    assert award.meter_before_micro is not None
    restored = games.meter_states(rig.opened.db, 1)["main"]
    assert restored.meter_micro == award.meter_before_micro  # to the millionth of a cent
    assert restored.reserve_micro == paid["main"].reserve_micro
    assert restored != before["main"]  # the round's contributions stay on the meter
    assert ctl.snapshot().card_wanted is None
    with pytest.raises(Refusal, match="already backed out"):
        ctl.ask_back_out(hit_id, "again")


def test_the_view_s_last_hit_is_backed_out_once_the_award_is(rig: Rig) -> None:
    """An outside review found the dealer's panel still reading "Paid: ... meter $2,500.15
    -> $1,875.12" after the back-out had put the meter back (its words:
    ``tests/ui/test_jackpot_panel.py``)."""
    ctl, keypad = rig.controller, rig.hardware.keypad
    assert keypad is not None
    hit_id = confirmed_hit(rig)
    last = ctl.snapshot().jackpot_last
    assert last is not None and last.hit_id == hit_id and not last.backed_out
    ctl.ask_back_out(hit_id, "wrong seat")
    keypad.swipe(EXECUTIVE)
    rig.until(lambda: hits.get_hit(rig.opened.db, hit_id).backed_out, "the back-out")
    last = ctl.snapshot().jackpot_last
    assert last is not None and last.backed_out


def test_a_jackpot_hit_is_never_a_dealer_s_command(rig: Rig) -> None:
    """Its confirmers are the cards swiped for it: a command naming them paid with no card,
    no PIN and no second person (an outside review, through ``do``)."""
    from dealer_console.employees.registry import find
    from dealer_console.round import commands as c

    ctl = rig.controller
    hit_waiting(rig)
    [pending] = ctl.snapshot().jackpot_pending
    supervisor = find(rig.opened.db, "SIM-S1")
    assert supervisor is not None
    swipes = rig.opened.db.execute("SELECT COUNT(*) FROM employee_log").fetchone()
    with pytest.raises(Refusal, match="paid only on the cards swiped for it"):
        ctl.do(c.JackpotHit(2, pending.line_no, supervisor))
    assert hits.hit_for(rig.opened.db, ctl.state.round_id, 1, 2) is None
    assert rig.opened.db.execute("SELECT COUNT(*) FROM employee_log").fetchone() == swipes
