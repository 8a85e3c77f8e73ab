"""One refusal with a stable code: the round's, the jackpot's and the staff desk's refusals
are one class; a program (the simulated dealer) acts on the code, never on the words."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.controller.staff import StaffRefused
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.jackpot.marks import mark_refusal
from dealer_console.link.health import LinkHealth
from dealer_console.round import commands as c
from dealer_console.round.jackpot import JackpotRefused
from dealer_console.round.machine import Refused
from tests.controller.conftest import Rig
from tests.controller.test_test_mode import enter
from tests.jackpot.conftest import CARDS, add_staff
from tests.jackpot.swipes import swipe
from tests.link.helpers import linked_table
from tests.round.helpers import deal, hands_with, set_all_house_way


def test_the_old_names_are_the_one_refusal_and_the_code_defaults_to_not_now() -> None:
    assert Refused is Refusal and JackpotRefused is Refusal and StaffRefused is Refusal
    assert Refusal("no").code is RefusalCode.NOT_NOW and Refusal("no").why == "no"
    assert Refusal().why == "not allowed now"
    down = Refusal("the link is down", RefusalCode.LINK_DOWN)
    assert down.code == "link_down" and str(down) == "the link is down"
    assert mark_refusal("select a seat").code is RefusalCode.JACKPOT_MARK  # a code of its own
    assert type(mark_refusal("select a seat")) is Refusal  # the one class, no subclass


def test_a_round_command_in_test_mode_is_refused_with_its_code(rig: Rig) -> None:
    enter(rig)
    with pytest.raises(Refusal) as refused:
        rig.controller.do(c.PlaceWager(2, "base", 2500))
    assert refused.value.code is RefusalCode.IN_TEST_MODE


def test_a_staff_change_refused_by_the_registry_has_the_staff_code(rig: Rig) -> None:
    staff = rig.controller.staff
    executive = next(e for e in staff.employees() if e.role.value == "executive")
    with pytest.raises(Refusal) as refused:
        staff.set_enabled(executive, "NO-SUCH-ONE", False)
    assert refused.value.code is RefusalCode.STAFF


def test_a_linked_hit_swiped_while_the_link_is_down_is_refused_as_link_down(
        tmp_path: Path) -> None:
    health = LinkHealth()
    health.up(0)
    table, system, db = linked_table(tmp_path / "t.db", "t1", health)
    add_staff(db)
    for seat in (1, 2, 3):
        table.handle(c.PlaceWager(seat, "base", 2000))
        table.handle(c.PlaceWager(seat, "jackpot", 100))
    table.handle(c.StartGame())
    table.handle(c.SetActionNumber(2))
    deal(table, hands_with({2: "2c 3c 4c 5c 6c 7c 8c"}))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    health.down("the link server stopped answering", 0)
    with pytest.raises(Refusal) as refused:
        swipe(system, table, CARDS["executive"])
    assert refused.value.code is RefusalCode.LINK_DOWN
    db.close()
