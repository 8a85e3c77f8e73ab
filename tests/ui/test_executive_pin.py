"""Where the table's jackpot confirmations ask for a PIN (``pin_required``), an executive's
card asks for its holder's PIN too, on the prompt's own pad, before a staff change or a
back-out. An outside review: a stolen executive card, its PIN locked by guessing or simply not
known to the thief, opened the Staff screen, made a new executive with a card and a PIN of
the thief's, and that executive confirmed any award. Through the real screens."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dealer_console.employees import pins
from dealer_console.employees.registry import Role, find
from dealer_console.errors import Refusal
from dealer_console.table_db import open_table_db
from drivers.sim.table.choices import SIM_PINS, SIM_STAFF
from tests.ui.test_jackpot_pin import start, type_card_pin
from tests.ui.test_supervisor_staff import fill_new, log, staff_screen
from ui.gallery.player import ScreenPlayer

EXEC_PIN = SIM_PINS["SIM-X1"]
SIM_TRACKS = {role: track for _id, _name, role, track in SIM_STAFF}


def wrong_pins(p: ScreenPlayer) -> list[str]:
    return [str(r[0]) for r in p.ctl.table.db.execute(
        "SELECT detail FROM employee_log WHERE action = 'swipe_refused' AND employee_id = "
        "'SIM-X1' ORDER BY entry") if pins.WRONG_MARK in str(r[0])]


def role_change_asked(play: list[ScreenPlayer], tmp_path: Path, role: Role) -> ScreenPlayer:
    """A PIN table's Staff screen: SIM-D1 to be made ``role``, the executive's card swiped."""
    p = start(play, tmp_path)
    screen = staff_screen(p)
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.role_buttons[role])
    p.swipe("executive")
    return p


def test_a_staff_change_on_an_executive_s_card_waits_for_their_pin(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, tmp_path)
    screen = staff_screen(p)
    fill_new(p, screen, "N1", "Nina New", "executive")
    p.tap(screen.add_go)
    p.swipe("executive")
    assert p.ctl.snapshot().card_pin
    assert "Type Sim Executive's PIN to" in (p.ctl.snapshot().card_wanted or "")
    assert "Type Sim Executive's PIN" in p.window.card_prompt.text.text()
    type_card_pin(p, "0000")  # wrong: refused in words, logged towards the lock
    assert p.window.card_prompt.said.text() == "Wrong PIN for Sim Executive: 2 tries left."
    assert len(wrong_pins(p)) == 1
    assert p.ctl.snapshot().card_pin  # the same card may try again
    type_card_pin(p, EXEC_PIN)
    assert "Swipe the new card" in (p.ctl.snapshot().card_wanted or "")
    assert not p.window.card_prompt.pin_pad.isVisible()
    assert p.window.areas.isVisible() and screen.isVisible()  # the screen back, its ask kept
    assert find(p.ctl.table.db, "N1") is None  # nothing written before the new card
    p.swipe("unknown")
    added = find(p.ctl.table.db, "N1")
    assert added is not None and added.role is Role.EXECUTIVE
    accepted = [(a, e) for a, e, _actor, _d in log(p) if a == "swipe_accepted"]
    assert accepted[-1] == ("swipe_accepted", "SIM-X1")
    # the new executive has no PIN: her card alone does no executive work here (an outside
    # review's thief made a new executive with a card whose holder never had a PIN)
    p.tap(screen.back)  # the add page stays after an employee is added
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.role_buttons[Role.SUPERVISOR])
    p.swipe("unknown")  # Nina's card now
    view = p.ctl.snapshot()
    assert not view.card_pin and "Swipe an executive's card" in (view.card_wanted or "")
    assert view.notice is not None and "Nina New has no PIN on file" in view.notice.what
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and dealer.role is Role.DEALER
    assert screen.pin_warning.isVisible()  # the Staff screen says so, with what to do
    assert screen.pin_warning.text().startswith("No PIN: Nina New. Their cards change nothing")


def test_three_wrong_pins_call_the_card_off_and_the_message_stays(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = role_change_asked(play, tmp_path, Role.EXECUTIVE)
    for wrong in ("0000", "1111", "2222"):
        type_card_pin(p, wrong)
    view = p.ctl.snapshot()
    assert not view.card_pin and "Swipe an executive's card" in (view.card_wanted or "")
    assert not p.window.card_prompt.pin_pad.isVisible()
    assert "called off; swipe the card again" in p.window.card_prompt.said.text()
    assert p.window.card_prompt.said.isVisible()
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and dealer.role is Role.DEALER
    assert len(wrong_pins(p)) == 3
    p.swipe("executive")  # swiped again: asked afresh, the old message gone
    assert p.ctl.snapshot().card_pin and not p.window.card_prompt.said.isVisible()
    type_card_pin(p, EXEC_PIN)
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and dealer.role is Role.EXECUTIVE


def test_a_locked_executive_pin_makes_no_staff_change(play: list[ScreenPlayer],
                                                      tmp_path: Path) -> None:
    """The review's thief: five wrong guesses locked the PIN; the card alone no longer does
    what the PIN was there to stop."""
    p = start(play, tmp_path)
    db = p.ctl.table.db
    screen = staff_screen(p)
    p.tap(screen.rows["SIM-D1"])
    for _ in range(2):  # five wrong PINs over two swipes lock it
        p.tap(screen.role_buttons[Role.EXECUTIVE])
        p.swipe("executive")
        while p.ctl.snapshot().card_pin:
            type_card_pin(p, "9999")
            if pins.locked(db, "SIM-X1"):
                break
        if pins.locked(db, "SIM-X1"):
            break
    assert pins.locked(db, "SIM-X1")
    assert "PIN is locked" in p.window.card_prompt.said.text()
    p.tap(p.window.card_prompt.cancel)
    p.tap(screen.role_buttons[Role.EXECUTIVE])
    p.swipe("executive")
    view = p.ctl.snapshot()
    assert not view.card_pin and "Swipe an executive's card" in (view.card_wanted or "")
    assert view.notice is not None and "locked" in view.notice.what
    dealer = find(db, "SIM-D1")
    assert dealer is not None and dealer.role is Role.DEALER


def test_a_back_out_on_an_executive_s_card_waits_for_their_pin(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    from tests.ui.test_jackpot_panel import ROYAL, confirm_with, deal_to_end, hits
    from tests.ui.test_jackpot_pin import type_pin

    p = start(play, tmp_path)
    deal_to_end(p, [ROYAL])
    confirm_with(p, "supervisor")
    type_pin(p, SIM_PINS["SIM-S1"])
    assert len(hits(p)) == 1
    [(hit_id,)] = p.ctl.table.db.execute("SELECT hit_id FROM jackpot_hits").fetchall()
    p.ctl.ask_back_out(hit_id, "wrong seat")
    p.swipe("executive")
    assert p.ctl.snapshot().card_pin
    backed = "SELECT count(*) FROM jackpot_adjustments"
    assert p.ctl.table.db.execute(backed).fetchone()[0] == 0
    type_card_pin(p, EXEC_PIN)
    assert p.ctl.table.db.execute(backed).fetchone()[0] == 1


def test_without_pin_required_the_executive_s_card_alone_does(qtbot: object,
                                                              tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    try:
        screen = staff_screen(p)
        p.tap(screen.rows["SIM-D1"])
        p.tap(screen.role_buttons[Role.SUPERVISOR])
        p.swipe("executive")
        assert not p.ctl.snapshot().card_pin
        dealer = find(p.ctl.table.db, "SIM-D1")
        assert dealer is not None and dealer.role is Role.SUPERVISOR
    finally:
        p.close()


@pytest.mark.parametrize("typed", ["", "12"])
def test_no_pin_asked_refuses_a_pin_typed(play: list[ScreenPlayer], tmp_path: Path,
                                          typed: str) -> None:
    p = start(play, tmp_path)
    with pytest.raises(Refusal, match="no PIN is asked for"):
        p.ctl.enter_card_pin(typed)


def test_the_pad_takes_the_area_s_room_and_closing_the_area_calls_the_pin_off(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = role_change_asked(play, tmp_path, Role.SUPERVISOR)
    assert p.ctl.snapshot().card_pin and not p.window.areas.isVisible()
    p.window.close_supervisor()  # the idle lock, or the session ended
    view = p.ctl.snapshot()
    assert view.card_wanted is None and not view.card_pin
    p.wait(lambda: p.window.areas.isVisible(), "the dealer's area")
    assert not p.window.card_prompt.isVisible()
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and dealer.role is Role.DEALER


def test_a_new_request_forgets_the_pin_asked_for_the_one_it_replaces(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    """An outside review: a request made while a PIN was asked kept the old PIN prompt, and
    the right PIN then ran the old request."""
    p = role_change_asked(play, tmp_path, Role.EXECUTIVE)
    assert p.ctl.snapshot().card_pin
    p.ctl.want_card(Role.SUPERVISOR, "open the supervisor's screens", lambda _who: None)
    view = p.ctl.snapshot()
    assert not view.card_pin and "Swipe a supervisor's card" in (view.card_wanted or "")
    with pytest.raises(Refusal, match="no PIN is asked for"):
        p.ctl.enter_card_pin(EXEC_PIN)
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and dealer.role is Role.DEALER


def _cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         stdin: str, *args: str) -> tuple[int, str]:
    from dealer_console.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    status = main(["employees", *args[:1], "--db", str(tmp_path / "t.db"), *args[1:]])
    out = capsys.readouterr()
    return status, out.out + out.err


def test_the_command_line_asks_the_executive_s_pin_too(
        play: list[ScreenPlayer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An outside review: ``dealer-console employees role`` made SIM-D1 an executive on a
    locked executive's card data alone, the table's PINs ignored."""
    p = start(play, tmp_path)
    play.remove(p)
    p.close()  # one process writes the table's file at a time
    card = f";{SIM_TRACKS['executive']}?\n"
    status, said = _cli(tmp_path, monkeypatch, capsys, card + "0000\n",
                        "role", "SIM-D1", "executive")
    assert status == 2 and "swipe refused (logged): wrong PIN for Sim Executive" in said
    assert "0000" not in said
    db = open_table_db(tmp_path / "t.db")
    try:
        dealer = find(db, "SIM-D1")
        assert dealer is not None and dealer.role is Role.DEALER
        assert any(pins.WRONG_MARK in d for (d,) in db.execute(
            "SELECT detail FROM employee_log WHERE action = 'swipe_refused'"))
    finally:
        db.close()
    status, said = _cli(tmp_path, monkeypatch, capsys, card, "role", "SIM-D1", "executive")
    assert status == 2 and "no PIN on standard input for Sim Executive's PIN" in said
    status, said = _cli(tmp_path, monkeypatch, capsys, card + EXEC_PIN + "\n",
                        "role", "SIM-D1", "supervisor")
    assert status == 0, said
    assert "role: SIM-D1 Sim Dealer (supervisor, enabled), authorised by Sim Executive" in said
    new_pin = "64207531"
    status, said = _cli(tmp_path, monkeypatch, capsys,
                        card + f"{new_pin}\n{new_pin}\n{EXEC_PIN}\n", "pin", "SIM-D1")
    assert status == 0, said
    for _ in range(pins.LOCK_AFTER - 1):  # wrong PINs to the lock (one counted above)
        _cli(tmp_path, monkeypatch, capsys, card + "0000\n", "enable", "SIM-D1")
    status, said = _cli(tmp_path, monkeypatch, capsys, card + EXEC_PIN + "\n",
                        "role", "SIM-D1", "executive")
    assert status == 2 and "PIN is locked" in said
    db = open_table_db(tmp_path / "t.db")
    try:
        dealer = find(db, "SIM-D1")
        assert dealer is not None and dealer.role is Role.SUPERVISOR
        assert pins.verify(db, dealer, new_pin) is pins.PinCheck.RIGHT
    finally:
        db.close()


def test_the_command_line_asks_it_before_the_console_recorded_pin_required(
        play: list[ScreenPlayer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A second outside review: a game installed before the database recorded pin_required
    reads NULL there (an upgraded database, the console not started since), and the command
    line took that as no PIN: the stolen card's data alone made SIM-D1 an executive."""
    p = start(play, tmp_path)
    play.remove(p)
    p.close()
    db = open_table_db(tmp_path / "t.db")
    with db.atomic():  # as a database from before the column reads after upgrade-db
        db.execute("UPDATE jackpot_games SET pin_required = NULL, linked = NULL")
    db.close()
    card = f";{SIM_TRACKS['executive']}?\n"
    status, said = _cli(tmp_path, monkeypatch, capsys, card, "role", "SIM-D1", "executive")
    assert status == 2 and "no PIN on standard input for Sim Executive's PIN" in said
    db = open_table_db(tmp_path / "t.db")
    try:
        dealer = find(db, "SIM-D1")
        assert dealer is not None and dealer.role is Role.DEALER
    finally:
        db.close()
