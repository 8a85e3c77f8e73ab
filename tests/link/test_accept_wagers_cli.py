"""``link accept-wagers``: a table's honest wagers that the play bound refuses for good (a PC's
clock slow when it joined, a table's hour filled by a stolen login) are accepted by the
administrator from the table's own database, once, recorded (``server_accepted_wagers.py``,
migration ``0016_accepted_wagers``); the table's sender then delivers them and its link comes
back. The bound still holds for every other wager, bad input changes nothing, and a table's
login can do none of it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from dealer_console import clock
from dealer_console.cli import main
from dealer_console.jackpot_values.link_records import Owed
from dealer_console.link import outbox
from dealer_console.link.health import LinkHealth
from dealer_console.table_db import open_table_db
from dealer_link import server
from dealer_link.sender import OutboxSender
from dealer_link.settings import LinkRefused
from tests.link.helpers import (
    LINK,
    as_table,
    auditor_dsn,
    init_link,
    link_state,
    linked_game,
    linked_table,
    table_dsn,
)
from tests.link.pg_server import PgServer

RATE = linked_game().levels[0].contribution_ppm


def _at(hours_ago: float) -> str:
    return (clock.now() - timedelta(hours=hours_ago)).isoformat()


def _table_file(path: Path, table_id: str, rounds: list[tuple[int, str]], *,
                seats: tuple[int, ...] = (1, 2, 3), cents: int = 100) -> Path:
    """A table's database whose outbox owes ``rounds`` (round, time its clock took it)."""
    _table, _system, db = linked_table(path, table_id, LinkHealth())
    for round_id, taken in rounds:
        outbox.record_owed(db, LINK, table_id, round_id, 1, list(seats), cents, taken)
    db.close()
    return path


def _state(conn: server.Connection) -> dict[str, list[str]]:
    out = link_state(conn)
    out["link_accepted_wagers"] = [str(r[0]) for r in conn.execute(
        b"SELECT x::text FROM link_accepted_wagers x ORDER BY 1").fetchall()]
    return out


def _meter(conn: server.Connection) -> int:
    return server.meter_states(conn, LINK)["main"].meter_micro


