"""A table keeping the casino's staff list says so on the supervisor's staff screen, and
while its link is down since when its copy is: a real console, its real reporter and the
link's real server, the table's login cut off and let back by the server's superuser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict
from pytestqt.qtbot import QtBot

from dealer_console.table_name import TABLE_ID_VARIABLE
from dealer_link.pit import server
from dealer_link.pit.replica import STAFF_VARIABLE, applied_change
from dealer_link.settings import DSN_VARIABLE
from drivers.sim.table.choices import SIM_STAFF
from tests.link.helpers import table_dsn
from tests.link.pg_server import PgServer
from tests.pit.helpers import EXEC_CARD, init_pit
from ui.gallery.player import ScreenPlayer
from ui.supervisor.staff import StaffScreen


@pytest.fixture
def casino_console(qtbot: QtBot, tmp_path: Path, link_dsn: str,
                   monkeypatch: pytest.MonkeyPatch) -> Iterator[ScreenPlayer]:
    """A console keeping the casino's list, whose supervisor's card is on it."""
    admin = init_pit(link_dsn)
    [(employee, name, role, card)] = [s for s in SIM_STAFF if s[2] == "supervisor"]
    server.set_staff(admin, executive_track=EXEC_CARD, employee_id=employee, name=name,
                     role=role, card_track=card, enabled=True, reason="works the pit")
    admin.close()
    ScreenPlayer.start("washington-face-up", tmp_path / "table.db").close()  # its own first
    monkeypatch.setenv(DSN_VARIABLE, table_dsn(link_dsn, "t1"))
    monkeypatch.setenv(TABLE_ID_VARIABLE, "t1")
    monkeypatch.setenv(STAFF_VARIABLE, "casino")
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    try:
        yield p
    finally:
        p.close()


def _cut(pg_server: PgServer, login: str, down: bool) -> None:
    with psycopg.connect(pg_server.dsn(), autocommit=True) as su:
        su.execute(f'ALTER ROLE "{login}" {"NOLOGIN" if down else "LOGIN"}'.encode())
        if down:
            su.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE usename = %s", [login])


def test_the_staff_screen_says_whose_list_and_since_when(casino_console: ScreenPlayer,
                                                         link_dsn: str,
                                                         pg_server: PgServer) -> None:
    p = casino_console
    status = p.ctl.staff.list_status
    assert status is not None
    p.wait(lambda: "change 4" in status(), "the casino's list heard", 30)
    # and applied (the owner's half-second pass): a session opened on the table's own list
    # would end when the casino's replaces it (authorize.session_ended: another card tag)
    p.wait(lambda: applied_change(p.ctl.table.db)[0] >= 4, "the casino's list applied", 30)
    area = p.open_supervisor("supervisor")  # the casino's card of the sim's supervisor
    p.tap(area.buttons["Staff"])
    screen = area.screens["Staff"]
    assert isinstance(screen, StaffScreen)
    assert screen.source.isVisible()
    assert screen.source.text().startswith("staff list: the casino's, change 4, heard ")
    login = str(conninfo_to_dict(table_dsn(link_dsn, "t1"))["user"])
    _cut(pg_server, login, down=True)
    try:
        p.wait(lambda: "(link down)" in screen.source.text(), "the link down said", 30)
        assert re.fullmatch(r"staff list: the casino's, copy from \d\d:\d\d:\d\d "
                            r"\(link down\)", screen.source.text()), screen.source.text()
    finally:
        _cut(pg_server, login, down=False)
    p.wait(lambda: "heard" in screen.source.text(), "the link back said", 30)


def test_the_dealer_s_screen_says_when_cards_are_checked_against_a_copy(
        casino_console: ScreenPlayer, link_dsn: str, pg_server: PgServer) -> None:
    """Issue 27: a table working from its copy says since when where the dealer looks (a
    supervisor swipes there), not only on the staff screen; and stops saying it when the
    link is back."""
    p = casino_console
    status = p.ctl.staff.list_status
    assert status is not None
    p.wait(lambda: "change 4" in status(), "the casino's list applied", 30)
    assert not [f for f in p.window.faults.faults() if f[0] == "Staff list"]
    login = str(conninfo_to_dict(table_dsn(link_dsn, "t1"))["user"])
    _cut(pg_server, login, down=True)

    def staff_faults() -> list[tuple[str, str, str]]:
        return [f for f in p.window.faults.faults() if f[0] == "Staff list"]

    try:
        p.wait(lambda: bool(staff_faults()), "the dealer told of the copy", 30)
        [(_title, fault, todo)] = staff_faults()
        assert re.fullmatch(r"this table's copy from \d\d:\d\d:\d\d \(link down\)",
                            fault), fault
        assert todo == ""  # the dealer has nothing to do: the cards still work
        assert p.window.fault_area.isVisible()
    finally:
        _cut(pg_server, login, down=False)
    p.wait(lambda: not staff_faults(), "the copy's line gone with the link back", 30)


def test_a_table_keeping_its_own_list_says_nothing_of_it(qtbot: QtBot,
                                                         tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    try:
        area = p.open_supervisor("supervisor")
        p.tap(area.buttons["Staff"])
        screen = area.screens["Staff"]
        assert isinstance(screen, StaffScreen)
        assert p.ctl.staff.list_status is None and not screen.source.isVisible()
    finally:
        p.close()
