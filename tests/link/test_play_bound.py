"""One table's login adds to the shared meters at most what a table can play (migration
``0013_bounded_play``): an outside review's 200,000 made-up rounds in one call raised the
meter by $30,000, and the next honest hit paid it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from dealer_console import clock
from dealer_console.jackpot_values.link_records import Owed
from dealer_console.link import outbox
from dealer_console.link.health import LinkHealth, now
from dealer_link import server, server_play_bound, server_schema
from dealer_link.audit import verify
from dealer_link.sender import OutboxSender
from dealer_link.settings import LinkRefused
from tests.link.helpers import (
    LINK,
    add_confirmers,
    as_table,
    init_link,
    linked_game,
    linked_table,
    older_link,
    refused_and_unchanged,
    table_dsn,
)

SEATS = range(1, 8)


def _at(hours_ago: float) -> str:
    return (clock.now() - timedelta(hours=hours_ago)).isoformat()


def _rounds(first: int, count: int, taken_at: str) -> list[Owed]:
    """``count`` rounds of seven seats on both spots (the most a round holds)."""
    return [Owed(r, 1, spot, seat, 100, taken_at) for r in range(first, first + count)
            for spot in (1, 2) for seat in SEATS]


def _on_the_link_since(conn: server.Connection, table_id: str, hours: float) -> None:
    """``table_id`` was put on the link ``hours`` ago (an older table)."""
    conn.execute("UPDATE link_table_links SET added_at = now() - make_interval(secs => %s) "
                 "WHERE table_id = %s", [hours * 3600, table_id])
    conn.execute("UPDATE link_tables SET first_contact = now() - make_interval(secs => %s) "
                 "WHERE table_id = %s", [hours * 3600, table_id])
    conn.commit()


def test_made_up_rounds_are_refused_and_the_meter_unchanged(link_dsn: str) -> None:
    conn = init_link(link_dsn)
    t3 = as_table(link_dsn, "t3")
    now = _at(0)
    server.contribute(t3, LINK, "t3", _rounds(1, 1, now))  # it plays a round
    _on_the_link_since(conn, "t3", 24)

    def review(n: int, taken: str) -> Callable[[], object]:
        def call() -> object:  # the review's one call
            return t3.execute(
                "SELECT link_contribute(%s, NULL, array_agg(r), array_agg(1), array_agg(1), "
                "array_agg(1), array_agg(100::bigint), array_agg(%s::text)) FROM "
                "generate_series(10000000::bigint, 10000000 + %s - 1) r", [LINK, taken, n])
        return call

    def refused(attack: Callable[[], object], match: str) -> None:
        refused_and_unchanged(conn, attack, (psycopg.Error, LinkRefused), match)
        t3.rollback()

    refused(review(200_000, now), "200000 wagers in one call")
    refused(review(5_000, "2026-01-01"), "is not a time a console records")
    refused(review(5_000, now), r"5001 rounds taken in the hour .* more than the 120 an hour")
    refused(review(10, _at(-2)), "ahead of the link server's")
    refused(review(10, _at(30)), "before the table was put on link")
    # the hours it did not play, filled back: each hour within the bound, but behind its play
    refused(lambda: server.contribute(t3, LINK, "t3", [
        o for h in range(2, 5) for o in _rounds(1000 * h, 100, _at(h))]),
        "before the latest the link took from it")
    # flat out: 120 rounds in an hour of its clock are taken, a 121st is not
    assert server.contribute(t3, LINK, "t3", _rounds(2, 119, now)) == 119 * 14
    refused(lambda: server.contribute(t3, LINK, "t3", _rounds(500, 1, now)),
            "121 rounds taken in the hour")
    assert verify(conn) == []
    t3.close()
    conn.close()


def test_an_honest_table_s_play_and_long_backlog_are_taken(tmp_path: Path,
                                                            link_dsn: str) -> None:
    """A table closed owing six hours of play (or sending them again to a server restored
    from an older copy) delivers them through its sender, from its own SQLite file, oldest
    first in batches; its play now goes on; every wager is on the meter once."""
    conn = init_link(link_dsn)
    dsn = table_dsn(link_dsn, "t1")
    _on_the_link_since(conn, "t1", 10)
    before = server.meter_states(conn, LINK)["main"].meter_micro
    health = LinkHealth()
    _table, _system, db = linked_table(tmp_path / "t1.db", "t1", health)
    round_id = 0
    for minute in range(8 * 60, 2 * 60, -1):  # a round a minute and a half, 8 h to 2 h ago
        if minute % 3 == 0:
            continue
        round_id += 1
        outbox.record_owed(db, LINK, "t1", round_id, 1, list(SEATS), 100, _at(minute / 60))
    sender = OutboxSender(tmp_path / "t1.db", link=LINK, table_id="t1", dsn=dsn,
                          game=linked_game(), health=health)
    try:
        while sender.drain_once():
            pass
        assert sender.owed() == 0 and health.view().up
        for _ in range(30):  # and it plays on, flat out
            round_id += 1
            outbox.record_owed(db, LINK, "t1", round_id, 1, list(SEATS), 100, _at(0))
            assert sender.drain_once() == 7
        held = conn.execute(b"SELECT count(*) FROM link_contributions").fetchone()
        assert held == (round_id * 7,)
        meter = server.meter_states(conn, LINK)["main"].meter_micro
        assert meter - before == round_id * 7 * 100 * linked_game().levels[0].contribution_ppm
        _db, progress = sender._local()
        progress.rewind(LINK, now())  # as after a restore: everything sent again, none new
        assert sender.drain_once() == 500 and sender.owed() == round_id * 7 - 500
        assert verify(conn) == []
    finally:
        sender._close()
        db.close()
        conn.close()


def test_the_audit_names_a_history_no_table_plays(link_dsn: str) -> None:
    """Wagers accepted before the bound: 200 rounds in one minute, and a time that is none."""
    conn = older_link(link_dsn, server_play_bound.NAME)
    server.install_game(conn, LINK, linked_game(), actor="test")
    add_confirmers(conn)
    t3, t4 = as_table(link_dsn, "t3"), as_table(link_dsn, "t4")
    hour = (clock.now() - timedelta(days=1)).replace(minute=0, second=0, microsecond=0)
    server.contribute(t3, LINK, "t3", [Owed(r, 1, 1, 1, 100, (hour + timedelta(
        seconds=r)).isoformat()) for r in range(1, 201)])
    server.contribute(t3, LINK, "t3", [Owed(900, 1, 1, 1, 100, "x")])
    server.contribute(t4, LINK, "t4", _rounds(1, 100, _at(0)))  # flat out, not over
    assert server_schema.apply(conn)[0] == server_play_bound.NAME  # and those after it
    problems = verify(conn)
    assert len(problems) == 1, problems
    assert "table t3's accepted wagers are more than a table plays" in problems[0]
    assert f"200 in the hour from {hour:%Y-%m-%d %H}:00 UTC" in problems[0]
    assert "1 wager(s) with no time" in problems[0]
    t3.close()
    t4.close()
    conn.close()


def test_a_link_s_bound_is_its_own(link_dsn: str) -> None:
    """An administrator's bound for a faster game: the link's ``rounds_an_hour``."""
    rounds = 120
    conn = init_link(link_dsn)
    conn.execute("UPDATE link_games SET rounds_an_hour = %s", [rounds * 2])
    conn.commit()
    t1 = as_table(link_dsn, "t1")
    assert server.contribute(t1, LINK, "t1", _rounds(1, rounds * 2, _at(0))) == rounds * 28
    with pytest.raises(LinkRefused, match=f"{rounds * 2 + 1} rounds taken in the hour"):
        server.contribute(t1, LINK, "t1", _rounds(rounds * 2 + 1, 1, _at(0)))
    t1.close()
    conn.close()
