"""The casino's staff list at a table: a replica applied in the server's order and recorded
in the table's chain; a card disabled at the pit refused at the table within the bound; a
table cut off authorises from its replica and catches up; no table changes the list alone."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.employees import changes, pins
from dealer_console.employees.audit import verify_staff
from dealer_console.employees.authorize import Refused, check
from dealer_console.employees.registry import RegistryError, Role, find, find_by_card
from dealer_console.table_name import TABLE_ID_VARIABLE
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.replica import (
    DISABLE_BOUND_S,
    STAFF_VARIABLE,
    StaffFeed,
    applied_version,
    apply_pending,
)
from dealer_link.pit.reporter import PitReporter
from dealer_link.pit.table_side import start_reporting
from dealer_link.settings import DSN_VARIABLE
from tests.controller.conftest import Rig, start_rig
from tests.link.helpers import table_dsn
from tests.pit.helpers import DEALER_CARD, EXEC_CARD, SUPER_CARD, init_pit, pit_dsn, report

NEW_CARD = ";7777000077770000?"


def track(card: str) -> str:
    return link_server.track_of(card)


def authorised(db: Database, card: str, role: Role | None = None) -> bool:
    """The card authorises ``role``'s work (None: the card is an enabled employee's)."""
    if role is None:
        found = find_by_card(db, track(card))
        return found is not None and found.enabled
    return not isinstance(check(db, track(card), role), Refused)


def owner_loop(db: Database, feed: StaffFeed, ok: Callable[[], bool], bound_s: float) -> float:
    """The owner thread's part: apply what the feed fetched until ``ok``; the time it took
    (an AssertionError past ``bound_s``)."""
    began = time.monotonic()
    while time.monotonic() - began < bound_s:
        apply_pending(db, feed)
        if ok():
            return time.monotonic() - began
        time.sleep(0.05)
    raise AssertionError(f"not within {bound_s} s: {feed.status()}")


@pytest.fixture
def casino_table(tmp_path: Path, link_dsn: str, monkeypatch: pytest.MonkeyPatch
                 ) -> Iterator[Rig]:
    init_pit(link_dsn).close()
    rig = start_rig(tmp_path / "table.db")  # its own staff list first (the simulator's)
    monkeypatch.setenv(DSN_VARIABLE, table_dsn(link_dsn, "t1"))
    monkeypatch.setenv(TABLE_ID_VARIABLE, "t1")
    monkeypatch.setenv(STAFF_VARIABLE, "casino")
    try:
        yield rig
    finally:
        rig.close()


def test_a_card_disabled_at_the_pit_is_refused_at_the_table_within_the_bound(
        casino_table: Rig, link_dsn: str) -> None:
    db = casino_table.opened.db
    reporting = start_reporting(casino_table.controller, casino_table.opened)
    assert reporting is not None and reporting.feed is not None
    feed = reporting.feed
    try:
        owner_loop(db, feed, lambda: authorised(db, SUPER_CARD, Role.SUPERVISOR), 20.0)
        assert authorised(db, EXEC_CARD, Role.EXECUTIVE)
        assert "staff list: the casino's, change 3" in feed.status()
        with link_server.connect(pit_dsn(link_dsn)) as pit:
            server.set_staff(pit, executive_track=EXEC_CARD, employee_id="S1",
                             name="Sam Super", role="supervisor", card_track=None,
                             enabled=False, reason="left the casino")
        owner_loop(db, feed, lambda: not authorised(db, SUPER_CARD, Role.SUPERVISOR),
                   DISABLE_BOUND_S)
        refused = check(db, track(SUPER_CARD), Role.SUPERVISOR)
        assert isinstance(refused, Refused)
    finally:
        reporting.stop()
    # each change is in the table's chain, in the server's order, and the audit rebuilds it
    actors = [a for (a,) in db.execute("SELECT actor FROM employee_log WHERE actor LIKE "
                                       "'the casino%' ORDER BY entry")]
    set_aside = [a for a in actors if a.endswith("change 0")]
    applied = [re.fullmatch(r"the casino's staff list, change (\d+) \(mark ([0-9a-f]{16})\)", a)
               for a in actors[len(set_aside):]]
    assert set_aside and [m and int(m.group(1)) for m in applied] == [1, 2, 3, 4]
    assert len({m.group(2) for m in applied if m}) == 4  # each change its own mark
    # the table's own staff (the simulator's) are off: the list is the casino's
    own = find(db, "SIM-S1")
    assert own is not None and not own.enabled
    assert applied_version(db) == 4
    assert verify_staff(db) == []


def test_a_table_cut_off_authorises_from_its_replica_and_catches_up(
        casino_table: Rig, link_dsn: str) -> None:
    db = casino_table.opened.db
    dsn = table_dsn(link_dsn, "t1")
    feed = StaffFeed(applied_version(db))

    def reporter(address: str) -> PitReporter:
        made = PitReporter(address, "t1", heartbeat_s=0.2, after_send=feed.fetch,
                           on_fail=feed.failed)
        made.offer(report())
        made.start()
        return made

    linked = reporter(dsn)
    owner_loop(db, feed, lambda: authorised(db, DEALER_CARD), 20.0)
    linked.stop()
    # the cable is cut: the server's list changes meanwhile
    cut = reporter(dsn.replace("host=", "host=/nonexistent-"))
    owner_loop(db, feed, lambda: feed.failing_since is not None, 20.0)
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="D1", name="Dana Dealer",
                         role="dealer", card_track=None, enabled=False, reason="left")
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="D2", name="Dan Dealer",
                         role="dealer", card_track=NEW_CARD, enabled=True, reason="hired")
    time.sleep(0.5)
    apply_pending(db, feed)
    assert re.fullmatch(r"staff list: the casino's, copy from \d\d:\d\d:\d\d \(link down\)",
                        feed.status()), feed.status()
    assert authorised(db, SUPER_CARD, Role.SUPERVISOR)  # the replica still authorises
    assert authorised(db, DEALER_CARD) and not authorised(db, NEW_CARD)  # as it last knew
    cut.stop()
    # the link returns: the table catches up in the server's order
    back = reporter(dsn)
    try:
        owner_loop(db, feed, lambda: authorised(db, NEW_CARD) and not authorised(
            db, DEALER_CARD), 20.0)
    finally:
        back.stop()
    assert feed.failing_since is None and applied_version(db) == 5
    dana = find(db, "D1")
    assert dana is not None and not dana.enabled
    assert verify_staff(db) == []


def test_no_table_changes_the_casino_s_list_alone(casino_table: Rig) -> None:
    db = casino_table.opened.db
    executive = find(db, "SIM-X1")
    assert executive is not None  # the table's own executive, from before
    assert pins.ever_had_pin(db, "SIM-X1")  # the simulator's PIN, from before
    before = db.execute("SELECT COUNT(*) FROM employee_log").fetchone()[0]
    with pytest.raises(RegistryError, match="keeps the casino's staff list"):
        changes.add_by(db, executive, "D7", "Dee Seven", Role.DEALER, "8888000088880000")
    with pytest.raises(RegistryError, match="keeps the casino's staff list"):
        changes.set_enabled_by(db, executive, "SIM-S1", False, reason="alone")
    with pytest.raises(RegistryError, match="keeps the casino's staff list"):
        changes.setup(db, "X9", "Xavier", "9999000099990000", actor="a technician")
    with pytest.raises(RegistryError, match="keeps the casino's staff list"):
        pins.set_pin_by(db, executive, "SIM-S1", "4821")  # PINs are the casino's list's too
    # her own PIN: where to set it, not "another executive's card" (stop 42's item 10)
    with pytest.raises(RegistryError, match="keeps the casino's staff list"):
        pins.set_pin_by(db, executive, "SIM-X1", "4821")
    assert db.execute("SELECT COUNT(*) FROM employee_log").fetchone()[0] == before
    sim_s1 = find(db, "SIM-S1")
    assert sim_s1 is not None
    assert "at the pit (dealer-console pit staff --new-pin)" in pins.lock_words(sim_s1)


def test_changes_the_table_s_file_refused_are_asked_for_again(casino_table: Rig,
                                                              link_dsn: str) -> None:
    """The table's file busy (another writer holds it): the changes taken are not lost but
    asked for again, and the table says so meanwhile."""
    db = casino_table.opened.db
    feed = StaffFeed(applied_version(db))
    db.execute("PRAGMA busy_timeout = 50")
    holder = sqlite3.connect(casino_table.opened.db_path, isolation_level=None)
    with link_server.connect(table_dsn(link_dsn, "t1")) as conn:
        assert feed.fetch(conn) == 3  # X1, S1, D1
        holder.execute("BEGIN IMMEDIATE")
        try:
            assert apply_pending(db, feed) == 0
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert "not applied yet" in feed.status() and "asked again" in feed.status()
        assert applied_version(db) == 0
        assert feed.fetch(conn) == 3  # asked again from the start
    assert apply_pending(db, feed) == 3 and applied_version(db) == 3
    assert "change 3, heard" in feed.status()
    assert authorised(db, SUPER_CARD, Role.SUPERVISOR)
    assert verify_staff(db) == []


def test_a_pin_set_at_the_pit_is_the_pin_at_every_table(casino_table: Rig,
                                                       link_dsn: str) -> None:
    """Issue 27: PINs are the casino's list's too. A PIN set on an executive's card at the pit
    reaches the table with the list (its hash only), replaces any PIN the table had, and
    starts the table's PIN lock afresh; the server refuses a PIN sent as digits."""
    from dealer_console.employees import pins

    db = casino_table.opened.db
    feed = StaffFeed(applied_version(db))
    with link_server.connect(table_dsn(link_dsn, "t1")) as conn:
        feed.fetch(conn)
    apply_pending(db, feed)
    sam = find(db, "S1")
    assert sam is not None and pins.verify(db, sam, "4821") is pins.PinCheck.NONE_ON_FILE
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="S1", name="Sam Super",
                         role="supervisor", card_track=None, enabled=True,
                         reason="his PIN for jackpots", pin="4821")
        # an executive sets their own PIN (a check on their own card, no right)
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X1", name="Ella Exec",
                         role="executive", card_track=None, enabled=True,
                         reason="her own PIN", pin="90210")
        [(refusal, version)] = link_server.call(
            pit, "SELECT * FROM pit_staff_set(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [track(EXEC_CARD), "S1", "Sam Super", "supervisor", None, None, True,
             "a PIN sent as digits", "4821"])
        assert "never as its digits" in str(refusal) and version is None
    with link_server.connect(table_dsn(link_dsn, "t1")) as conn:
        assert feed.fetch(conn) == 2
    assert apply_pending(db, feed) == 2
    sam, ella = find(db, "S1"), find(db, "X1")
    assert sam is not None and ella is not None
    assert pins.verify(db, sam, "4821") is pins.PinCheck.RIGHT
    assert pins.verify(db, sam, "1111") is pins.PinCheck.WRONG
    assert pins.verify(db, ella, "90210") is pins.PinCheck.RIGHT
    actions = [a for (a,) in db.execute("SELECT action FROM employee_log WHERE employee_id = "
                                        "'S1' ORDER BY entry")]
    assert actions[-1] == "pin"  # the table's PIN lock counts from here
    assert verify_staff(db) == []


