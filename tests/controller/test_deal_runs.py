"""A deal's hands that wait together in the inbox are saved as one run: one transaction for
the burst, each hand still decided on the round as the hands before it left it, and no more
taken in one turn than the pump's ``max_events`` allows (the console's bridge takes a few a
turn, the simulated dealer one where a fault acts between two hands)."""

from __future__ import annotations

import time

from dealer_console.audit.verify import audit
from dealer_console.round.state import Phase
from tests.controller.conftest import Rig
from tests.controller.test_controller import bet, finish_round, start_by_keypad


def transactions(rig: Rig) -> list[list[str]]:
    """Each transaction the table commits from now on, as the kinds of the events it writes."""
    done: list[list[str]] = []
    now: list[str] = []

    def trace(sql: str) -> None:
        words = sql.split()
        if not words:
            return
        if words[0] == "BEGIN":
            now.clear()
        elif words[0] == "COMMIT":
            done.append(list(now))
        elif sql.startswith("INSERT INTO events") and "'" in sql:
            now.append(sql.split("'")[1])

    rig.opened.db.conn.set_trace_callback(trace)
    return done


def hands_waiting(rig: Rig) -> None:
    """A round started, its first hand saved, and the rest of the deal waiting in the inbox
    (the shuffler shuffles for a moment, then delivers its hands at once)."""
    assert rig.hardware.shuffler is not None
    rig.hardware.shuffler.script(shuffle_seconds=0.3)
    bet(rig)
    start_by_keypad(rig)
    ctl = rig.controller
    rig.until(lambda: ctl.state.phase is Phase.DEALING, "the random number", one_by_one=True)
    deadline = time.monotonic() + 15
    while not rig.hardware.shuffler.link_idle:  # every hand sent and acknowledged
        assert time.monotonic() < deadline, "the deal was not delivered"
        time.sleep(0.05)
    time.sleep(0.2)  # the driver's last event reaches the inbox
    # the machine's reports before the hands (its state), then the first hand, one a turn
    rig.until(lambda: len(ctl.state.delivered) == 1, "the first hand", one_by_one=True)


def test_the_hands_that_wait_together_are_one_transaction_within_the_pump_s_turn(
        rig: Rig) -> None:
    ctl = rig.controller
    hands_waiting(rig)
    committed = transactions(rig)
    assert ctl.pump(max_events=3) == 3  # the turn's budget bounds the run
    assert len(ctl.state.delivered) == 4
    assert committed == [["hand_dealt"] * 6]  # each event is traced twice: 3 hands, 1 commit
    committed.clear()
    rig.until(lambda: ctl.state.phase is Phase.BANKER_SET, "the rest of the deal")
    assert len(ctl.state.delivered) == 7 and len(ctl.state.hands) == 7
    hands = [kinds for kinds in committed if "hand_dealt" in kinds]
    assert hands == [["hand_dealt"] * 6]  # the other three, together
    rig.opened.db.conn.set_trace_callback(None)
    seats = [seat for (seat,) in rig.opened.db.execute(
        "SELECT seat FROM hands WHERE round_id = ? ORDER BY delivery", [ctl.state.round_id])]
    assert seats == list(ctl.state.delivered)  # delivered in the shuffler's order
    finish_round(rig)
    report = audit(rig.opened.db)
    assert report.ok, report.problems


def test_one_event_a_turn_takes_the_hands_one_by_one(rig: Rig) -> None:
    ctl = rig.controller
    hands_waiting(rig)
    committed = transactions(rig)
    for n in range(2, 8):
        assert ctl.pump(max_events=1) == 1
        assert len(ctl.state.delivered) == n
    rig.opened.db.conn.set_trace_callback(None)
    assert committed == [["hand_dealt"] * 2] * 6
