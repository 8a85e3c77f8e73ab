"""The table controller end to end: wagers by touch, START GAME and END GAME on the keypad,
the jackpot chips from the bet sensors, the hands from the shuffler, each applied once by its
fact key on the owner thread; what screens ask (accepted commands, refusals); unplugged devices
shown as faults and the round going on when they return; a restart in the middle of a deal."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.audit.verify import audit
from dealer_console.cards import parse_cards
from dealer_console.devices.keypad import Button
from dealer_console.devices.shuffler import HandDelivered, ShufflerState
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from drivers.keypad.device import KEPT_WINDOW
from drivers.shuffler import framer as sf
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.table.choices import SIM_STAFF
from drivers.sim.table.world import shuffled_deck
from tests.controller.conftest import Rig, floor, start_rig


def notice_text(rig: Rig) -> str:
    notice = rig.controller.snapshot().notice
    return f"{notice.what} ({notice.todo})" if notice else ""


def bet(rig: Rig) -> None:
    ctl = rig.controller
    ctl.do(c.PlaceWager(1, "base", 2000))
    ctl.do(c.PlaceWager(2, "base", 1000))
    assert rig.hardware.bus is not None
    rig.hardware.bus.place(2, 1)  # seat 2's jackpot chip on its sensor


def start_by_keypad(rig: Rig) -> None:
    assert rig.hardware.keypad is not None
    rig.hardware.keypad.tap(Button.START_GAME)
    rig.until(lambda: rig.controller.state.phase is not Phase.BETTING, "START GAME")


def finish_round(rig: Rig) -> None:
    ctl = rig.controller
    rig.until(lambda: ctl.state.phase is Phase.BANKER_SET, "the deal")
    ctl.do(c.SetBankerHand())
    while ctl.state.phase is Phase.PLAYERS_SET:
        seat = ctl.snapshot().round.players_to_set()[0]
        ctl.do(c.SetPlayerHand(seat))
    while ctl.state.phase is Phase.SETTLEMENT:
        ctl.do(c.SettleNext())
    assert ctl.state.phase is Phase.END


def test_a_round_from_touch_keypad_sensors_and_shuffler(rig: Rig) -> None:
    ctl = rig.controller
    view = ctl.snapshot()
    assert view.round.phase is Phase.BETTING
    assert view.accepts_now(c.PlaceWager) and not view.accepts_now(c.SettleNext)
    assert ctl.check(c.StartGame()) == "START GAME needs at least one base wager"
    assert "not allowed in phase betting" in (ctl.check(c.SettleNext()) or "")
    assert "needs a base wager first" in (ctl.check(c.PlaceWager(1, "jackpot", 100)) or "")
    bet(rig)
    assert "fixed at $1.00, not $5.00" in (ctl.check(c.PlaceWager(1, "jackpot", 500)) or "")
    assert ctl.check(c.StartGame()) is None
    round_id = ctl.state.round_id
    start_by_keypad(rig)
    assert ctl.state.wagers[(2, "jackpot")] == 100  # read from the sensors at the lock
    assert (1, "jackpot") not in ctl.state.wagers
    finish_round(rig)
    with pytest.raises(Refusal, match="not allowed in phase end"):
        ctl.do(c.SettleNext())
    assert rig.hardware.keypad is not None
    rig.hardware.keypad.tap(Button.END_GAME)
    rig.until(lambda: ctl.state.round_id == round_id + 1, "END GAME")
    facts = [f for (f,) in rig.opened.db.execute(
        "SELECT fact FROM device_facts WHERE round_id = ? ORDER BY seq", [round_id])]
    assert sum(f.startswith("hand/shuffler/") for f in facts) == 7
    assert any(f.startswith("random/") for f in facts) and any(f.startswith("left/")
                                                               for f in facts)
    assert any(f.startswith("locked/bet-sensors/") for f in facts)
    report = audit(rig.opened.db)
    assert report.ok, report.problems


def test_a_device_event_is_applied_only_by_the_owner_thread(rig: Rig) -> None:
    ctl = rig.controller
    bet(rig)
    start_by_keypad(rig)
    rig.until(lambda: ctl.state.phase is Phase.BANKER_SET, "the deal")
    deal_id = ctl.device_desk.deal_id
    assert deal_id is not None
    woken = threading.Event()
    ctl.wake = woken.set
    again = HandDelivered(device="shuffler", seq=999, deal_id=deal_id, index=3,
                          cards=ctl.state.hands[ctl.state.delivered[2]])
    before = rig.opened.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    thread = threading.Thread(target=ctl.deliver, args=(again,))
    thread.start()
    thread.join()
    assert woken.is_set()
    assert ctl.pump() == 1  # applied here, and recognised: the same fact, nothing written
    assert rig.opened.db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before


def test_start_game_waits_for_a_missing_device_and_goes_on_when_it_returns(rig: Rig) -> None:
    ctl = rig.controller
    bet(rig)
    rig.hardware.unplug("bet-sensors")
    rig.until(lambda: any(d.name == "bet-sensors" for d in ctl.snapshot().faults),
              "the sensors' fault")
    fault = next(d for d in ctl.snapshot().faults if d.name == "bet-sensors")
    assert "not connected" in (fault.fault or "") and "cable" in fault.todo
    with pytest.raises(Refusal, match=r"Bet sensors not connected: START GAME waits; check"):
        ctl.start_game()
    assert ctl.state.phase is Phase.BETTING and not ctl.state.locked
    rig.hardware.replug("bet-sensors")
    rig.until(lambda: not ctl.snapshot().faults, "the sensors back")
    ctl.start_game()
    rig.until(lambda: ctl.state.phase is not Phase.BETTING, "the lock")
    assert ctl.state.wagers[(2, "jackpot")] == 100


def test_shuffler_unplugged_in_the_middle_of_the_deal(rig: Rig) -> None:
    ctl = rig.controller
    assert rig.hardware.shuffler is not None
    rig.hardware.shuffler.script(hand_interval=0.05)
    bet(rig)
    start_by_keypad(rig)
    rig.until(lambda: len(ctl.state.delivered) >= 2, "two hands", one_by_one=True)
    rig.hardware.unplug("shuffler")
    rig.until(lambda: any(d.name == "shuffler" for d in ctl.snapshot().faults),
              "the shuffler's fault")
    rig.hardware.replug("shuffler")
    finish_round(rig)
    hands = [h for (h,) in rig.opened.db.execute(
        "SELECT cards FROM hands WHERE round_id = ? AND void = 0", [ctl.state.round_id])]
    assert len(hands) == 7 and len({card for h in hands for card in h.split()}) == 49
    assert not ctl.snapshot().faults


def test_a_jammed_deal_reset_is_over_and_the_redeal_is_asked_for(rig: Rig) -> None:
    """docs/protocols/shuffler.md: on a jam the rest of the deal never comes, and a RESET
    abandons it. An outside review found the deal kept open for good after that: the redeal
    was never asked of the shuffler and the round waited until the console restarted."""
    ctl = rig.controller
    shuffler = rig.hardware.shuffler
    assert shuffler is not None and ctl.devices.shuffler is not None
    shuffler.script(jam_after=2)
    bet(rig)
    start_by_keypad(rig)
    rig.until(lambda: shuffler.state is ShufflerState.JAM, "the jam")
    first = ctl.device_desk.deal_id
    ctl.devices.shuffler.reset()  # the technician cleared the jam
    rig.until(lambda: not ctl.device_desk.deal_open, "the abandoned deal seen over")
    shuffler.script(jam_after=None)
    ctl.supervise(c.DeclareMisdeal("position_missed", "the shuffler jammed"), floor(ctl))
    ctl.do(c.Redeal())
    rig.until(lambda: ctl.device_desk.deal_id != first and len(ctl.state.delivered) == 7,
              "the redeal's seven hands")
    finish_round(rig)
    assert audit(rig.opened.db).ok


def test_a_rounds_twenty_fifth_deal_and_the_next_rounds_deal_each_come(rig: Rig) -> None:
    """Outside reviews: the deal ids went eight to a round, so a round's ninth deal took the
    next round's first id, and the shuffler, which answers an id it has dealt with a status
    only, never dealt that round; then late deals took sixteen ids in turn, and a 25th deal's
    hands were taken for the 9th's, already applied. Each deal of a round now has an id of its
    own (``facts.deal_id_for``)."""
    ctl = rig.controller
    assert rig.hardware.shuffler is not None
    rig.hardware.shuffler.script(hand_interval=0.02)
    bet(rig)
    start_by_keypad(rig)
    ids = []
    for _ in range(24):
        rig.until(lambda: ctl.state.phase is Phase.DEALING and ctl.state.delivered, "a hand",
                  one_by_one=True)
        ids.append(ctl.device_desk.deal_id)
        ctl.supervise(c.DeclareMisdeal("position_missed", "a hand flew off the table"), floor(ctl))
        ctl.do(c.Redeal())
    finish_round(rig)
    ids.append(ctl.device_desk.deal_id)
    assert len(set(ids)) == 25
    round_id = ctl.state.round_id
    assert rig.hardware.keypad is not None
    rig.hardware.keypad.tap(Button.END_GAME)
    rig.until(lambda: ctl.state.round_id == round_id + 1, "END GAME")
    bet(rig)
    start_by_keypad(rig)
    finish_round(rig)  # dealt: the shuffler took the new round's deal
    assert ctl.device_desk.deal_id not in ids
    assert audit(rig.opened.db).ok


def test_a_deal_the_shuffler_refused_while_not_ready_is_asked_for_again(rig: Rig) -> None:
    """An outside review: START GAME with the shuffler's door open (not ready) had its deal
    answered with a status only; once ready, the machine's status named its last deal, which
    the desk took for a status sent before the request, and the round waited for good."""
    ctl = rig.controller
    shuffler = rig.hardware.shuffler
    assert shuffler is not None and ctl.devices.shuffler is not None
    shuffler.open_door()
    bet(rig)
    start_by_keypad(rig)
    rig.until(lambda: any(isinstance(m, sf.StartDeal) for m in list(shuffler.received)),
              "the request")
    assert not shuffler.dealt  # refused: not ready
    ctl.devices.shuffler.reset()  # the door closed, the machine reset: ready again
    finish_round(rig)
    assert sorted(shuffler.dealt) == [ctl.device_desk.deal_id]
    assert audit(rig.opened.db).ok


def test_a_round_started_while_a_test_deal_comes_out_is_dealt(rig: Rig) -> None:
    """The technician leaves test mode while the test deal still comes out and the dealer
    starts the round: the shuffler, dealing, refuses the round's deal; ready again, it is
    asked again (an outside review found the round waiting for good)."""
    from dealer_console.employees import registry

    ctl = rig.controller
    shuffler = rig.hardware.shuffler
    assert shuffler is not None
    shuffler.script(hand_interval=0.1)
    ctl.enter_test_mode(registry.get(rig.opened.db, "SIM-T1"))
    ctl.run_test("shuffler", "test deal")
    rig.until(lambda: shuffler.state is ShufflerState.DEALING, "the test deal")
    ctl.leave_test_mode()
    bet(rig)
    start_by_keypad(rig)
    finish_round(rig)
    assert ctl.device_desk.deal_id in shuffler.dealt and len(shuffler.dealt) == 2


def test_a_start_game_kept_while_the_keypad_was_unplugged_starts_no_later_round(
        rig: Rig) -> None:
    """docs/protocols/keypad.md: presses made while the cable is out are kept and sent once
    it is back. An outside review pressed START GAME on the unplugged keypad in round 1, played
    round 1 by touch, and plugged the keypad back in round 2's betting: the kept press started
    round 2. A kept press is told, never acted on; a press after the replug still works."""
    ctl = rig.controller
    keypad = rig.hardware.keypad
    assert keypad is not None
    bet(rig)
    rig.hardware.unplug("keypad")
    rig.until(lambda: any(d.name == "keypad" for d in ctl.snapshot().faults), "the fault")
    keypad.tap(Button.START_GAME)  # kept in the keypad
    ctl.start_game()  # the dealer starts by touch
    finish_round(rig)
    ctl.end_game()
    second = ctl.state.round_id
    ctl.do(c.PlaceWager(3, "base", 2500))
    rig.hardware.replug("keypad")
    rig.until(lambda: "START GAME was pressed on the keypad while the console could not read "
              "it (its cable out, or the console restarting): not used" in notice_text(rig),
              "the kept press told")
    assert (ctl.state.round_id, ctl.state.phase) == (second, Phase.BETTING)
    time.sleep(KEPT_WINDOW)
    start_by_keypad(rig)  # pressed now, it starts the round
    assert ctl.state.round_id == second and ctl.state.locked


def test_restart_in_the_middle_of_the_deal_resumes_the_same_deal(tmp_path: Path) -> None:
    first = start_rig(tmp_path / "t.db")
    assert first.hardware.shuffler is not None
    first.hardware.shuffler.script(hand_interval=0.05)
    bet(first)
    start_by_keypad(first)
    first.until(lambda: len(first.controller.state.delivered) >= 3, "three hands",
                one_by_one=True)
    dealt = dict(first.controller.state.hands)
    first.close()  # the power goes

    def paced(hardware: SimulatedHardware) -> None:
        # the deal asked for again comes at a dealer's pace: not over before the devices
        # have all connected, however loaded the machine
        assert hardware.shuffler is not None
        hardware.shuffler.script(hand_interval=0.3)

    second = start_rig(tmp_path / "t.db", before_start=paced)
    try:
        ctl = second.controller
        assert ctl.state.phase is Phase.DEALING
        for seat, cards in dealt.items():
            assert ctl.state.hands[seat] == cards
        finish_round(second)  # the same deal asked for again: the first hands not twice
        assert len(ctl.state.hands) == 7
        report = audit(second.opened.db)
        assert report.ok, report.problems
    finally:
        second.close()


def test_a_jackpot_hit_confirmed_by_keypad_and_card(tmp_path: Path) -> None:
    rig = start_rig(tmp_path / "j.db")
    try:
        ctl = rig.controller
        assert rig.hardware.shuffler is not None and rig.hardware.keypad is not None
        stacked = list(parse_cards("As Ad Ah Ac JK"))
        # the first delivery holds five aces, the rest a shuffle with no other jackpot hand
        deck = stacked + [x for x in shuffled_deck(5, 1) if x not in stacked]
        rig.hardware.shuffler.script(deck_order=tuple(deck), random_number=2)
        for seat in range(1, 7):
            ctl.do(c.PlaceWager(seat, "base", 1000))
            assert rig.hardware.bus is not None
            rig.hardware.bus.place(seat, 1)
        start_by_keypad(rig)
        finish_round(rig)
        pending = ctl.snapshot().jackpot_pending
        assert len(pending) == 1
        hit = pending[0]
        keypad = rig.hardware.keypad
        keypad.swipe("5000300000001=2912")  # a card before CONFIRM: nothing happens
        rig.until(lambda: notice_text(rig) != "", "the notice")
        assert "press CONFIRM first" in notice_text(rig)
        keypad.tap(Button.CONFIRM)
        rig.until(lambda: ctl.snapshot().jackpot_armed, "CONFIRM")
        keypad.swipe("5000300000001=2912")  # the dealer's own card: refused, logged
        rig.until(lambda: "dealer" in notice_text(rig), "the refusal")
        assert ctl.snapshot().jackpot_pending == pending
        card = {"supervisor": "5000100000001=2912", "executive": "5000200000001=2912"}
        keypad.swipe(card[hit.needs])
        rig.until(lambda: not ctl.snapshot().jackpot_pending, "the confirmation")
        payload = rig.opened.db.execute(
            "SELECT payload FROM events WHERE kind = 'jackpot_hit'").fetchone()[0]
        # no card data logged (the track's expiry as itself, not four digits of a time)
        assert "500020000000" not in payload
        assert not re.search(r"(?<![0-9a-f])2912(?![0-9a-f])", payload)
        assert '"who":"Sim Executive (SIM-X1, executive)"' in payload or hit.needs != "executive"
        refused = rig.opened.db.execute(
            "SELECT COUNT(*) FROM employee_log WHERE action = 'swipe_refused'").fetchone()[0]
        assert refused == 1
        report = audit(rig.opened.db)
        assert report.ok, report.problems
    finally:
        rig.close()


def test_a_start_game_refused_at_the_lock_places_no_jackpot_chip(rig: Rig) -> None:
    """The sensors answer with the chips they hold, but START GAME can no longer be taken (the
    base wagers were taken back meanwhile): no chip becomes a wager of a round that has not
    started, the sensors are released, and the dealer reads why."""
    ctl = rig.controller
    bet(rig)
    ctl.start_game()  # the sensors are asked to lock; their answer is still on its way
    ctl.do(c.RemoveWager(1, "base"))
    ctl.do(c.RemoveWager(2, "base"))
    rig.until(lambda: "needs at least one base wager" in notice_text(rig), "the refusal")
    assert ctl.state.phase is Phase.BETTING and not ctl.state.locked
    assert (2, "jackpot") not in ctl.state.wagers
    assert ctl.waiting_for is None  # released: a new START GAME may lock them again


def test_a_supervisors_command_names_only_an_employee_the_staff_list_still_holds(
        rig: Rig) -> None:
    """An outside review: a void named whoever its ``who`` said, and left nothing in the
    employee log. It now comes only through ``supervise``, for a supervisor read again from
    the staff list, and the round's log names them as the list does."""
    from dealer_console.employees import changes, registry
    from dealer_console.employees.registry import Employee, Role

    ctl, db = rig.controller, rig.opened.db
    ctl.do(c.PlaceWager(1, "base", 2000))
    with pytest.raises(Refusal, match="voiding the round is a supervisor's") as refused:
        ctl.do(c.VoidRound("closing", "Anyone At All"))
    assert refused.value.code is RefusalCode.STAFF
    with pytest.raises(Refusal, match="a supervisor's"):
        ctl.do(c.DeckCounted(53, "Anyone At All"))
    dealer = registry.get(db, "SIM-D1")
    with pytest.raises(Refusal, match="Sim Dealer is a dealer"):
        ctl.supervise(c.VoidRound("closing", ""), dealer)
    supervisor = registry.get(db, "SIM-S1")
    executive = {role: track for _id, _n, role, track in SIM_STAFF}["executive"]
    changes.set_enabled(db, executive, "SIM-S1", False, reason="left")
    with pytest.raises(Refusal, match="has been disabled"):
        ctl.supervise(c.VoidRound("closing", ""), supervisor)
    assert ctl.state.phase is Phase.BETTING and not events_of(db, "round_voided")
    changes.set_enabled(db, executive, "SIM-S1", True, reason="back")
    supervisor = registry.get(db, "SIM-S1")
    with pytest.raises(Refusal, match="no card of theirs was read"):  # made, not swiped
        ctl.supervise(c.VoidRound("closing", ""), Employee("SIM-S1", "Sim Supervisor",
                                                           Role.SUPERVISOR, True))
    # the name is the staff list's, not the one the caller's record carried
    posing = Employee("SIM-S1", "Anyone At All", Role.SUPERVISOR, True, supervisor.card_tag)
    ctl.supervise(c.VoidRound("closing", "Someone Else"), posing)
    assert [e["who"] for e in events_of(db, "round_voided")] == ["Sim Supervisor (SIM-S1)"]
    assert audit(db).ok


def events_of(db: Database, kind: str) -> list[dict[str, object]]:
    return [json.loads(p) for (p,) in db.execute(
        "SELECT payload FROM events WHERE kind = ? ORDER BY seq", [kind]).fetchall()]
