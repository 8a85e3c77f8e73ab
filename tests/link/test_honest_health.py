"""The link's health tells the truth: a hung server turns it down within the sender's bound
(with what is owed), a second console with the same table's name is refused while the first
is connected, and a closing table delivers what it owes first (or says what it still owes)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from dealer_console.link.health import LinkHealth
from dealer_console.link.progress import Progress
from dealer_console.round import commands as c
from dealer_link import server
from dealer_link.sender import OutboxSender
from dealer_link.settings import LinkError
from tests.link.helpers import LINK, init_link, linked_game, linked_table, table_dsn


def _round(table: object) -> None:
    for seat in (1, 2, 3):
        table.handle(c.PlaceWager(seat, "base", 2000))  # type: ignore[attr-defined]
        table.handle(c.PlaceWager(seat, "jackpot", 100))  # type: ignore[attr-defined]
    table.handle(c.StartGame())  # type: ignore[attr-defined]


def _held(conn: server.Connection) -> int:
    row = conn.execute(b"SELECT COUNT(*) FROM link_contributions").fetchone()
    return int(row[0]) if row else -1


def test_a_hung_server_turns_the_link_down_with_what_is_owed(tmp_path: Path,
                                                              link_dsn: str) -> None:
    conn = init_link(link_dsn)
    health = LinkHealth()
    table, _system, db = linked_table(tmp_path / "t1.db", "t1", health)
    sender = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1",
                          dsn=table_dsn(link_dsn, "t1"), game=linked_game(), health=health,
                          timeout_s=1.0)
    try:
        sender.drain_once()
        assert health.view().up
        _round(table)
        with conn.transaction():  # something holds the meters: the server does not answer
            conn.execute("SELECT 1 FROM link_levels FOR UPDATE")
            with pytest.raises(LinkError, match="did not answer within 1 s"):
                sender.drain_once()
            sender._drop("the link server did not answer within 1 s")
            view = health.view()
            assert not view.up and view.owed == 3
        assert sender.drain_once() == 3  # the lock gone: delivered, the link up, none owed
        assert health.view().up and health.view().owed == 0
        assert _held(conn) == 3
    finally:
        sender._close()
        db.close()
        conn.close()


def test_a_second_console_with_the_same_table_name_is_refused(tmp_path: Path,
                                                               link_dsn: str) -> None:
    conn = init_link(link_dsn)
    dsn = table_dsn(link_dsn, "t1")
    first = OutboxSender(tmp_path / "a.db", link=LINK, table_id="t1", dsn=dsn,
                         game=linked_game())
    _t, _s, db_b = linked_table(tmp_path / "b.db", "t1", LinkHealth())
    second = OutboxSender(tmp_path / "b.db", link=LINK, table_id="t1", dsn=dsn,
                          game=linked_game())
    _t, _s, db_a = linked_table(tmp_path / "a.db", "t1", first.health)
    try:
        first.drain_once()
        with pytest.raises(LinkError, match="another console is connected to link wa-link "
                                            "as table t1"):
            second.drain_once()
        first.drain_once()  # the first goes on
        first._close()
        assert second.drain_once() == 0  # once the first has stopped, the second joins
    finally:
        first._close()
        second._close()
        db_a.close()
        db_b.close()
        conn.close()


def test_a_closing_table_delivers_what_it_owes_or_says_so(
        tmp_path: Path, link_dsn: str, caplog: pytest.LogCaptureFixture) -> None:
    conn = init_link(link_dsn)
    health = LinkHealth()
    table, _system, db = linked_table(tmp_path / "t1.db", "t1", health)
    sender = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1",
                          dsn=table_dsn(link_dsn, "t1"), game=linked_game(), health=health,
                          interval_s=60)  # it would not pass again on its own before stop
    sender.drain_once()
    sender._close()
    sender.start()
    _round(table)  # three wagers owed as the table closes
    sender.stop()
    assert sender.still_owed == 0 and _held(conn) == 3
    # the link down as the table closes: what is owed is said, and kept in the outbox
    dead = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1",
                        dsn=f"host={tmp_path} port=1 user=x dbname=x", game=linked_game())
    dead.health.up(0)
    caplog.set_level(logging.WARNING)
    mark = Progress(tmp_path / "t1.db")
    mark.rewind(LINK, "test")  # as if none had been delivered
    mark.close()
    dead.start()
    dead.stop()
    assert dead.still_owed == 3
    assert "closes owing 3 jackpot wagers" in caplog.text
    db.close()
    conn.close()


def test_a_table_closing_just_after_a_cut_delivers_to_the_server_back(
        tmp_path: Path, link_dsn: str) -> None:
    """The soak's tables, one run in seven: the link cut or the server restarted a moment
    before the table closed, the sender waiting out its pause, so the closing table tried
    nothing and closed owing wagers the server, already back, would have taken."""
    conn = init_link(link_dsn)
    health = LinkHealth()
    table, _system, db = linked_table(tmp_path / "t1.db", "t1", health)
    good = table_dsn(link_dsn, "t1")
    sender = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1", dsn=good,
                          game=linked_game(), health=health, interval_s=60)
    sender.drain_once()
    sender._close()
    _round(table)  # three wagers owed
    sender.dsn = f"host={tmp_path} port=1 user=x dbname=x"  # the cut
    sender.start()
    deadline = time.monotonic() + 10
    while health.view().up:
        assert time.monotonic() < deadline, "the sender never saw the cut"
        time.sleep(0.01)
    sender.dsn = good  # the server is back; the sender waits out its pause
    sender.stop()
    assert sender.still_owed == 0 and _held(conn) == 3
    db.close()
    conn.close()
