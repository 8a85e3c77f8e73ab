"""PINs: 4 to 8 digits, set on an executive's card through a staff event, stored only as a
salted hash (in neither the tables nor the event log in clear), checked in the core, seen by
the audit's rebuild; ``dealer-console employees pin`` reads the PIN twice from stdin."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.cli import main
from dealer_console.employees import pins
from dealer_console.employees.audit import verify_staff
from dealer_console.employees.authorize import Refused
from dealer_console.employees.registry import RegistryError, get
from dealer_console.table_db import open_table_db
from tests.employees.conftest import CARDS, FAST_KDF, put_staff_on_file

PIN = "58203917"


@pytest.fixture
def db(db_path: Path) -> Iterator[Database]:
    database = open_table_db(db_path)
    put_staff_on_file(database)
    yield database
    database.close()


@pytest.mark.parametrize("bad", ["", "123", "123456789", "12a4", "12 34", "١٢٣٤", "-1234"])
def test_a_pin_is_four_to_eight_digits_and_the_refusal_never_repeats_it(bad: str) -> None:
    with pytest.raises(RegistryError, match="4 to 8 digits") as refused:
        pins.check_pin(bad)
    assert not bad or bad not in str(refused.value)


def test_an_executive_sets_a_pin_stored_only_as_a_salted_hash(db: Database,
                                                              db_path: Path) -> None:
    s1 = get(db, "S1")
    assert pins.verify(db, s1, PIN) is pins.PinCheck.NONE_ON_FILE
    change = pins.set_pin(db, CARDS["executive"], "S1", PIN, kdf=FAST_KDF)
    assert change.authorised_by is not None and change.authorised_by.employee_id == "X1"
    assert pins.verify(db, s1, PIN) is pins.PinCheck.RIGHT
    assert pins.verify(db, s1, "58203918") is pins.PinCheck.WRONG
    pins.set_pin(db, CARDS["executive"], "D1", PIN, kdf=FAST_KDF)  # the same PIN, another salt
    stored = [r[0] for r in db.execute(
        "SELECT pin_hash FROM employees WHERE employee_id IN ('S1', 'D1')")]
    assert len(set(stored)) == 2 and all(h.startswith("scrypt$") for h in stored)
    assert db.execute("SELECT COUNT(*) FROM employee_log WHERE action = 'pin'"
                      " AND actor = 'X1'").fetchone()[0] == 2
    assert db.execute("SELECT COUNT(*) FROM events WHERE kind = 'employee_pin_set'"
                      ).fetchone()[0] == 2
    assert verify_staff(db) == []
    db.close()
    for path in db_path.parent.iterdir():
        assert PIN.encode() not in path.read_bytes(), path.name


def test_a_supervisors_card_may_not_set_a_pin_and_is_logged(db: Database) -> None:
    with pytest.raises(Refused, match="executive's card"):
        pins.set_pin(db, CARDS["supervisor"], "D1", PIN, kdf=FAST_KDF)
    assert not pins.has_pin(db, "D1")
    (detail,) = [r[0] for r in db.execute(
        "SELECT detail FROM employee_log WHERE action = 'swipe_refused'")]
    assert "set the PIN of employee D1" in detail


def test_a_pin_hash_changed_with_sql_is_found_by_the_audit(db: Database) -> None:
    pins.set_pin(db, CARDS["executive"], "S1", PIN, kdf=FAST_KDF)
    forged = db.execute("SELECT pin_hash FROM employees WHERE employee_id = 'S1'").fetchone()[0]
    db.execute("UPDATE employees SET pin_hash = ? WHERE employee_id = 'D1'", [forged])
    problems = verify_staff(db)
    assert problems == ["employees: employee D1 differs from the event log in pin_hash "
                        "(values not shown)"]


def test_a_later_change_keeps_the_pin(db: Database) -> None:
    from dealer_console.employees import changes

    pins.set_pin(db, CARDS["executive"], "S1", PIN, kdf=FAST_KDF)
    changes.recard(db, CARDS["executive"], "S1", CARDS["new"], kdf=FAST_KDF)
    assert pins.verify(db, get(db, "S1"), PIN) is pins.PinCheck.RIGHT
    assert verify_staff(db) == []


def cli(db_path: Path, stdin: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], employee: str = "S1") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    status = main(["employees", "pin", "--db", str(db_path), employee])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_command_line_sets_a_pin_read_twice(db: Database, db_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    db.close()
    status, out, err = cli(db_path, f"{CARDS['executive']}\n{PIN}\n{PIN}\n", monkeypatch,
                           capsys)
    assert (status, err) == (0, "")
    assert "pin: S1 Sam Super (supervisor, enabled), PIN set, authorised by Ella Exec" in out
    assert PIN not in out
    reopened = open_table_db(db_path)
    assert pins.verify(reopened, get(reopened, "S1"), PIN) is pins.PinCheck.RIGHT
    reopened.close()


@pytest.mark.parametrize(("pins_typed", "message"), [
    (f"{PIN}\n58203918\n", "the two PINs differ"),
    ("12\n12\n", "the new PIN: a PIN is 4 to 8 digits"),
    ("123456789\n123456789\n", "a PIN is 4 to 8 digits"),
    (f"{PIN}\n", "no PIN on standard input for the same PIN again"),
])
def test_the_command_line_refuses_a_bad_pin_and_changes_nothing(
        db: Database, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], pins_typed: str, message: str) -> None:
    db.close()
    before = sqlite3.connect(db_path).execute("SELECT COUNT(*) FROM events").fetchone()[0]
    status, out, err = cli(db_path, f"{CARDS['executive']}\n{pins_typed}", monkeypatch,
                           capsys)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    for typed in pins_typed.split():
        assert typed not in err
    after = sqlite3.connect(db_path).execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert after == before


def _guess_until_locked(db: Database, employee_id: str) -> None:
    """A thief with the card guesses its PIN at the jackpot panel: three tries on one swipe,
    two on the next; the fifth wrong PIN locks it (``pins.LOCK_AFTER``)."""
    from dealer_console.jackpot import confirm_rules

    holder = get(db, employee_id)
    for tries in (3, 2):
        wanted = confirm_rules.PinWanted((1, 1, 7, 1), holder, "confirm jackpot game 1 round "
                                         "1 seat 7: Royal flush $9,000.00")
        for _ in range(tries):
            with pytest.raises(Refused):
                confirm_rules.check_pin(db, wanted, "0000")
    assert pins.locked(db, employee_id)


def test_an_executive_s_own_card_never_changes_their_pin_on_file(db: Database) -> None:
    """An outside review: a stolen executive card, its PIN locked by guessing, set a PIN of the
    thief's own on its own swipe (the supervisor's Staff screen, or ``employees pin``); the
    lock was gone and any award could be confirmed. Their own first PIN only adds a check; a
    PIN on file is changed by another executive's card."""
    from dealer_console.controller.staff import StaffDesk
    from dealer_console.errors import Refusal

    pins.set_pin(db, CARDS["executive"], "X1", PIN, kdf=FAST_KDF)  # their own first PIN
    _guess_until_locked(db, "X1")
    x1 = get(db, "X1")
    with pytest.raises(Refusal, match="may not change their own PIN: another executive's card"):
        StaffDesk(db, lambda: None).set_pin(x1, "X1", "11112222")
    with pytest.raises(Refused, match="may not change their own PIN"):
        pins.set_pin(db, CARDS["executive"], "X1", "11112222", kdf=FAST_KDF)
    assert pins.locked(db, "X1") and pins.verify(db, x1, PIN) is pins.PinCheck.RIGHT
    refused = [r[0] for r in db.execute("SELECT detail FROM employee_log WHERE action = "
                                        "'swipe_refused' AND detail LIKE '%own record%'")]
    assert len(refused) == 2  # each try logged
    pins.set_pin(db, CARDS["executive_2"], "X1", "11112222", kdf=FAST_KDF)  # another's card
    assert not pins.locked(db, "X1") and verify_staff(db) == []
