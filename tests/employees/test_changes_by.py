"""The console's entry points (``add_by`` and the others) make the same changes as the card's
track data does, for an executive the console has authorised: checked again inside the change,
never for a non-executive, and never on the executive's own record (but stepping down)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlite_utils import Database

from dealer_console.employees import changes
from dealer_console.employees.authorize import RefusalReason, Refused
from dealer_console.employees.registry import Employee, Role, find_by_card, get
from tests.employees.conftest import CARDS, FAST_KDF


def test_an_authorised_executive_adds_withdraws_and_recards(db: Database) -> None:
    by = get(db, "X1")
    added = changes.add_by(db, by, "D2", "Nell New", Role.DEALER, CARDS["new"], kdf=FAST_KDF)
    assert added.authorised_by == by and added.employee.role is Role.DEALER
    holder = find_by_card(db, CARDS["new"])
    assert holder is not None and holder.employee_id == "D2"
    assert not changes.set_enabled_by(db, by, "D2", False).employee.enabled
    actors = [tuple(r) for r in db.execute(
        "SELECT action, actor FROM employee_log WHERE employee_id = 'D2' ORDER BY entry")]
    assert actors == [("add", "X1"), ("disable", "X1")]


@pytest.mark.parametrize("who", ["S1", "X9"])  # a supervisor; a withdrawn executive
def test_anyone_but_an_enabled_executive_is_refused_inside_the_change(db: Database,
                                                                      who: str) -> None:
    by = get(db, who)
    with pytest.raises(Refused) as info:
        changes.change_role_by(db, by, "D1", Role.SUPERVISOR)
    assert info.value.reason is RefusalReason.NOT_AUTHORISED
    assert get(db, "D1").role is Role.DEALER


@pytest.mark.parametrize(("change", "words"), [
    (lambda db, by: changes.change_role_by(db, by, "X1", Role.SUPERVISOR), "own role"),
    (lambda db, by: changes.recard_by(db, by, "X1", CARDS["new"], kdf=FAST_KDF),
     "themselves a new card"),
    (lambda db, by: changes.may_recard(db, by, "x1"), "themselves a new card"),
])
def test_an_executive_may_not_raise_or_renew_their_own_record(
        db: Database, change: Callable[[Database, Employee], object], words: str) -> None:
    by = get(db, "X1")
    with pytest.raises(Refused, match=words) as info:
        change(db, by)
    assert info.value.reason is RefusalReason.OWN_RECORD
    last = db.execute("SELECT action, employee_id FROM employee_log ORDER BY entry DESC "
                      "LIMIT 1").fetchone()
    assert tuple(last) == ("swipe_refused", "X1")
    assert get(db, "X1").role is Role.EXECUTIVE
    holder = find_by_card(db, CARDS["executive"])
    assert holder is not None and holder.employee_id == "X1"  # the old card still works


def test_an_executive_may_step_down_while_another_is_enabled(db: Database) -> None:
    assert not changes.set_enabled_by(db, get(db, "X2"), "X2", False).employee.enabled
