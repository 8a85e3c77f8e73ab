"""Issue 27: PINs are the casino's, so their lock is too. A guesser spreading wrong PINs over
the floor (three at one table, two at another) would stay under each table's own lock; each
table reports the wrong PINs it recorded and the server, counting over every table, takes the
PIN off the list at five, which every table then applies ("no PIN on file") until an
executive sets a new one. Real logins on a real server, a real table's chain."""

from __future__ import annotations

import psycopg
import pytest
from sqlite_utils import Database

from dealer_console.employees import pins
from dealer_console.employees.audit import verify_staff
from dealer_console.employees.registry import find, log
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.replica import StaffFeed, applied_version, apply_pending
from dealer_link.pit.sql_pins import FLOOR_LOCK_AFTER
from tests.controller.conftest import Rig
from tests.link.helpers import table_dsn
from tests.pit.helpers import EXEC_CARD, her_first_pin, pit_dsn
from tests.pit.test_staff_replica import casino_table

__all__ = ["casino_table"]  # the fixture, used below


def _wrong_pin_here(db: Database) -> int:
    """A wrong PIN as the table's confirmation logs it (``authorize.refuse``'s words)."""
    with db.atomic():
        log(db, "swipe_refused", "S1", "card swipe",
            f"confirm a jackpot hit{pins.WRONG_MARK}Sam Super's PIN is not right")
    return int(db.execute("SELECT MAX(entry) FROM employee_log").fetchone()[0])


def _pass(db: Database, feed: StaffFeed, link_dsn: str) -> int:
    apply_pending(db, feed)  # the owner thread notes the wrong PINs
    with link_server.connect(table_dsn(link_dsn, "t1")) as conn:
        feed.fetch(conn)  # the reporter thread reports them and fetches the changes
    return apply_pending(db, feed)


def _set_pin(link_dsn: str, pin: str) -> None:
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="S1", name="Sam Super",
                         role="supervisor", card_track=None, enabled=True, reason="his PIN",
                         pin=pin)


def test_wrong_pins_spread_over_the_floor_take_the_pin_off_every_table(
        casino_table: Rig, link_dsn: str) -> None:
    db = casino_table.opened.db
    _set_pin(link_dsn, "4821")
    feed = StaffFeed(applied_version(db))
    _pass(db, feed, link_dsn)
    sam = find(db, "S1")
    assert sam is not None and pins.verify(db, sam, "4821") is pins.PinCheck.RIGHT
    # three wrong PINs here: under this table's own lock, reported to the server
    entries = [_wrong_pin_here(db) for _ in range(FLOOR_LOCK_AFTER - 2)]
    assert not pins.locked(db, "S1")
    _pass(db, feed, link_dsn)
    assert pins.verify(db, sam, "4821") is pins.PinCheck.RIGHT
    with link_server.connect(table_dsn(link_dsn, "t1")) as t1:  # a report sent again
        assert server.pin_wrong(t1, "S1", entries[0]) == "counted before"
    # two more at another table: five over the floor
    with link_server.connect(table_dsn(link_dsn, "t2")) as t2:
        assert server.pin_wrong(t2, "S1", 901) == "counted"
        assert server.pin_wrong(t2, "S1", 902) == "locked"
    # the PIN is off the list, and off this table with the next pass
    assert _pass(db, feed, link_dsn) == 1
    assert pins.verify(db, sam, "4821") is pins.PinCheck.NONE_ON_FILE
    last = db.execute("SELECT action, detail FROM employee_log WHERE employee_id = 'S1' "
                      "ORDER BY entry DESC LIMIT 1").fetchone()
    assert last[0] == "pin" and "PIN taken off" in last[1]
    # an executive sets a new PIN at the pit: it works, and the count starts again
    _set_pin(link_dsn, "7390")
    assert _pass(db, feed, link_dsn) == 1
    assert pins.verify(db, sam, "7390") is pins.PinCheck.RIGHT
    _wrong_pin_here(db)
    _pass(db, feed, link_dsn)
    assert pins.verify(db, sam, "7390") is pins.PinCheck.RIGHT
    assert verify_staff(db) == []
    with link_server.connect(link_dsn) as admin:
        logged = [str(r[0]) for r in admin.execute(
            b"SELECT detail FROM pit_staff_log WHERE employee_id = 'S1' ORDER BY entry")]
        assert any(d.startswith("PIN taken off after 5 wrong PINs") for d in logged)
        counted = admin.execute(b"SELECT count(*) FROM pit_pin_failures").fetchone()
        assert counted is not None and counted[0] == FLOOR_LOCK_AFTER + 1


