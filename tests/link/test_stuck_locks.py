"""A table's login holding the link's locks in a transaction it never ends (migration
``0006_stuck_locks``, ``dealer_link/server_stuck.py``), on the real server: the next table
whose delivery times out has the server end that connection, named in the administrator's
log; a table only waiting its turn is never ended; the wagers then go through."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.link.health import now as taken_now
from dealer_link import server
from dealer_link.audit import verify
from dealer_link.settings import LinkError
from tests.link.helpers import (
    FULL_HOUSE,
    LINK,
    as_table,
    init_link,
    linked_game,
    open_linked,
    play_to_hit,
    table_dsn,
)


def _hold_the_meters(conn: server.Connection) -> None:
    """What the review did: a transaction of the table's own, the meters locked by a call
    that contributes nothing, and no COMMIT."""
    conn.autocommit = False
    conn.execute(b"SELECT link_contribute(%s, NULL, '{}', '{}', '{}', '{}', '{}', '{}')",
                 [LINK])


def test_a_table_holding_the_meters_is_ended_and_the_others_go_on(tmp_path: Path,
                                                                  link_dsn: str) -> None:
    admin = init_link(link_dsn)
    stuck, waiting = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE, deliver=False)  # seats 1-3's jackpot wagers owed
        t.sender.timeout_s = 2.0
        _hold_the_meters(stuck)
        # table-b's delivery waits its turn behind the stuck one: it is not ended
        waited: list[int] = []
        behind = threading.Thread(target=lambda: waited.append(server.contribute(
            waiting, LINK, "table-b", [Owed(5, 1, 1, 2, 100, taken_now())])))
        behind.start()
        with pytest.raises(LinkError, match="ended a connection of table table-a that held "
                                            "the link's locks in a transaction of its own"):
            t.sender.drain_once()
        behind.join(10)
        assert waited == [1]  # table-b's wager went through once table-a's lock was gone
        with pytest.raises(psycopg.OperationalError):
            stuck.execute(b"SELECT 1")
        assert t.sender.drain_once() == 3  # and this table's, on its next pass
        log = admin.execute(b"SELECT what, detail, reason FROM link_admin_log "
                            b"WHERE what = 'stuck connection'").fetchall()
        assert log == [("stuck connection", "ended a connection of table table-a that held "
                        "the link's locks in a transaction of its own",
                        "found by table t1 waiting for the link")]
        assert verify(admin) == []
    finally:
        t.close()
        for conn in (stuck, waiting, admin):
            conn.close()


def test_nothing_is_ended_when_nothing_is_stuck(link_dsn: str) -> None:
    admin = init_link(link_dsn)
    table = as_table(link_dsn, "table-a")
    try:
        assert server.end_stuck(table, LINK) is None
        assert admin.execute(b"SELECT count(*) FROM link_admin_log WHERE what = "
                             b"'stuck connection'").fetchone() == (0,)
    finally:
        table.close()
        admin.close()


def test_a_table_s_call_in_flight_is_never_taken_for_a_stuck_transaction(
        link_dsn: str) -> None:
    """An outside review: a call a table sends with parameters may start its transaction a
    moment before its statement, and the reaper took such an honest call holding the meters
    for "a transaction of its own" and ended it (92 of 191 in ten seconds; migration
    ``0009_one_statement``). Thirty calls, each looked at by the reaper's own query while it
    runs holding the meters, then one call ended for real by a timed-out table."""
    admin = init_link(link_dsn)
    admin.execute(b"UPDATE link_games SET rounds_an_hour = 1000000")  # calls long on purpose
    admin.commit()
    timed_out, busy = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    taken: list[str] = []
    for call in range(30):
        batch = [Owed(call * 10_000 + r, 1, 1, 2, 100, taken_now()) for r in range(1, 3_001)]
        sent: list[object] = []

        def send(batch: list[Owed] = batch, into: list[object] = sent) -> None:
            try:
                into.append(server.contribute(busy, LINK, "table-b", batch))
            except Exception as exc:  # reported by the assertion below
                into.append(exc)

        sending = threading.Thread(target=send)
        sending.start()
        while not sent and admin.execute(
                b"SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE "
                b"'%link_contribute%' AND datname = current_database()").fetchone() != (1,):
            pass  # until the call runs, holding the meters
        taken += [str(r[1]) for r in admin.execute(
            b"SELECT * FROM link_lock_holders()").fetchall()]
        if call == 29:
            assert server.end_stuck(timed_out, LINK) is None
        sending.join(60)
        assert sent == [3_000]
    assert taken == []
    assert admin.execute(b"SELECT count(*) FROM link_admin_log "
                         b"WHERE what = 'stuck connection'").fetchone() == (0,)
    for conn in (timed_out, busy, admin):
        conn.close()


def _waiting_on_its_own(stuck: server.Connection, other: server.Connection, link: str) -> None:
    """What a review did next: ``stuck`` holds the meters in a transaction of its own, then
    waits on an advisory lock held by ``other``, a second connection of the same login
    that has read ``link`` (a granted lock on a link table) in a transaction of its own."""
    other.autocommit = False
    other.execute(b"SELECT * FROM link_game(%s)", [link])
    other.execute(b"SELECT pg_advisory_lock(7000)")
    waiting = threading.Thread(target=lambda: _quietly(
        stuck, b"SELECT pg_advisory_xact_lock(7000)"), daemon=True)
    waiting.start()


def _quietly(conn: server.Connection, statement: bytes) -> None:
    with contextlib.suppress(psycopg.Error):  # ended by the server: what the test checks
        conn.execute(statement)


def test_a_holder_waiting_on_a_lock_of_its_own_is_ended_too(tmp_path: Path,
                                                            link_dsn: str) -> None:
    admin = init_link(link_dsn)
    stuck, other = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-a")
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE, deliver=False)
        t.sender.timeout_s = 2.0
        _hold_the_meters(stuck)
        _waiting_on_its_own(stuck, other, LINK)
        while admin.execute(b"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                            b"AND NOT granted").fetchone() != (1,):
            pass
        with pytest.raises(LinkError, match="ended a connection of table table-a"):
            t.sender.drain_once()
        for conn in (stuck, other):  # the meters' holder, not only the one it waited on
            with pytest.raises(psycopg.OperationalError):
                conn.execute(b"SELECT 1")
        assert t.sender.drain_once() == 3
        assert verify(admin) == []
    finally:
        t.close()
        for conn in (stuck, other, admin):
            conn.close()


def test_a_table_of_another_link_does_not_hold_this_links_hits(link_dsn: str) -> None:
    """A review: a table of pit-2 said hello in a transaction of its own, which locked the
    server-wide row every hit of every link locked to check for a restored copy; pit-1's hits
    timed out behind it."""
    admin = init_link(link_dsn)
    server.install_game(admin, "pit-2", replace(linked_game(), linked="pit-2"), actor="test")
    other = server.connect(table_dsn(link_dsn, "pit2-t1", ["pit-2"]), who="pit2-t1")
    mine = server.connect(table_dsn(link_dsn, "t1", [LINK]), who="t1")
    try:
        server.contribute(mine, LINK, "t1", [Owed(1, 1, 1, 3, 100, taken_now())])
        other.autocommit = False
        other.execute(b"SELECT * FROM link_hello('pit-2', NULL, NULL)")
        mine.execute(b"SET statement_timeout = 3000")
        hit = server.confirm_hit(mine, LINK, "t1", round_id=1, spot=1, seat=3,
                                 line_no=8, employee_id="S1")  # a full house from the tray
        assert (hit.table_id, hit.amount_cents) == ("t1", 600)
        other.rollback()
    finally:
        for conn in (other, mine, admin):
            conn.close()
