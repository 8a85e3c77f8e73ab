"""Adding, disabling, enabling, re-carding and changing the role of an employee: refused
without an enabled executive's card (and logged), done and logged with the authoriser with one."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from sqlite_utils import Database

from dealer_console.employees import changes
from dealer_console.employees.authorize import RefusalReason, Refused, authorise
from dealer_console.employees.registry import (
    Employee,
    RegistryError,
    Role,
    find_by_card,
    get,
)
from tests.employees.conftest import CARDS, FAST_KDF

Change = Callable[[Database, str], changes.Change]

OPERATIONS: dict[str, Change] = {
    "add": lambda db, by: changes.add(db, by, "D2", "Nell New", Role.DEALER, CARDS["new"],
                                      kdf=FAST_KDF),
    "disable": lambda db, by: changes.set_enabled(db, by, "D1", False, reason="left"),
    "enable": lambda db, by: changes.set_enabled(db, by, "S2", True),
    "role": lambda db, by: changes.change_role(db, by, "D1", Role.EXECUTIVE),
    "recard": lambda db, by: changes.recard(db, by, "D1", CARDS["new"], kdf=FAST_KDF),
}


def employees(db: Database) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in db.execute("SELECT * FROM employees ORDER BY employee_id")]


def log(db: Database) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in db.execute(
        "SELECT entry, employee_id, action, actor, detail FROM employee_log ORDER BY entry")]


def staff_events(db: Database) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in db.execute(
        "SELECT seq, round_id, kind, payload FROM events ORDER BY seq")]


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@pytest.mark.parametrize(("card", "reason"), [
    ("dealer", RefusalReason.NOT_AUTHORISED),
    ("supervisor", RefusalReason.NOT_AUTHORISED),
    ("technician", RefusalReason.NOT_AUTHORISED),
    ("unknown", RefusalReason.UNKNOWN_CARD),
    ("disabled", RefusalReason.DISABLED),
    ("disabled_executive", RefusalReason.DISABLED),
])
def test_refused_without_an_enabled_executives_card(db: Database, operation: str, card: str,
                                                    reason: RefusalReason) -> None:
    before, log_before = employees(db), log(db)
    with pytest.raises(Refused) as info:
        OPERATIONS[operation](db, CARDS[card])
    assert info.value.reason is reason
    assert employees(db) == before
    new_entries = log(db)[len(log_before):]
    assert [e[2] for e in new_entries] == ["swipe_refused"]
    assert reason.value in new_entries[0][4]
    last = staff_events(db)[-1]
    assert last[2] == "swipe_refused" and last[1] is None
    assert CARDS[card] not in last[3]


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_accepted_with_an_executives_card_and_logged_with_the_authoriser(
        db: Database, operation: str) -> None:
    log_before = log(db)
    change = OPERATIONS[operation](db, CARDS["executive"])
    assert change.authorised_by is not None and change.authorised_by.employee_id == "X1"
    (entry,) = log(db)[len(log_before):]
    _, employee_id, action, actor, detail = entry
    assert (employee_id, action, actor) == (change.employee.employee_id, operation, "X1")
    assert detail.endswith("authorised by Ella Exec (X1)")
    _seq, round_id, kind, payload = staff_events(db)[-1]
    assert round_id is None
    assert kind == {"add": "employee_added", "disable": "employee_disabled",
                    "enable": "employee_enabled", "recard": "employee_recarded",
                    "role": "employee_role_changed"}[operation]
    assert '"actor":"X1"' in payload and CARDS["new"] not in payload


def test_each_change_takes_effect(db: Database) -> None:
    by = CARDS["executive"]
    OPERATIONS["add"](db, by)
    assert get(db, "D2") == Employee("D2", "Nell New", Role.DEALER, True)
    OPERATIONS["enable"](db, by)
    assert authorise(db, CARDS["disabled"], Role.SUPERVISOR, "test").employee_id == "S2"
    changes.set_enabled(db, by, "S1", False)
    with pytest.raises(Refused) as info:
        authorise(db, CARDS["supervisor"], Role.SUPERVISOR, "test")
    assert info.value.reason is RefusalReason.DISABLED
    OPERATIONS["role"](db, by)
    assert authorise(db, CARDS["dealer"], Role.EXECUTIVE, "test").employee_id == "D1"
    changes.recard(db, by, "D1", "5000555500099=2912", kdf=FAST_KDF)
    assert find_by_card(db, CARDS["dealer"]) is None
    found = find_by_card(db, "5000555500099=2912")
    assert found is not None and found.employee_id == "D1"


def test_an_executive_cannot_change_their_own_role(db: Database) -> None:
    before = employees(db)
    with pytest.raises(Refused) as info:
        changes.change_role(db, CARDS["executive"], "X1", Role.SUPERVISOR)
    assert info.value.reason is RefusalReason.OWN_RECORD
    assert employees(db) == before
    assert log(db)[-1][1:4] == ("X1", "swipe_refused", "card swipe")
    # another executive may
    change = changes.change_role(db, CARDS["executive_2"], "X1", Role.SUPERVISOR)
    assert change.employee.role is Role.SUPERVISOR and change.authorised_by is not None
    assert change.authorised_by.employee_id == "X2"


def test_the_last_enabled_executive_stays(db: Database) -> None:
    changes.set_enabled(db, CARDS["executive"], "X2", False)
    entries = len(log(db))
    for attempt in (lambda: changes.set_enabled(db, CARDS["executive"], "X1", False),
                    lambda: changes.change_role(db, CARDS["executive_2"], "X1", Role.DEALER)):
        with pytest.raises(RegistryError, match="only enabled executive"):
            attempt()
    assert get(db, "X1").enabled and get(db, "X1").role is Role.EXECUTIVE
    assert len(log(db)) == entries  # refused before any swipe was asked for
    # with a second executive enabled again, X1 may step down
    changes.set_enabled(db, CARDS["executive"], "X2", True)
    assert not changes.set_enabled(db, CARDS["executive"], "X1", False).employee.enabled


@pytest.mark.parametrize(("attempt", "message"), [
    (lambda db: changes.add(db, CARDS["executive"], "S1", "Sam Again", Role.DEALER,
                            CARDS["new"], kdf=FAST_KDF), "already registered"),
    (lambda db: changes.add(db, CARDS["executive"], "D3", "Card Thief", Role.DEALER,
                            CARDS["executive"], kdf=FAST_KDF), "already belongs to employee X1"),
    (lambda db: changes.recard(db, CARDS["executive"], "D1", CARDS["supervisor"],
                               kdf=FAST_KDF), "already belongs to employee S1"),
    (lambda db: changes.set_enabled(db, CARDS["executive"], "S2", False), "already disabled"),
    (lambda db: changes.change_role(db, CARDS["executive"], "S1", Role.SUPERVISOR),
     "already a supervisor"),
    (lambda db: changes.set_enabled(db, CARDS["executive"], "NOPE", False), "no employee"),
    (lambda db: changes.add(db, CARDS["executive"], "D3", "Dan", Role.DEALER, "12ab",
                            kdf=FAST_KDF), "track-2"),
])
def test_a_request_that_cannot_be_done_writes_nothing(
        db: Database, attempt: Callable[[Database], object], message: str) -> None:
    before, log_before, events_before = employees(db), log(db), staff_events(db)
    with pytest.raises(RegistryError, match=message):
        attempt(db)
    assert (employees(db), log(db), staff_events(db)) == (before, log_before, events_before)


def test_the_change_its_log_entry_and_its_event_are_one_transaction(db: Database) -> None:
    """When the row cannot be written, neither the event nor the log entry stays."""
    db.execute("CREATE TRIGGER no_new_staff BEFORE INSERT ON employees"
               " BEGIN SELECT RAISE(ABORT, 'disk full, say'); END")
    before, log_before, events_before = employees(db), log(db), staff_events(db)
    with pytest.raises(sqlite3.IntegrityError, match="disk full"):
        OPERATIONS["add"](db, CARDS["executive"])
    assert (employees(db), log(db), staff_events(db)) == (before, log_before, events_before)