def test_a_slow_clock_s_backlog_is_accepted_once_and_its_link_comes_back(
        tmp_path: Path, link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The table PC's clock was 45 minutes slow when the table joined: every wager refused
    for good, the link down for ever. Accepted from its database, delivered by its sender."""
    conn = init_link(link_dsn)
    dsn = table_dsn(link_dsn, "t1")
    slow = [_at(0.75 - r / 3600) for r in range(4)]  # a round a second, 45 minutes slow
    path = _table_file(tmp_path / "t1.db", "t1", [(r + 1, slow[r]) for r in range(3)])
    sender = OutboxSender(path, link=LINK, table_id="t1", dsn=dsn, game=linked_game(),
                          health=LinkHealth())
    try:
        for _ in range(2):  # refused, and refused again: for good
            with pytest.raises(LinkRefused, match="before the table was put on link"):
                sender.drain_once()
            sender._drop("refused")
        assert sender.owed() == 9
        before = _meter(conn)
        argv = ["link", "accept-wagers", LINK, "t1", str(path), "--reason",
                "t1's PC clock was 45 minutes slow; set right", "--dsn", link_dsn]
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert out == (f"link {LINK} table t1: 9 wagers ($9.00) of rounds 1 to 3, taken "
                       f"{slow[0]} to {slow[2]} by the table's clock, accepted past the play "
                       "bound; the table's sender delivers them at its next try\n")
        assert main(argv) == 0  # again before the sender's try: nothing new
        assert "(9 of them before)" in capsys.readouterr().out
        assert _meter(conn) == before  # accepted is not delivered: the table delivers them
        assert sender.drain_once() == 9 and sender.owed() == 0
        assert _meter(conn) - before == 9 * 100 * RATE
        assert main(argv) == 0
        assert "the server holds every wager in" in capsys.readouterr().out
        assert main(["link", "audit", "--dsn", link_dsn]) == 0
        assert main(["link", "reconcile", str(path), "--dsn", link_dsn]) == 0
        log = conn.execute(b"SELECT detail, reason, actor = current_user FROM link_admin_log "
                           b"WHERE what = 'accepted wagers'").fetchall()
        assert len(log) == 1 and log[0][1:] == (
            "t1's PC clock was 45 minutes slow; set right", True)
        assert log[0][0].startswith("table t1: 9 wagers (900 cents) of rounds 1 to 3, taken ")
        # the bound holds for everything else: a wager of the slow clock not accepted
        db = open_table_db(path)
        outbox.record_owed(db, LINK, "t1", 4, 1, [1], 100, slow[3])
        db.close()
        with pytest.raises(LinkRefused, match="before the table was put on link"):
            sender.drain_once()
    finally:
        sender._close()
        conn.close()


def test_an_hour_a_stolen_login_filled_the_honest_wagers_accepted_the_bound_kept(
        tmp_path: Path, link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    dsn = table_dsn(link_dsn, "t1")
    at = _at(0)
    stolen = as_table(link_dsn, "t1")  # t1's password file, taken
    made_up = [Owed(r, 1, spot, seat, 100, at) for r in range(10_000, 10_120)
               for spot in (1, 2) for seat in range(1, 8)]
    assert server.contribute(stolen, LINK, "t1", made_up) == 120 * 14
    path = _table_file(tmp_path / "t1.db", "t1", [(1, at), (2, at), (3, at)])
    sender = OutboxSender(path, link=LINK, table_id="t1", dsn=dsn, game=linked_game(),
                          health=LinkHealth())
    try:
        with pytest.raises(LinkRefused, match="123 rounds taken in the hour"):
            sender.drain_once()
        sender._drop("refused")
        assert main(["link", "accept-wagers", LINK, "t1", str(path), "--reason",
                     "t1's hour filled by its stolen login", "--dsn", link_dsn]) == 0
        capsys.readouterr()
        assert sender.drain_once() == 9 and sender.owed() == 0
        # the stolen login: nothing more in that hour, accepted or not
        state = _state(conn)
        for attack, rounds in (
                ([Owed(10_500, 1, 1, 1, 100, at)], 124),  # a round more
                ([Owed(1, 0, 1, 4, 100, at)], 123),  # a seat more in an accepted round
                ([Owed(r, 0, 1, 1, 100, at) for r in (1, 2, 3)]  # the accepted, and one more
                 + [Owed(10_501, 1, 1, 1, 100, at)], 124)):
            with pytest.raises(LinkRefused, match=f"{rounds} rounds taken in the hour"):
                server.contribute(stolen, LINK, "t1", attack)
        assert _state(conn) == state
        # a batch sent again after a lost answer: taken, adds nothing (its contact noted)
        assert server.contribute(stolen, LINK, "t1", [
            Owed(r, 0, 1, s, 100, at) for r in (1, 2, 3) for s in (1, 2, 3)]) == 0
        state.pop("link_tables")
        assert {k: v for k, v in _state(conn).items() if k != "link_tables"} == state
        # the audit counts the table's play without the administrator's acceptance; the
        # table's own database names what its login made up
        assert main(["link", "audit", "--dsn", link_dsn]) == 0
        assert main(["link", "rounds-an-hour", LINK, "119", "--reason", "x", "--dsn",
                     link_dsn]) == 2  # its play as the audit counts it
        assert "table t1 played 120 rounds in the hour" in capsys.readouterr().err
        assert main(["link", "reconcile", str(path), "--dsn", link_dsn]) == 1
        out = capsys.readouterr().out
        assert "round 10000 (deal 1) seat 1: the server holds a $1.00 wager the table never " \
            "took" in out and out.endswith("1680 differences\n")
    finally:
        sender._close()
        stolen.close()
        conn.close()


@pytest.mark.parametrize("table_id, rounds, extra, said", [
    ("t1", [(1, "yesterday")], {}, "round 1: its wager's time (yesterday) is not a time a "
     "console records (no console wrote it): not accepted"),
    ("t1", [(1, "2026-01-01T10:00:00")], {}, "is not a time a console records"),
    ("t1", [(1, _at(-2))], {}, "ahead of the link server's"),
    ("t1", [(r, _at(2)) for r in range(1, 122)], {"seats": (1,)},
     "121 rounds in the hour from"),
    ("t1", [(1, _at(1))], {"cents": 200}, "a wager of 200 cents, not the 100 cents"),
    ("t2", [(1, _at(1))], {}, "table t2 is not on link wa-link"),
    ("t9", [(1, _at(1))], {}, "holds no jackpot wager of table t1 on link wa-link"),
])
def test_bad_input_is_refused_in_words_and_nothing_changes(
        tmp_path: Path, link_dsn: str, capsys: pytest.CaptureFixture[str], table_id: str,
        rounds: list[tuple[int, str]], extra: dict[str, object], said: str) -> None:
    conn = init_link(link_dsn)
    table_dsn(link_dsn, "t1")
    table_dsn(link_dsn, "t2", links=[])  # a login on no link
    path = _table_file(tmp_path / "t.db", table_id, rounds, **extra)
    before = _state(conn)
    name = "t1" if table_id == "t9" else table_id
    assert main(["link", "accept-wagers", LINK, name, str(path), "--reason", "looked",
                 "--dsn", link_dsn]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err
    assert _state(conn) == before
    conn.close()


def test_no_file_and_no_reason_are_refused(tmp_path: Path, link_dsn: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    before = _state(conn)
    assert main(["link", "accept-wagers", LINK, "t1", str(tmp_path / "none.db"), "--reason",
                 "x", "--dsn", link_dsn]) == 2
    assert "none.db: no such table database" in capsys.readouterr().err
    path = _table_file(tmp_path / "t1.db", "t1", [(1, _at(1))])
    assert main(["link", "accept-wagers", LINK, "t1", str(path), "--dsn", link_dsn]) == 2
    assert "the following arguments are required: --reason" in capsys.readouterr().err
    assert _state(conn) == before
    conn.close()


def test_a_table_s_login_cannot_accept_its_own_wagers(
        tmp_path: Path, link_dsn: str, pg_server: PgServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    table = table_dsn(link_dsn, "t1")
    path = _table_file(tmp_path / "t1.db", "t1", [(1, _at(20))])
    before = _state(conn)
    assert main(["link", "accept-wagers", LINK, "t1", str(path), "--reason", "mine",
                 "--dsn", table]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a link administrator or auditor" in err
    with as_table(link_dsn, "t1") as t1:
        for attack in (f"SELECT link_accept_wagers('{LINK}', 't1', ARRAY[1]::bigint[], "
                       "ARRAY[0], ARRAY[1], ARRAY[1], ARRAY[100]::bigint[], "
                       f"ARRAY['{_at(20)}'], 'mine')",
                       "INSERT INTO link_accepted_wagers (link, table_id, round_id, deal_no, "
                       f"spot, seat, wager_cents, taken_at, reason) VALUES ('{LINK}', 't1', "
                       f"1, 0, 1, 1, 100, '{_at(20)}', 'mine')"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                t1.execute(attack.encode())
    auditor = auditor_dsn(conn, pg_server, link_dsn)
    assert main(["link", "accept-wagers", LINK, "t1", str(path), "--reason", "mine",
                 "--dsn", auditor]) == 2
    assert "permission denied for function link_accept_wagers" in capsys.readouterr().err
    assert _state(conn) == before
    # what the administrator accepted is never changed or taken back, even by the owner
    assert main(["link", "accept-wagers", LINK, "t1", str(path), "--reason", "looked",
                 "--dsn", link_dsn]) == 0
    for statement in (b"UPDATE link_accepted_wagers SET taken_at = 'x'",
                      b"DELETE FROM link_accepted_wagers", b"TRUNCATE link_accepted_wagers"):
        with pytest.raises(psycopg.errors.RaiseException):
            conn.execute(statement)
        conn.rollback()
    conn.close()
