"""A PIN after the confirmation's card where the profile asks for one (``pin_required``),
through the real screens: the PIN set on the Staff screen by an executive's card, typed on the
jackpot panel's masked pad, a wrong one refused and logged, three calling the confirmation off,
an employee with no PIN refused, two people each with their own. Washington document, "Face Up
Pai Gow Poker Jackpot Rules of Play" item 9 f (the confirmation by card); the PIN is the
profile's addition to it (``docs/jackpot.md``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.employees import changes, pins
from dealer_console.employees.registry import Role, get
from dealer_console.profiles.loader import PROFILE_DIR
from drivers.sim.table.choices import SIM_PINS, SIM_STAFF
from tests.employees.test_pins import _guess_until_locked
from tests.ui.test_jackpot_panel import (
    EXECUTIVE_TRACK,
    NATURAL_SF,
    ROYAL,
    confirm_with,
    deal_to_end,
    hits,
    panel,
)
from ui.gallery.player import ScreenPlayer
from ui.supervisor.staff import StaffScreen

NEW_PIN = "73915824"
"""Eight digits no timestamp, amount or hash in the database is likely to hold by chance."""
ROYAL_CENTS = 200 * 100



def pin_profile(folder: Path, two_person: bool = False) -> str:
    """Washington with ``pin_required`` (and, if asked, two people above $2,000)."""
    extra = 'pin_required = true\n' + ('two_person_above = "$2,000"\n' if two_person else "")
    text = (PROFILE_DIR / "washington-face-up.toml").read_text()
    assert 'executive_above = "$1,000"\n' in text
    path = folder / "pins.toml"
    path.write_text(text.replace('executive_above = "$1,000"\n',
                                 'executive_above = "$1,000"\n' + extra))
    return str(path)


def start(play: list[ScreenPlayer], folder: Path, two_person: bool = False) -> ScreenPlayer:
    p = ScreenPlayer.start(pin_profile(folder, two_person), folder / "t.db")
    play.append(p)
    return p


def type_pin(p: ScreenPlayer, pin: str) -> None:
    pad = panel(p).pin_pad
    assert pad.isVisible(), "the PIN pad is not shown"
    for digit in pin:
        p.tap(pad.keys[digit])
    assert pad.display.text() == "\u25cf" * len(pin)  # dots, never the digits
    p.tap(pad.ok)


def type_card_pin(p: ScreenPlayer, pin: str) -> None:
    """The PIN on the card prompt's pad: an executive's, after their card was accepted for a
    staff change or a back-out (``controller/card_desk.py``)."""
    prompt = p.window.card_prompt
    assert prompt.pin_pad.isVisible(), "the prompt shows no PIN pad"
    for digit in pin:
        p.tap(prompt.pin_pad.keys[digit])
    assert prompt.pin_pad.display.text() == "\u25cf" * len(pin)  # dots, never the digits
    p.tap(prompt.pin_pad.ok)


def refused(p: ScreenPlayer) -> list[tuple[str | None, str]]:
    return [(r[0], str(r[1])) for r in p.console.opened.db.execute(
        "SELECT employee_id, detail FROM employee_log WHERE action = 'swipe_refused'"
        " ORDER BY entry")]


def test_a_pin_set_on_the_staff_screen_confirms_a_hit_and_is_never_stored_in_clear(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, tmp_path)
    area = p.open_supervisor("supervisor")
    p.tap(area.buttons["Staff"])
    screen = area.screens["Staff"]
    assert isinstance(screen, StaffScreen)
    p.tap(screen.rows["SIM-S1"])
    assert "PIN on file" in screen.record.text()
    p.tap(screen.set_pin)
    for attempt in (NEW_PIN, "73915825"):  # typed twice, differently: asked again
        for digit in attempt:
            p.tap(screen.pin_pad.keys[digit])
        p.tap(screen.pin_pad.ok)
    assert "differ" in screen.message.text()
    assert p.ctl.snapshot().card_wanted is None  # no card asked for a PIN not agreed
    for _ in range(2):
        for digit in NEW_PIN:
            p.tap(screen.pin_pad.keys[digit])
        p.tap(screen.pin_pad.ok)
    assert "executive's card" in (p.ctl.snapshot().card_wanted or "")
    p.swipe("executive")
    type_card_pin(p, SIM_PINS["SIM-X1"])  # the executive's own PIN, on a table with PINs
    db = p.console.opened.db
    sim_s1 = get(db, "SIM-S1")
    assert pins.verify(db, sim_s1, NEW_PIN) is pins.PinCheck.RIGHT
    assert pins.verify(db, sim_s1, SIM_PINS["SIM-S1"]) is pins.PinCheck.WRONG
    details = [str(r[0]) for r in db.execute(
        "SELECT detail FROM employee_log WHERE action = 'pin' AND employee_id = 'SIM-S1'"
        " AND actor = 'SIM-X1' ORDER BY entry")]
    assert [d.split(";")[0] for d in details] == ["PIN set", "PIN changed"]  # install, here
    p.tap(area.leave)

    deal_to_end(p, [ROYAL])
    confirm_with(p, "supervisor")
    assert p.ctl.snapshot().jackpot_pin_for == "Sim Supervisor (supervisor)"
    assert hits(p) == []  # the card alone pays nothing
    type_pin(p, SIM_PINS["SIM-S1"])  # the old PIN no longer works
    assert hits(p) == []
    assert "wrong PIN" in panel(p).result.text()
    type_pin(p, NEW_PIN)
    assert hits(p) == [(1, ROYAL_CENTS, "SIM-S1")]
    assert not panel(p).pin_pad.isVisible()
    p.end_game()
    report = audit(db)
    assert report.ok, report.problems
    p.close()
    play.clear()
    for path in tmp_path.rglob("*"):  # the database, its WAL, the journal: every byte
        if path.is_file():
            assert NEW_PIN.encode() not in path.read_bytes(), path.name


def test_a_wrong_pin_is_refused_and_logged_with_nothing_paid(play: list[ScreenPlayer],
                                                            tmp_path: Path) -> None:
    p = start(play, tmp_path)
    deal_to_end(p, [ROYAL])
    confirm_with(p, "supervisor")
    type_pin(p, "0000")
    assert hits(p) == []
    assert "wrong PIN for Sim Supervisor: 2 tries left" in panel(p).result.text()
    assert "Nothing was paid" in panel(p).result.text()
    assert refused(p) == [("SIM-S1", refused(p)[0][1])]
    assert "wrong PIN" in refused(p)[0][1]
    assert panel(p).pin_pad.isVisible()  # the same card may try again
    type_pin(p, SIM_PINS["SIM-S1"])
    assert hits(p) == [(1, ROYAL_CENTS, "SIM-S1")]
    accepted = [r[0] for r in p.console.opened.db.execute(
        "SELECT employee_id FROM employee_log WHERE action = 'swipe_accepted'")]
    assert accepted.count("SIM-S1") == 1


def test_three_wrong_pins_call_the_confirmation_off(play: list[ScreenPlayer],
                                                    tmp_path: Path) -> None:
    p = start(play, tmp_path)
    deal_to_end(p, [ROYAL])
    confirm_with(p, "supervisor")
    for wrong in ("1111", "2222", "3333"):
        type_pin(p, wrong)
    assert hits(p) == []
    assert p.ctl.snapshot().jackpot_pin_for is None
    assert not panel(p).pin_pad.isVisible()
    assert "called off; swipe the card again" in panel(p).result.text()
    assert len(refused(p)) == 3 and all("wrong PIN" in d for _e, d in refused(p))
    with pytest.raises(Exception, match="swipe the card first"):
        p.ctl.enter_pin(SIM_PINS["SIM-S1"])  # the right PIN alone no longer counts
    assert hits(p) == []
    p.swipe("supervisor")
    type_pin(p, SIM_PINS["SIM-S1"])
    assert hits(p) == [(1, ROYAL_CENTS, "SIM-S1")]
    p.end_game()
    report = audit(p.console.opened.db)
    assert report.ok, report.problems


def test_an_employee_with_no_pin_is_refused(play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, tmp_path)
    db = p.console.opened.db
    track = "5000100000002=2912"
    changes.add(db, EXECUTIVE_TRACK, "S2", "Sam Second", Role.SUPERVISOR, track)
    deal_to_end(p, [ROYAL])
    p.tap(panel(p).confirm)
    keypad = p.hardware.keypad
    assert keypad is not None
    before = p.ctl.snapshot().notice
    keypad.swipe(track)
    p.wait(lambda: p.ctl.snapshot().notice != before, "the card to be read")
    assert "no PIN on file: an executive sets one on the Staff screen" in (
        panel(p).result.text())
    assert not panel(p).pin_pad.isVisible()
    assert hits(p) == []
    assert [(e, "no PIN on file" in d) for e, d in refused(p)] == [("S2", True)]


def test_two_people_each_type_their_own_pin(play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, tmp_path, two_person=True)
    deal_to_end(p, [NATURAL_SF])  # the whole meter: above $2,000, two people
    (hit,) = p.ctl.snapshot().jackpot_pending
    assert hit.needs == "two people"
    confirm_with(p, "supervisor")
    assert p.ctl.snapshot().jackpot_held is None  # not held before the PIN
    type_pin(p, "0000")
    assert "Refused: wrong PIN" in panel(p).result.text()
    type_pin(p, SIM_PINS["SIM-S1"])
    assert p.ctl.snapshot().jackpot_held == "Sim Supervisor (supervisor)"
    assert "Refused" not in panel(p).result.text()  # the stale refusal gone (issue 23)
    assert hits(p) == []
    p.swipe("executive")
    assert p.ctl.snapshot().jackpot_pin_for == "Sim Executive (executive)"
    type_pin(p, SIM_PINS["SIM-S1"])  # the supervisor's PIN is not the executive's
    assert hits(p) == []
    type_pin(p, SIM_PINS["SIM-X1"])
    assert [tuple(r) for r in p.console.opened.db.execute(
        "SELECT employee_id, second_employee_id, amount_cents FROM jackpot_hits")] == [
        ("SIM-S1", "SIM-X1", hit.amount_cents)]
    p.end_game()
    report = audit(p.console.opened.db)
    assert report.ok, report.problems


def test_the_simulated_staff_have_their_test_pins(play: list[ScreenPlayer],
                                                 tmp_path: Path) -> None:
    p = start(play, tmp_path)
    db = p.console.opened.db
    for employee_id, _name, _role, _track in SIM_STAFF:
        assert pins.verify(db, get(db, employee_id), SIM_PINS[employee_id]) is (
            pins.PinCheck.RIGHT)


def test_wrong_pins_across_swipes_lock_the_pin_until_an_executive_sets_one(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    """Issue 23: a new swipe used to give three more tries without end. Five wrong PINs within
    the window lock the PIN (told and logged); the right PIN no longer helps, nor a new swipe;
    only an executive's new PIN unlocks it, and the audit rebuilds the whole story."""
    assert pins.LOCK_AFTER == 5
    p = start(play, tmp_path)
    deal_to_end(p, [ROYAL])
    confirm_with(p, "supervisor")
    for wrong in ("1111", "2222", "3333"):  # the first swipe's three
        type_pin(p, wrong)
    p.swipe("supervisor")
    type_pin(p, "4444")
    assert "1 try left before the PIN locks" in panel(p).result.text()
    type_pin(p, "5555")  # the fifth wrong PIN in the window: locked
    shown = panel(p).result.text()
    assert "Sim Supervisor's PIN is locked after 5 wrong PINs" in shown, shown
    assert "an executive sets a new one on the Staff screen" in shown
    assert not panel(p).pin_pad.isVisible() and p.ctl.snapshot().jackpot_pin_for is None
    db = p.console.opened.db
    assert pins.locked(db, "SIM-S1")

    before = len(refused(p))
    p.swipe("supervisor")  # a new swipe: refused at once, no PIN pad
    assert not panel(p).pin_pad.isVisible()
    assert "PIN is locked" in panel(p).result.text()
    assert len(refused(p)) == before + 1 and "PIN locked" in refused(p)[-1][1]
    assert hits(p) == []

    pins.set_pin(db, EXECUTIVE_TRACK, "SIM-S1", NEW_PIN)  # the executive's reset
    assert not pins.locked(db, "SIM-S1")
    p.swipe("supervisor")
    type_pin(p, NEW_PIN)
    assert hits(p) == [(1, ROYAL_CENTS, "SIM-S1")]
    p.end_game()
    report = audit(db)
    assert report.ok, report.problems


