"""One supervisor's swipe at the table is one ``swipe_accepted`` row of the employee log,
naming what it authorised (``controller/card_desk.py``). An outside review: a misdeal the
dealer declared on a supervisor's card wrote two rows, one by the card prompt and one by the
supervised command, and the shift report, which counts swipes from these rows, counted two."""

from __future__ import annotations

from dealer_console.audit.verify import audit
from dealer_console.reports.shift import shift_report, summary_lines
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from drivers.sim.table.choices import SIM_STAFF
from tests.controller.conftest import Rig
from tests.controller.test_controller import bet, notice_text, start_by_keypad

TRACK = {role: track for _id, _name, role, track in SIM_STAFF}
PURPOSE = "declare a misdeal: a position missed"


def swipes(rig: Rig) -> list[tuple[str, str, str]]:
    return [tuple(r) for r in rig.opened.db.execute(
        "SELECT action, employee_id, detail FROM employee_log WHERE action LIKE 'swipe_%'"
        " ORDER BY entry")]


def card_counts(rig: Rig) -> str:
    report = shift_report(rig.opened.db, "2000-01-01T00:00:00+00:00",
                          "2999-01-01T00:00:00+00:00")
    return dict(summary_lines(report))["Card swipes"]


def misdeal_asked(rig: Rig) -> None:
    """A deal stopped between hands (the dealer takes each), and a misdeal the dealer
    declares, which the round takes only on a supervisor's card."""
    ctl = rig.controller
    assert rig.hardware.shuffler is not None
    rig.hardware.shuffler.script(deal_button=True)
    bet(rig)
    start_by_keypad(rig)
    rig.until(lambda: ctl.state.phase is Phase.DEALING, "the deal")
    assert ctl.do_or_card(c.DeclareMisdeal("position_missed", "seat 4 skipped"), PURPOSE) \
        is False
    assert ctl.snapshot().card_wanted == f"Swipe a supervisor's card to {PURPOSE}"


def swipe(rig: Rig, role: str) -> None:
    assert rig.hardware.keypad is not None
    before = len(swipes(rig))
    rig.hardware.keypad.swipe(TRACK[role])
    rig.until(lambda: len(swipes(rig)) > before, "the swipe logged")


def test_a_supervisors_swipe_at_the_table_is_one_row_naming_what_it_authorised(
        rig: Rig) -> None:
    ctl = rig.controller
    misdeal_asked(rig)
    swipe(rig, "dealer")  # refused, and logged as before; the prompt waits
    assert ctl.state.phase is Phase.DEALING and ctl.snapshot().card_wanted is not None
    swipe(rig, "supervisor")
    assert ctl.state.phase is Phase.MISDEAL
    refused, accepted = swipes(rig)
    assert refused[:2] == ("swipe_refused", "SIM-D1") and PURPOSE in refused[2]
    assert accepted == ("swipe_accepted", "SIM-S1",
                        f"declaring a misdeal in round {ctl.state.round_id}, on a supervisor's "
                        f"card at the table, to {PURPOSE}")
    assert card_counts(rig) == "1 accepted, 1 refused"
    assert audit(rig.opened.db).ok


def test_a_swipe_whose_step_the_round_then_refuses_is_still_one_row(rig: Rig) -> None:
    """The card asked for, the deal finished before it was swiped: the misdeal is no longer
    the round's to take. The swipe was accepted and did nothing; its one row says so."""
    ctl = rig.controller
    misdeal_asked(rig)
    assert rig.hardware.shuffler is not None
    while ctl.state.phase is Phase.DEALING:
        rig.hardware.shuffler.press_deal_button()
        ctl.pump(timeout=0.1)
    rig.until(lambda: ctl.state.phase is Phase.BANKER_SET, "the deal checked")
    swipe(rig, "supervisor")
    assert "declaring a misdeal is not allowed in phase banker_set" in notice_text(rig)
    (accepted,) = swipes(rig)
    assert accepted == ("swipe_accepted", "SIM-S1",
                        f"{PURPOSE}: not done (declaring a misdeal is not allowed in phase "
                        "banker_set (only dealing or deal_check))")
    assert card_counts(rig) == "1 accepted, 0 refused"
    assert ctl.state.phase is Phase.BANKER_SET and audit(rig.opened.db).ok