def test_one_table_alone_takes_no_pin_off_the_floor(casino_table: Rig, link_dsn: str) -> None:
    """A table's login in the wrong hands could report wrong PINs never typed: one login counts
    for at most four, so it takes two tables to reach five (a table's own guesses are its own
    lock's business)."""
    _set_pin(link_dsn, "4821")
    with link_server.connect(table_dsn(link_dsn, "t1")) as t1:
        answers = [server.pin_wrong(t1, "S1", entry) for entry in range(1, 9)]
    assert answers == ["counted"] * 8
    with link_server.connect(table_dsn(link_dsn, "t2")) as t2:
        assert server.pin_wrong(t2, "S1", 1) == "locked"  # four from one table, one more


def test_only_a_table_reports_a_wrong_pin(casino_table: Rig, link_dsn: str) -> None:
    with link_server.connect(pit_dsn(link_dsn)) as pit, pytest.raises(
            (link_server.LinkRefused, psycopg.errors.InsufficientPrivilege)):
        server.pin_wrong(pit, "S1", 1)


def test_an_executive_s_own_card_sets_a_first_pin_and_never_replaces_one(
        casino_table: Rig, link_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stolen executive card whose PIN the thief does not know (or whose PIN the floor's
    wrong guesses took off) must not get a PIN of the thief's: at the pit, as at a table with
    its own list (``employees/pins.py``), the holder's own card sets only a first PIN; any
    later one takes another executive's card."""
    from dealer_console.employees.authorize import Refused
    from dealer_link.pit.replica import STAFF_VARIABLE

    other_exec = ";4444000044440000=4?"

    def own_pin(pin: str, card: str = EXEC_CARD, executive_pin: str | None = None) -> None:
        with link_server.connect(pit_dsn(link_dsn)) as pit:
            server.set_staff(pit, executive_track=card, employee_id="X1", name="Ella Exec",
                             role="executive", card_track=None, enabled=True,
                             reason="her PIN", pin=pin, executive_pin=executive_pin)

    refused = "may not change their own record"
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2", name="Xavi Exec",
                         role="executive", card_track=other_exec, enabled=True,
                         reason="a second executive")
    own_pin("90210")  # her first: a check added to her own card (PINs taken up at the pit)
    with link_server.connect(pit_dsn(link_dsn)) as pit:  # his, on her card and her PIN
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2", name="Xavi Exec",
                         role="executive", card_track=None, enabled=True, reason="his PIN",
                         pin="24680", executive_pin="90210")
    with pytest.raises(link_server.LinkRefused, match=refused):
        own_pin("11111", executive_pin="90210")  # the thief's, over hers
    own_pin("11111", card=other_exec, executive_pin="24680")  # another executive's replaces it
    db = casino_table.opened.db  # a table has the list with her PIN
    feed = StaffFeed(applied_version(db))
    _pass(db, feed, link_dsn)
    ella = find(db, "X1")
    assert ella is not None and pins.verify(db, ella, "11111") is pins.PinCheck.RIGHT
    # the floor's wrong guesses take her PIN off: her own card still sets none
    with link_server.connect(table_dsn(link_dsn, "t1")) as t1:
        assert [server.pin_wrong(t1, "X1", e) for e in (1, 2, 3, 4)] == ["counted"] * 4
    with link_server.connect(table_dsn(link_dsn, "t2")) as t2:
        assert server.pin_wrong(t2, "X1", 1) == "locked"
    with pytest.raises(link_server.LinkRefused, match="has no PIN the server can check"):
        own_pin("22222", executive_pin="11111")
    # nor at a table that took the PIN off with the list and keeps its own list since
    _pass(db, feed, link_dsn)
    assert pins.verify(db, ella, "11111") is pins.PinCheck.NONE_ON_FILE
    monkeypatch.delenv(STAFF_VARIABLE)
    with pytest.raises(Refused, match="may not change their own PIN"):
        pins.set_pin(db, link_server.track_of(EXEC_CARD), "X1", "22222")
    assert pins.verify(db, ella, "22222") is pins.PinCheck.NONE_ON_FILE
    own_pin("33333", card=other_exec, executive_pin="24680")
    with link_server.connect(link_dsn) as admin:
        attempts = [str(r[0]) for r in admin.execute(
            b"SELECT refusal FROM pit_card_attempts ORDER BY entry")]
    assert sum(refused in a for a in attempts) == 1  # each refusal is on the server's trace
    assert sum("has no PIN the server can check" in a for a in attempts) == 1


