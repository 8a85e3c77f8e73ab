"""Contributions reach the link exactly once: START GAME owes them in its own transaction,
the sender delivers them with their key, and a resend after a crash adds nothing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.link import outbox
from dealer_console.link.health import LinkHealth
from dealer_console.link.health import now as taken_now
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_link import server
from dealer_link.audit import verify
from dealer_link.sender import OutboxSender
from dealer_link.settings import LinkError
from tests.controller.small_disk import Disk, disk  # noqa: F401  (the fixture)
from tests.link.helpers import LINK, SEED, as_table, init_link, linked_game, linked_table, table_dsn
from tests.link.pg_server import PgServer


def _start_round(table: object, seats: tuple[int, ...]) -> None:
    for seat in seats:
        table.handle(c.PlaceWager(seat, "base", 2000))  # type: ignore[attr-defined]
        table.handle(c.PlaceWager(seat, "jackpot", 100))  # type: ignore[attr-defined]
    table.handle(c.StartGame())  # type: ignore[attr-defined]


def _sum_query(conn: server.Connection) -> tuple[int, int]:
    """The meter as it stands and seed + the sum of accepted contributions, by a query."""
    with conn.cursor() as cur:
        cur.execute("SELECT l.meter_micro, l.seed_cents * 1000000 + l.contribution_ppm * "
                    "(SELECT COALESCE(SUM(wager_cents), 0) FROM link_contributions c "
                    " WHERE c.link = l.link) FROM link_levels l WHERE l.link = %s", [LINK])
        row = cur.fetchone()
    assert row is not None
    return int(str(row[0])), int(str(row[1]))


def test_a_batch_sent_twice_is_accepted_once(link_dsn: str) -> None:
    conn = init_link(link_dsn)
    batch = [Owed(7, 1, 1, seat, 100, taken_now()) for seat in (1, 2, 3)]
    a, b = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    assert server.contribute(a, LINK, "table-a", batch) == 3
    assert server.contribute(a, LINK, "table-a", batch) == 0
    # the same round and seats from another table are its own wagers
    assert server.contribute(b, LINK, "table-b", batch[:1]) == 1
    meter, expected = _sum_query(conn)
    assert meter == expected == SEED * MICRO + 4 * 100 * 150_000
    assert verify(conn) == []


def test_a_wager_of_another_amount_is_refused_whole(link_dsn: str) -> None:
    conn = init_link(link_dsn)
    with pytest.raises(LinkError, match="100 cents link wa-link takes"):
        server.contribute(as_table(link_dsn, "t"), LINK, "t", [
            Owed(1, 1, 1, 1, 100, taken_now()), Owed(1, 1, 1, 2, 500, taken_now())])
    assert server.meter_states(conn, LINK)["main"].meter_micro == SEED * MICRO


def test_start_game_owes_the_link_and_the_sender_delivers_once(
        tmp_path: Path, link_dsn: str) -> None:
    conn = init_link(link_dsn)
    health = LinkHealth()
    table, _system, db = linked_table(tmp_path / "t1.db", "t1", health)
    sender = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1",
                          dsn=table_dsn(link_dsn, "t1"),
                          game=linked_game(), health=health)
    try:
        assert sender.drain_once() == 0  # contact: the link is up
        assert health.view().up
        _start_round(table, (1, 2, 5))
        assert sender.owed() == 3
        # the crash case: the server committed, the sender never moved its mark
        owed = [o for _, o in outbox.undelivered(db, LINK, "t1", 0)]
        assert server.contribute(as_table(link_dsn, "t1"), LINK, "t1", owed) == 3
        assert sender.drain_once() == 3  # sent again ...
        assert sender.owed() == 0
        meter, expected = _sum_query(conn)  # ... and counted once
        assert meter == expected == SEED * MICRO + 3 * 100 * 150_000
        assert verify(conn) == []
    finally:
        sender.stop()
        db.close()


def test_link_down_refuses_jackpot_wagers_and_the_base_game_goes_on(
        tmp_path: Path, pg_server: PgServer, link_dsn: str) -> None:
    conn = init_link(link_dsn)
    health = LinkHealth()
    table, _system, db = linked_table(tmp_path / "t1.db", "t1", health)
    dead = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1",
                        dsn=f"host={tmp_path} port=1 user=x dbname=x", game=linked_game(),
                        health=health)
    with pytest.raises(LinkError, match="cannot be reached"):
        dead.drain_once()
    dead._drop("the link server cannot be reached")
    view = health.view()
    assert not view.up and "cannot be reached" in view.reason
    with pytest.raises(Refused, match="jackpot link wa-link cannot be reached"):
        _start_round(table, (1,))
    assert db.execute("SELECT COUNT(*) FROM jackpot_wagers").fetchone()[0] == 0
    assert outbox.owed_count(db, LINK, 0) == 0
    # the dealer returns the jackpot chips: the base game starts
    table.handle(c.RemoveWager(1, "jackpot"))
    table.handle(c.StartGame())
    assert table.state.locked
    # the link returns: the next round's wagers are taken and delivered
    sender = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1",
                          dsn=table_dsn(link_dsn, "t1"),
                          game=linked_game(), health=health)
    try:
        sender.drain_once()
        assert health.view().up
        assert server.meter_states(conn, LINK)["main"].meter_micro == SEED * MICRO
    finally:
        sender.stop()
        db.close()


def test_the_sender_survives_a_server_restart(tmp_path: Path, pg_server: PgServer,
                                              link_dsn: str) -> None:
    conn = init_link(link_dsn)
    conn.close()
    health = LinkHealth()
    table, _system, db = linked_table(tmp_path / "t1.db", "t1", health)
    sender = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1",
                          dsn=table_dsn(link_dsn, "t1"),
                          game=linked_game(), health=health)
    try:
        sender.drain_once()
        _start_round(table, (3,))
        pg_server.restart()
        with pytest.raises(LinkError):
            sender.drain_once()  # the old connection is gone ...
        sender._drop("restart")
        assert not health.view().up and health.view().owed == 1
        assert sender.drain_once() == 1  # ... a new one delivers what is owed
        again = server.connect(link_dsn)
        meter, expected = _sum_query(again)
        assert meter == expected == SEED * MICRO + 100 * 150_000
        assert verify(again) == []
        again.close()
    finally:
        sender.stop()
        db.close()


def test_a_fortune_twin_joins_a_face_up_link_and_another_paytable_is_refused(
        link_dsn: str) -> None:
    from dataclasses import replace

    from dealer_console.jackpot_values.paytable import load

    init_link(link_dsn)
    twin = replace(linked_game(), paytable=load("fpgpp-wa01"))
    server.register_table(as_table(link_dsn, "fortune-1"), LINK, "fortune-1", twin)
    t9 = as_table(link_dsn, "t9")
    with pytest.raises(LinkError, match="paytable: link fupgpp-wa01, table fupgpp-wa03"):
        server.register_table(t9, LINK, "t9", replace(linked_game(),
                                                     paytable=load("fupgpp-wa03")))
    with pytest.raises(LinkError, match="wager: link 100, table 500"):
        server.register_table(t9, LINK, "t9", replace(linked_game(), wager_cents=500))


def test_the_sender_goes_on_after_the_table_pcs_disk_was_full(
        tmp_path: Path, link_dsn: str, disk: Disk) -> None:  # noqa: F811
    """The sender notes each delivery on the table PC's disk. A full disk killed its thread:
    no wager reached the link again until the console restarted. Now it says so on the link's
    health line, keeps trying, and delivers what is owed once the disk takes writes."""
    conn = init_link(link_dsn)
    health = LinkHealth()
    health.up(0)  # as the sender's first contact leaves it
    path = disk.where / "t1.db"
    table, _system, db = linked_table(path, "t1", health)
    _start_round(table, (1, 2, 5))
    assert outbox.owed_count(db, LINK, 0) == 3
    sender = OutboxSender(path, link=LINK, table_id="t1", dsn=table_dsn(link_dsn, "t1"),
                          game=linked_game(), health=health, interval_s=0.05)
    try:
        disk.fill()
        sender.start()
        deadline = time.monotonic() + 10
        while "cannot be noted" not in health.view().warning:
            assert sender.is_alive(), "the sender's thread died on the full disk"
            assert time.monotonic() < deadline, "no word of the full disk"
            time.sleep(0.05)
        time.sleep(0.5)  # a few more tries on the full disk
        assert sender.is_alive(), "the sender's thread died on the full disk"
        disk.free()
        while health.view().warning or health.view().owed:
            assert time.monotonic() < deadline + 10, f"still owed: {health.view()}"
            time.sleep(0.05)
        meter, expected = _sum_query(conn)  # sent again while the disk was full: counted once
        assert meter == expected == SEED * MICRO + 3 * 100 * 150_000
        assert verify(conn) == []
    finally:
        sender.stop()
        db.close()
