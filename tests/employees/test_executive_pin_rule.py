"""Where the table's jackpot confirmations take a PIN, which executive cards do executive work
only with a PIN (``pins.executive_pin_needed``), through the card desk the console uses: none
until any executive has a PIN on file (the first sets their own); from then on every one, an
executive with none on file refused. An outside review had an executive card whose holder
never had a PIN make a new executive, with a PIN, for its thief."""

from __future__ import annotations

import pytest
from sqlite_utils import Database

from dealer_console.controller.card_desk import CardDesk
from dealer_console.employees import changes, pins
from dealer_console.employees.authorize import Refused
from dealer_console.employees.registry import Role, get, log
from tests.employees.conftest import CARDS, FAST_KDF
from tests.employees.test_pins import db

__all__ = ["db"]  # the fixture: the staff on file, no PIN yet

PIN = "58203917"




def _ask(db: Database, card: str, pins_in_force: bool = True) -> tuple[CardDesk, list[str]]:
    got: list[str] = []
    desk = CardDesk(db, lambda: None, lambda why: None, pins_in_force=pins_in_force)
    desk.want(Role.EXECUTIVE, "make D1 a supervisor", lambda e: got.append(e.employee_id))
    desk.swiped(CARDS[card])
    return desk, got


def test_the_card_alone_until_an_executive_has_a_pin_then_never(db: Database) -> None:
    desk, got = _ask(db, "executive")  # no executive has a PIN yet: PINs not taken up
    assert desk.pin is None and got == ["X1"]
    pins.set_pin(db, CARDS["executive"], "X1", PIN, kdf=FAST_KDF)  # her own first, so
    desk, got = _ask(db, "executive")
    assert desk.pin is not None and got == []  # from now on her PIN follows her card
    desk.enter_pin(PIN)
    assert got == ["X1"]
    with pytest.raises(Refused, match="Max Exec has no PIN on file: an executive sets one"):
        _ask(db, "executive_2")  # X2 never had one: refused, not handed over
    refused = [str(d) for (d,) in db.execute(
        "SELECT detail FROM employee_log WHERE employee_id = 'X2' AND action = "
        "'swipe_refused'")]
    assert len(refused) == 1 and "no PIN" in refused[0]
    with pytest.raises(Refused, match="may not change their own PIN"):
        pins.set_pin(db, CARDS["executive"], "X1", "11112222", kdf=FAST_KDF)
    pins.set_pin(db, CARDS["executive"], "X2", "24681357", kdf=FAST_KDF)  # X1 sets X2's
    desk, got = _ask(db, "executive_2")
    desk.enter_pin("24681357")
    assert got == ["X2"]


def test_no_pin_is_asked_where_confirmations_take_none(db: Database) -> None:
    pins.set_pin(db, CARDS["executive"], "X1", PIN, kdf=FAST_KDF)
    for card, who in (("executive", "X1"), ("executive_2", "X2")):
        desk, got = _ask(db, card, pins_in_force=False)
        assert desk.pin is None and got == [who]


def test_a_locked_pin_refuses_the_card(db: Database) -> None:
    pins.set_pin(db, CARDS["executive"], "X1", PIN, kdf=FAST_KDF)
    for _ in range(2):  # five wrong PINs over two swipes lock it
        desk, _got = _ask(db, "executive")
        while desk.pin is not None and not pins.locked(db, "X1"):
            with pytest.raises(Refused):
                desk.enter_pin("00000000")
    assert pins.locked(db, "X1")
    with pytest.raises(Refused, match="PIN is locked"):
        _ask(db, "executive")
    assert pins.verify(db, get(db, "X1"), PIN) is pins.PinCheck.RIGHT  # kept, and locked


def test_the_staff_screen_s_warnings_of_the_executives_pins(db: Database) -> None:
    """What the Staff screen warns of (``pins.pin_warnings``), in each state: PINs not yet
    taken up, an executive without one, one working PIN left, none."""
    assert pins.pin_warnings(db, pins_in_force=False) == []
    [before] = pins.pin_warnings(db, pins_in_force=True)
    assert before.startswith("No executive has a PIN yet: an executive's card alone")
    pins.set_pin(db, CARDS["executive"], "X1", PIN, kdf=FAST_KDF)
    assert pins.pin_warnings(db, pins_in_force=True) == [
        "No PIN: Max Exec. Their cards change nothing here until another executive sets one.",
        "Only Ella Exec's PIN works here: if it locks, no one can change the staff list. Give "
        "a second executive a PIN."]
    pins.set_pin(db, CARDS["executive"], "X2", "24681357", kdf=FAST_KDF)
    assert pins.pin_warnings(db, pins_in_force=True) == []  # X9 is disabled: not counted
    for employee_id in ("X1", "X2"):
        for _ in range(pins.LOCK_AFTER):
            with db.atomic():
                log(db, "swipe_refused", employee_id, "card swipe",
                    f"confirm a jackpot hit{pins.WRONG_MARK}the PIN is not right")
    [none] = pins.pin_warnings(db, pins_in_force=True)
    assert none.startswith("No executive's PIN works here (none, or locked)")


def test_once_taken_up_pins_stay_wanted_when_the_last_one_goes(db: Database) -> None:
    """A second outside review: the rule read "any executive has a PIN now", so the floor's
    wrong guesses taking the only executive PIN off (a thief's, on purpose), or the last
    executive with a PIN retiring, brought back cards alone. Once taken up, always wanted."""
    pins.set_pin(db, CARDS["executive"], "X1", PIN, kdf=FAST_KDF)
    changes.set_enabled(db, CARDS["executive_2"], "X1", False, reason="retired")
    assert pins.executives_took_pins_up(db)
    with pytest.raises(Refused, match="Max Exec has no PIN on file"):
        _ask(db, "executive_2")
    [left] = [w for w in pins.pin_warnings(db, pins_in_force=True) if "works" in w]
    assert left.startswith("No executive's PIN works here")
