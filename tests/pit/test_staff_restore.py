"""A link server restored from a backup numbers its next staff changes as the lost ones were:
a table that had applied the lost ones would skip the new ones (a disable among them). Each
change has a random mark no restore brings back; a table that finds its last change gone
takes the list whole, applies what gives no right back and holds back the rest, says so, and
keeps holding it back after a restart. A real pg_dump and pg_restore make the restore."""

from __future__ import annotations

import subprocess
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict
from sqlite_utils import Database

from dealer_console.employees import pins
from dealer_console.employees.audit import verify_staff
from dealer_console.employees.authorize import Refused, check
from dealer_console.employees.registry import Role, find
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.replica import StaffFeed, applied_change, apply_pending
from tests.controller.conftest import Rig
from tests.link.helpers import table_dsn
from tests.link.pg_server import PgServer
from tests.pit.helpers import DEALER_CARD, EXEC_CARD, SUPER_CARD, pit_dsn
from tests.pit.test_staff_replica import NEW_CARD, authorised, casino_table, track

__all__ = ["casino_table"]  # the fixture, used below


def _backup(pg: PgServer, dbname: str, path: Path) -> None:
    subprocess.run([str(pg.bindir / "pg_dump"), "-Fc", "-f", str(path), "-d", pg.dsn(dbname)],
                   check=True, capture_output=True, timeout=120)


def _restore(pg: PgServer, dbname: str, path: Path) -> None:
    """As an administrator restores a lost server: the database dropped and made again from
    the backup (the logins are the cluster's and stay)."""
    with psycopg.connect(pg.dsn(), autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                     "%s AND pid <> pg_backend_pid()", [dbname])
        conn.execute(f'DROP DATABASE "{dbname}"'.encode())
    subprocess.run([str(pg.bindir / "pg_restore"), "--create", "--exit-on-error", "-d",
                    pg.dsn(), str(path)], check=True, capture_output=True, timeout=120)


def _change(link_dsn: str, employee: str, name: str, role: str, enabled: bool,
            card: str | None = None) -> int:
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        return server.set_staff(pit, executive_track=EXEC_CARD, employee_id=employee,
                                name=name, role=role, card_track=card, enabled=enabled,
                                reason="the test's change")


def _pass(db: Database, feed: StaffFeed, link_dsn: str) -> int:
    """One pass of the reporter (fetch) and of the owner thread (apply)."""
    with link_server.connect(table_dsn(link_dsn, "t1")) as conn:
        feed.fetch(conn)
    return apply_pending(db, feed)


def _enabled(db: Database, employee: str) -> bool:
    found = find(db, employee)
    return found is not None and found.enabled


def test_a_table_finds_the_server_went_back_and_gives_no_right_back(
        casino_table: Rig, link_dsn: str, pg_server: PgServer, tmp_path: Path) -> None:
    db = casino_table.opened.db
    dbname = str(conninfo_to_dict(link_dsn)["dbname"])
    feed = StaffFeed(*applied_change(db))
    assert _pass(db, feed, link_dsn) == 3  # X1, S1, D1
    _backup(pg_server, dbname, tmp_path / "link.dump")
    # after the backup: Dana leaves; the table applies it
    assert _change(link_dsn, "D1", "Dana Dealer", "dealer", False) == 4
    assert _pass(db, feed, link_dsn) == 1 and not _enabled(db, "D1")
    lost = applied_change(db)
    assert lost[0] == 4 and len(lost[1]) == 16
    # the server is lost and restored: Dana is enabled there again, the numbers start at 4
    _restore(pg_server, dbname, tmp_path / "link.dump")
    assert _change(link_dsn, "D2", "Dan Dealer", "dealer", True, NEW_CARD) == 4
    assert _change(link_dsn, "S1", "Sam Super", "supervisor", False) == 5
    # the table sees change 4 is not its 4: the list whole; Dan added, Sam disabled,
    # Dana's enable held back
    applied = _pass(db, feed, link_dsn)
    assert applied == 2, feed.status()
    assert authorised(db, NEW_CARD) and not authorised(db, SUPER_CARD, Role.SUPERVISOR)
    assert isinstance(check(db, track(DEALER_CARD), Role.DEALER), Refused)
    status = feed.status()
    assert "no longer holds change 4" in status and "1 change(s) held back" in status
    trouble = feed.trouble()  # the dealer's top strip, the technician and the pit
    assert trouble == ("the link's server went back (restored?); 1 change(s) held back",
                       "an executive makes them again at the pit")
    assert applied_change(db)[0] == 5
    # a restart resumes from the point taken: Dana stays off
    again = StaffFeed(*applied_change(db))
    assert _pass(db, again, link_dsn) == 0
    assert not _enabled(db, "D1") and "no longer holds" not in again.status()
    # an executive enables Dana again at the pit: a new change, applied as any
    assert _change(link_dsn, "D1", "Dana Dealer", "dealer", True) == 6
    assert _pass(db, again, link_dsn) == 1 and authorised(db, DEALER_CARD)
    assert verify_staff(db) == []


def test_a_server_restored_behind_the_table_with_no_change_since(
        casino_table: Rig, link_dsn: str, pg_server: PgServer, tmp_path: Path) -> None:
    """Restored and not changed since: its newest change is older than the table's, which
    used to wait, skipping, until the numbers passed its own."""
    db = casino_table.opened.db
    dbname = str(conninfo_to_dict(link_dsn)["dbname"])
    feed = StaffFeed(*applied_change(db))
    _pass(db, feed, link_dsn)
    _backup(pg_server, dbname, tmp_path / "link.dump")
    _change(link_dsn, "X2", "Xena Exec", "executive", True, NEW_CARD)
    with link_server.connect(pit_dsn(link_dsn)) as pit:  # Dana's PIN, changed after a leak
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="D1", name="Dana Dealer",
                         role="dealer", card_track=None, enabled=True, reason="leaked",
                         pin="4821")
    assert _pass(db, feed, link_dsn) == 2 and authorised(db, NEW_CARD, Role.EXECUTIVE)
    _restore(pg_server, dbname, tmp_path / "link.dump")
    # the server lost Xena: the table disables her (no right is kept the server lacks); it
    # lost Dana's new PIN too: the table keeps it (the old one may be the leaked one)
    assert _pass(db, feed, link_dsn) == 1
    assert not authorised(db, NEW_CARD) and "no longer holds change 5" in feed.status()
    assert "1 change(s) held back" in feed.status()
    dana = find(db, "D1")
    assert dana is not None and pins.verify(db, dana, "4821") is pins.PinCheck.RIGHT
    # the next change after the restore is applied as any
    assert _change(link_dsn, "S1", "Sam Super", "supervisor", False) == 4
    assert _pass(db, feed, link_dsn) == 1 and not authorised(db, SUPER_CARD)
    assert pins.verify(db, dana, "4821") is pins.PinCheck.RIGHT
    assert feed.trouble() is None  # a change made after the restore: the floor has acted
    assert verify_staff(db) == []
