"""The staff list changed by touch on a real console: each change authorised by an executive's
card swiped at the time (a supervisor's is refused and logged), a new employee's card taken by
a second swipe and never logged, and no one changing their own record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from dealer_console.employees.registry import Role, find, find_by_card
from drivers.sim.table.choices import SIM_STAFF, UNKNOWN_CARD
from ui.gallery.player import ScreenPlayer
from ui.supervisor.staff import StaffScreen


@pytest.fixture
def player(qtbot: QtBot, tmp_path: Path) -> Iterator[ScreenPlayer]:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    yield p
    p.close()


def staff_screen(p: ScreenPlayer) -> StaffScreen:
    area = p.open_supervisor("supervisor")
    p.tap(area.buttons["Staff"])
    screen = area.screens["Staff"]
    assert isinstance(screen, StaffScreen)
    return screen


def log(p: ScreenPlayer) -> list[tuple[str, str | None, str, str]]:
    rows = p.ctl.table.db.execute(
        "SELECT action, employee_id, actor, detail FROM employee_log ORDER BY entry").fetchall()
    return [tuple(r) for r in rows]


def fill_new(p: ScreenPlayer, screen: StaffScreen, employee_id: str, name: str,
             role: str) -> None:
    p.tap(screen.add_button)
    p.tap(screen.field_buttons["Employee id"])
    screen.keys.type_text(employee_id)
    p.tap(screen.keys.ok)
    screen.keys.type_text(name)  # OK moved the keyboard on to the name
    p.tap(screen.keys.ok)
    p.tap(screen.new_role_buttons[Role(role)])


def test_an_executive_card_adds_an_employee_with_a_new_card(player: ScreenPlayer) -> None:
    p = player
    screen = staff_screen(p)
    fill_new(p, screen, "N1", "Nina New", "dealer")
    p.tap(screen.add_go)
    assert "executive's card" in (p.ctl.snapshot().card_wanted or "")
    p.swipe("executive")
    assert "Swipe the new card" in (p.ctl.snapshot().card_wanted or "")
    assert find(p.ctl.table.db, "N1") is None  # nothing written before the new card
    p.swipe("unknown")  # a card no one holds yet: the new employee's
    added = find(p.ctl.table.db, "N1")
    assert added is not None and (added.name, added.role, added.enabled) == (
        "Nina New", Role.DEALER, True)
    holder = find_by_card(p.ctl.table.db, UNKNOWN_CARD)
    assert holder is not None and holder.employee_id == "N1"
    entries = log(p)
    assert ("swipe_accepted", "SIM-X1", "card swipe", "add employee N1 (dealer)") in entries
    assert any(a == "add" and e == "N1" and actor == "SIM-X1" for a, e, actor, _ in entries)
    assert not any(UNKNOWN_CARD in detail or "5999900000001" in detail
                   for *_, detail in entries)  # the card's data is never logged
    assert "Nina New (N1)" in screen.rows["N1"].text()
    assert "added as a dealer" in screen.message.text()


def test_a_supervisors_card_may_not_add_an_employee(player: ScreenPlayer) -> None:
    p = player
    screen = staff_screen(p)
    fill_new(p, screen, "N2", "Ned Other", "executive")
    p.tap(screen.add_go)
    p.swipe("supervisor")
    assert find(p.ctl.table.db, "N2") is None
    assert "needs an executive's card" in screen.message.text()
    assert log(p)[-1][:2] == ("swipe_refused", "SIM-S1")
    assert "executive's card" in (p.ctl.snapshot().card_wanted or "")  # still waiting


def test_a_taken_id_is_refused_as_typed_before_any_card(player: ScreenPlayer) -> None:
    p = player
    screen = staff_screen(p)
    p.tap(screen.add_button)
    screen.keys.type_text("sim-d1")  # ids are the same whatever their case
    assert not screen.keys.ok.isEnabled()
    assert "taken by SIM-D1" in screen.keys.refusal.text()
    screen.keys.clear()
    screen.keys.type_text("bad id!")
    assert not screen.keys.ok.isEnabled()
    assert "employee id" in screen.keys.refusal.text()
    assert not screen.add_go.isEnabled()
    assert p.ctl.snapshot().card_wanted is None


def test_withdraw_re_enable_and_role_change(player: ScreenPlayer) -> None:
    p = player
    screen = staff_screen(p)
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.withdraw)
    p.swipe("executive")
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and not dealer.enabled
    assert "WITHDRAWN" in screen.rows["SIM-D1"].text()
    p.tap(screen.enable)
    p.swipe("executive")
    p.tap(screen.role_buttons[Role.SUPERVISOR])
    p.swipe("executive")
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and dealer.enabled and dealer.role is Role.SUPERVISOR
    actions = [(a, e, actor) for a, e, actor, _ in log(p) if a in ("disable", "enable", "role")]
    assert actions == [("disable", "SIM-D1", "SIM-X1"), ("enable", "SIM-D1", "SIM-X1"),
                       ("role", "SIM-D1", "SIM-X1")]


def test_an_executive_may_not_change_their_own_role(player: ScreenPlayer) -> None:
    p = player
    screen = staff_screen(p)
    # a second executive first, so the table keeps one either way (not the supervisor whose
    # card opened these screens: a change of that role ends the session, issue 23)
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.role_buttons[Role.EXECUTIVE])
    p.swipe("executive")
    p.tap(screen.rows["SIM-X1"])
    p.tap(screen.role_buttons[Role.DEALER])
    p.swipe("executive")
    executive = find(p.ctl.table.db, "SIM-X1")
    assert executive is not None and executive.role is Role.EXECUTIVE
    assert "may not change their own role" in screen.message.text()
    refused = log(p)[-1]
    assert refused[:2] == ("swipe_refused", "SIM-X1")
    assert "may not authorise this change to their own record" in refused[3]
    p.tap(screen.recard)  # nor give themselves a new card
    p.swipe("executive")
    assert "may not give themselves a new card" in screen.message.text()
    assert p.ctl.snapshot().card_wanted is None  # no new card is asked for


def test_an_employee_is_given_a_new_card(player: ScreenPlayer) -> None:
    p = player
    screen = staff_screen(p)
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.recard)
    p.swipe("executive")
    assert "Swipe the new card" in (p.ctl.snapshot().card_wanted or "")
    p.swipe("unknown")
    holder = find_by_card(p.ctl.table.db, UNKNOWN_CARD)
    assert holder is not None and holder.employee_id == "SIM-D1"
    p.swipe("dealer")  # the old card no longer works: nothing waits, and no one holds it
    old_card = next(track for employee_id, *_, track in SIM_STAFF if employee_id == "SIM-D1")
    assert find_by_card(p.ctl.table.db, old_card) is None
    assert [(a, e, actor) for a, e, actor, _ in log(p) if a == "recard"] == [
        ("recard", "SIM-D1", "SIM-X1")]


def test_leaving_the_area_calls_off_the_card_it_waits_for(player: ScreenPlayer) -> None:
    p = player
    screen = staff_screen(p)
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.withdraw)
    assert p.ctl.snapshot().card_wanted is not None
    area = p.window.supervisor
    assert area is not None
    p.tap(area.leave)
    assert p.ctl.snapshot().card_wanted is None
    p.swipe("executive")  # nothing acts on a screen no one is looking at
    dealer = find(p.ctl.table.db, "SIM-D1")
    assert dealer is not None and dealer.enabled