def test_a_name_never_decides_whether_a_pin_was_set(casino_table: Rig, link_dsn: str) -> None:
    """An outside review: the server read "a PIN was set" from its log's words, which hold the
    employee's name, so an executive named "Ann new PINTO" was refused her own first PIN."""
    card = ";4444000044440000=4?"
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X3",
                         name="Ann new PINTO", role="executive", card_track=card,
                         enabled=True, reason="hired")
        server.set_staff(pit, executive_track=card, employee_id="X3", name="Ann new PINTO",
                         role="executive", card_track=None, enabled=True,
                         reason="her first PIN", pin="90210")
        with pytest.raises(link_server.LinkRefused, match="may not change their own record"):
            server.set_staff(pit, executive_track=card, employee_id="X3", name="Ann new PINTO",
                             role="executive", card_track=None, enabled=True,
                             reason="another", pin="11111", executive_pin="90210")


def test_a_pin_taken_off_before_a_table_takes_the_list_is_still_wanted_there(
        casino_table: Rig, link_dsn: str) -> None:
    """An outside review: a table that took the casino's list only after the floor had taken
    an executive's PIN off never saw her PIN, and on a table whose confirmations take a PIN
    her card alone backed an award out. Any executive with a PIN makes every one need it."""
    from dealer_console.controller.card_desk import CardDesk
    from dealer_console.employees.authorize import Refused
    from dealer_console.employees.registry import Role

    her_first_pin(link_dsn, "90210")
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2", name="Xavi Exec",
                         role="executive", card_track=";4444000044440000=4?", enabled=True,
                         reason="a second executive", pin="24680", executive_pin="90210")
    with link_server.connect(table_dsn(link_dsn, "t1")) as t1:  # the thief's guesses
        assert [server.pin_wrong(t1, "X1", e) for e in (1, 2, 3, 4)] == ["counted"] * 4
    with link_server.connect(table_dsn(link_dsn, "t2")) as t2:
        assert server.pin_wrong(t2, "X1", 1) == "locked"
    db = casino_table.opened.db  # this table takes the casino's list only now
    _pass(db, StaffFeed(applied_version(db)), link_dsn)
    assert not pins.has_pin(db, "X1") and not pins.ever_had_pin(db, "X1")
    got: list[str] = []
    desk = CardDesk(db, lambda: None, lambda why: None, pins_in_force=True)
    desk.want(Role.EXECUTIVE, "back out jackpot award 1 (test)",
              lambda e: got.append(e.employee_id))
    with pytest.raises(Refused, match="Ella Exec has no PIN on file: an executive sets one "
                                      "at the pit"):
        desk.swiped(link_server.track_of(EXEC_CARD))
    assert desk.pin is None and got == []


def test_the_floor_taking_the_only_executive_pin_off_brings_no_card_alone_back(
        casino_table: Rig, link_dsn: str) -> None:
    """A second outside review: with one executive PIN on the list, a thief's five wrong
    guesses over two tables took it off, and the table, seeing no executive with a PIN, let
    the stolen card alone back an award out. Once taken up, PINs stay wanted."""
    from dealer_console.controller.card_desk import CardDesk
    from dealer_console.employees.authorize import Refused
    from dealer_console.employees.registry import Role

    her_first_pin(link_dsn, "90210")
    db = casino_table.opened.db
    feed = StaffFeed(applied_version(db))
    _pass(db, feed, link_dsn)
    got: list[str] = []

    def ask() -> CardDesk:
        desk = CardDesk(db, lambda: None, lambda why: None, pins_in_force=True)
        desk.want(Role.EXECUTIVE, "back out jackpot award 1 (test)",
                  lambda e: got.append(e.employee_id))
        desk.swiped(link_server.track_of(EXEC_CARD))
        return desk

    assert ask().pin is not None  # her PIN is asked
    with link_server.connect(table_dsn(link_dsn, "t1")) as t1:  # the thief's guesses
        assert [server.pin_wrong(t1, "X1", e) for e in (1, 2, 3, 4)] == ["counted"] * 4
    with link_server.connect(table_dsn(link_dsn, "t2")) as t2:
        assert server.pin_wrong(t2, "X1", 1) == "locked"
    _pass(db, feed, link_dsn)
    assert not pins.has_pin(db, "X1")
    with pytest.raises(Refused, match="Ella Exec has no PIN on file"):
        ask()
    assert got == []