def test_a_change_said_to_come_from_the_casino_s_list_is_held_to_the_server_s_log(
        casino_table: Rig, link_dsn: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An executive added at the end of the table's file, in the replica's own words (no key,
    no rewrite): the table's audit takes it, the server's log of the list does not."""
    from dealer_console.cli import main
    from dealer_console.employees import events
    from dealer_link.pit.staff_check import unvouched

    db = casino_table.opened.db
    reporting = start_reporting(casino_table.controller, casino_table.opened)
    assert reporting is not None and reporting.feed is not None
    try:
        owner_loop(db, reporting.feed, lambda: authorised(db, SUPER_CARD, Role.SUPERVISOR),
                   20.0)
    finally:
        reporting.stop()
    with link_server.connect(link_dsn) as admin:
        count, problems = unvouched(db, admin)
    assert count >= 4 and problems == []
    with db.atomic():  # the forgery: a made-up change 5 and a change 0 that gives a right
        row = {"employee_id": "EVIL-X", "name": "Eve Vil", "role": "executive", "enabled": 1,
               "card_tag": "abcd", "card_hash": "scrypt$16384$8$1$" + "0" * 32 + "$" + "0" * 64,
               "created_at": "2026-11-27T03:00:00+00:00", "pin_hash": None}
        events.record(db, "add", "EVIL-X", "the casino's staff list, change 5 (mark "
                      "0123456789abcdef)", "Eve Vil, executive: applied from the casino's "
                      "staff list", row)
        events.record(db, "role", "SIM-D1", "the casino's staff list, change 0",
                      "made an executive", {**events.employee_row(db, "SIM-D1"),
                                            "role": "executive"})
    assert verify_staff(db) == []  # the table's own audit cannot tell
    monkeypatch.setenv(DSN_VARIABLE, link_dsn)  # the administrator's login
    status = main(["pit", "check-staff", "--db", str(casino_table.opened.db_path)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "(add EVIL-X, the casino's staff list, change 5 (mark 0123456789abcdef)): the " \
           "server's staff log has no change 5 of EVIL-X" in out
    assert "(role SIM-D1, the casino's staff list, change 0): only a card taken off" in out