def test_wrong_pins_spread_wider_than_the_window_do_not_lock() -> None:
    start = datetime(2026, 11, 1, tzinfo=UTC)
    step = pins.LOCK_WINDOW / (pins.LOCK_AFTER - 1)
    spread = [start + n * step * 1.01 for n in range(pins.LOCK_AFTER)]
    assert not pins.lock_reached(spread)  # five, never five within one window
    close = [start + n * step for n in range(pins.LOCK_AFTER)]
    assert pins.lock_reached(close)  # five exactly across the window: locked
    assert not pins.lock_reached(close[:-1])
    assert pins.lock_reached([*spread, spread[-1] + timedelta(minutes=1)])


def _said(p: ScreenPlayer, words: str) -> int:
    """How many places on the dealer's screen show ``words``."""
    from PySide6.QtWidgets import QLabel

    return sum(label.text().count(words) for label in p.window.findChildren(QLabel)
               if label.isVisible())


def test_each_refusal_of_a_two_person_confirmation_is_said_once(play: list[ScreenPlayer],
                                                               tmp_path: Path) -> None:
    """Issue 23: a sentence repeated in the two-person refusal. Every way the second card or
    a PIN is refused, each refusal shows once on the screen."""
    p = start(play, tmp_path, two_person=True)
    deal_to_end(p, [NATURAL_SF])
    confirm_with(p, "supervisor")
    type_pin(p, "0000")
    assert _said(p, "wrong PIN for Sim Supervisor: 2 tries left") == 1
    type_pin(p, SIM_PINS["SIM-S1"])
    for role, words in (("supervisor", "the same person cannot confirm twice"),
                        ("dealer", "Sim Dealer is a dealer; this needs an executive's card"),
                        ("unknown", "card not recognised")):
        p.swipe(role)
        assert _said(p, words) == 1, (role, words)
    p.swipe("executive")
    for wrong, words in (("1111", "wrong PIN for Sim Executive: 2 tries left"),
                         ("2222", "wrong PIN for Sim Executive: 1 try left"),
                         ("3333", "wrong PIN 3 times")):
        type_pin(p, wrong)
        assert _said(p, words) == 1, words
    assert hits(p) == []


def test_a_card_whose_pin_is_locked_opens_no_supervisor_screen(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    """An outside review: five wrong PINs locked a supervisor's PIN and the jackpot refused the
    card, which at once opened the supervisor's screens (voids, deck counts, the banker's hand
    there). The lock holds the card everywhere until an executive sets a new PIN."""
    p = start(play, tmp_path)
    db = p.console.opened.db
    _guess_until_locked(db, "SIM-S1")
    before = len(refused(p))
    p.tap(p.window.supervisor_button)
    p.swipe("supervisor")
    assert p.window.supervisor is None
    assert len(refused(p)) == before + 1 and "PIN locked" in refused(p)[-1][1]
    notice = p.ctl.snapshot().notice
    assert notice is not None and "Sim Supervisor's PIN is locked" in notice.what
    pins.set_pin(db, EXECUTIVE_TRACK, "SIM-S1", NEW_PIN)  # the executive's reset
    p.swipe("supervisor")  # the prompt still waits for a card
    assert p.window.supervisor is not None
