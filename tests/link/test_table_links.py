"""A table's login acts only on the links its administrator put it on (``server_links.py``,
migration ``0007_table_links``): on a server with two pits' progressives, a table of one
cannot say hello to, hold a place on, feed, or be paid from the other, whatever it calls;
the administrator puts it on a link and takes it off (``link table-link``), each change
written with who and why; an upgrade keeps every table on the links it had reached."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

from dealer_console.cli import main
from dealer_console.jackpot_values.link_records import Owed
from dealer_console.link.health import now as taken_now
from dealer_link import admin, server, server_schema
from dealer_link.audit import verify
from dealer_link.reconcile import reconcile
from dealer_link.settings import LinkRefused
from tests.link.conftest import new_database
from tests.link.helpers import FULL_HOUSE as HAND_FULL_HOUSE
from tests.link.helpers import (
    LINK,
    add_confirmers,
    init_link,
    linked_game,
    older_link,
    open_linked,
    play_to_hit,
    refused_and_unchanged,
    table_dsn,
)
from tests.link.pg_server import PgServer

OTHER = "pit-2"
"""The second pit's progressive, on the same server."""
FULL_HOUSE = 8  # a fixed 6 for 1 from the tray
NOT_ON = f"table t1 is not on link {OTHER}"


def two_links(dsn: str) -> server.Connection:
    conn = init_link(dsn)
    server.install_game(conn, OTHER, replace(linked_game(), linked=OTHER), actor="test")
    return conn


def test_a_table_acts_only_on_the_links_it_is_on(link_dsn: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    conn = two_links(link_dsn)
    t1 = server.connect(table_dsn(link_dsn, "t1", links=[LINK]), who="t1")
    server.register_table(t1, LINK, "t1", linked_game())
    assert server.contribute(t1, LINK, "t1", [Owed(1, 1, 1, 3, 100, taken_now())]) == 1
    # the other pit's link, by every way in
    game = replace(linked_game(), linked=OTHER)
    refused_and_unchanged(conn, lambda: server.register_table(t1, OTHER, "t1", game),
                          LinkRefused, NOT_ON)
    refused_and_unchanged(conn, lambda: server.claim(t1, OTHER, "t1"), LinkRefused, NOT_ON)
    refused_and_unchanged(conn, lambda: server.contribute(
        t1, OTHER, "t1", [Owed(2, 1, 1, 3, 100, taken_now())]), LinkRefused, NOT_ON)
    refused_and_unchanged(conn, lambda: server.call(
        t1, "SELECT link_contribute(%s, NULL, '{2}', '{1}', '{1}', '{3}', '{100}', '{t}')",
        [OTHER]), LinkRefused, NOT_ON)
    # a link name that is no link at all holds no place either
    refused_and_unchanged(conn, lambda: server.claim(t1, "x" * 5000, "t1"), LinkRefused,
                          "table t1 is not on link x{64}:")
    # the table cannot put itself on it
    refused_and_unchanged(conn, lambda: server.call(
        t1, "SELECT link_set_table_link('t1', %s, true, 'mine')", [OTHER]),
        LinkRefused, "permission denied for function link_set_table_link")
    # nor does the schema's owner write such a row by hand
    refused_and_unchanged(conn, lambda: conn.execute(
        "INSERT INTO link_contributions (link, table_id, round_id, deal_no, spot, seat, "
        "wager_cents, taken_at) VALUES (%s, 't1', 9, 1, 1, 1, 100, 't')", [OTHER]),
        psycopg.Error, NOT_ON)

    # the administrator puts it on the other link: it plays there too
    argv = ["link", "table-link", "t1", OTHER, "--reason", "moved to pit 2's games",
            "--dsn", link_dsn]
    assert main(argv) == 0
    assert capsys.readouterr().out == f"table t1: on link {OTHER}\n"
    assert main(argv) == 0
    assert "already (nothing changed)" in capsys.readouterr().out
    server.register_table(t1, OTHER, "t1", game)
    assert server.contribute(t1, OTHER, "t1", [Owed(2, 1, 1, 3, 100, taken_now())]) == 1
    assert main(["link", "status", "--dsn", link_dsn]) == 0
    status = capsys.readouterr().out
    assert status.count("tables on the link: t1") == 2

    # ... and takes it off: its wager there is never paid, its own link goes on
    assert main(["link", "table-link", "t1", OTHER, "--remove", "--reason", "back to pit 1",
                 "--dsn", link_dsn]) == 0
    assert capsys.readouterr().out == f"table t1: off link {OTHER}\n"
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        t1, OTHER, "t1", round_id=2, spot=1, seat=3, line_no=FULL_HOUSE, employee_id="S1"),
        LinkRefused, NOT_ON)
    # told so first, before any other check (an outside review: a supervisor's card above
    # the threshold was sent for an executive's first, and only then told the truth)
    admin.set_thresholds(conn, OTHER, executive_cents=100, two_person_cents=None,
                         reason="a lower threshold")
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        t1, OTHER, "t1", round_id=2, spot=1, seat=3, line_no=FULL_HOUSE, employee_id="S1"),
        LinkRefused, NOT_ON)
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        t1, OTHER, "t1", round_id=7, spot=1, seat=3, line_no=FULL_HOUSE, employee_id="S1"),
        LinkRefused, NOT_ON)  # a wager the link never had: not "wait and swipe again"
    refused_and_unchanged(conn, lambda: server.present_card(t1, OTHER, "t1", ";123?"),
                          LinkRefused, NOT_ON)  # no card read against the staff list
    # nor does it read the other pit's game, meters or hits, or end connections there
    for read in (lambda: server.game_of(t1, OTHER), lambda: server.meter_states(t1, OTHER),
                 lambda: server.hits(t1, OTHER), lambda: server.reads_cards(t1, OTHER),
                 lambda: server.end_stuck(t1, OTHER)):
        refused_and_unchanged(conn, read, LinkRefused, NOT_ON)
    assert server.meter_states(conn, OTHER)  # the administrator reads every link
    refused_and_unchanged(conn, lambda: server.contribute(
        t1, OTHER, "t1", [Owed(3, 1, 1, 3, 100, taken_now())]), LinkRefused, NOT_ON)
    hit = server.confirm_hit(t1, LINK, "t1", round_id=1, spot=1, seat=3, line_no=FULL_HOUSE,
                             employee_id="S1")
    assert (hit.table_id, hit.amount_cents) == ("t1", 600)
    assert main(["link", "status", "--dsn", link_dsn]) == 0
    status = capsys.readouterr().out
    assert "1 wagers ($1.00), 0 hits; taken off the link since" in status
    assert "tables on the link: none (dealer-console link table-link)" in status

    log = conn.execute(b"SELECT link, detail, actor, reason FROM link_admin_log "
                       b"WHERE what = 'table link' ORDER BY entry").fetchall()
    who = conn.execute(b"SELECT session_user").fetchone()
    assert who is not None
    assert log == [(LINK, f"table t1 may act on link {LINK}", who[0], "a test's table"),
                   (OTHER, f"table t1 may act on link {OTHER}", who[0],
                    "moved to pit 2's games"),
                   (OTHER, f"table t1 may no longer act on link {OTHER}", who[0],
                    "back to pit 1")]
    # bad input: one line each, nothing changed
    for argv, words in (
            (["link", "table-link", "t9", LINK], "table t9 has no login on this server"),
            (["link", "table-link", "t1", "pit-9"], "link pit-9 is not installed"),
            (["link", "table-link", "t1", LINK, "--reason", "  "], "must not be empty")):
        reason = [] if "--reason" in argv else ["--reason", "why"]
        assert main([*argv, *reason, "--dsn", link_dsn]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, err
    assert verify(conn) == []
    t1.close()
    conn.close()


def test_add_table_on_a_link_not_installed_makes_nothing(
        link_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    credentials = tmp_path / "t5.pgpass"
    login = f"{link_dsn.split('dbname=')[1].split()[0]}-t5"
    assert main(["link", "add-table", "t5", "--login", login, "--link", LINK, "--link",
                 "pit-9", "--credentials", str(credentials), "--reason", "new",
                 "--dsn", link_dsn]) == 2
    assert "link pit-9 is not installed" in capsys.readouterr().err
    assert not credentials.exists()
    assert conn.execute(b"SELECT count(*) FROM link_table_logins").fetchone() == (0,)
    assert conn.execute(b"SELECT count(*) FROM link_table_links").fetchone() == (0,)
    conn.close()


def _as_before_0007(dsn: str, links: tuple[str, ...]) -> server.Connection:
    """A link database as the console before this migration left it, with ``links``
    installed."""
    conn = older_link(dsn, "0007_table_links")
    for link in links:
        server.install_game(conn, link, replace(linked_game(), linked=link), actor="test")
    add_confirmers(conn)
    return conn


def test_an_upgrade_keeps_each_table_on_the_links_it_had_reached(
        pg_server: PgServer) -> None:
    dsn = new_database(pg_server)
    conn = _as_before_0007(dsn, (LINK, OTHER))
    for table_id, reached in (("t1", (LINK,)), ("t2", (LINK, OTHER)), ("t3", ())):
        t = server.connect(table_dsn(dsn, table_id, links=()), who=table_id)
        for link in reached:  # before: any link of the server
            server.register_table(t, link, table_id, replace(linked_game(), linked=link))
        t.close()
    assert server_schema.apply(conn)[0] == "0007_table_links"
    on = conn.execute(b"SELECT table_id, link FROM link_table_links ORDER BY 1, 2").fetchall()
    assert on == [("t1", LINK), ("t2", OTHER), ("t2", LINK)]  # t3: two links, none chosen
    reasons = {r[0] for r in conn.execute(
        b"SELECT reason FROM link_admin_log WHERE what = 'table link'").fetchall()}
    assert reasons == {"migration 0007_table_links: a link the table had reached before"}
    t1 = server.connect(table_dsn(dsn, "t1"), who="t1")
    with pytest.raises(LinkRefused, match="table t1 is not on link pit-2"):
        server.register_table(t1, OTHER, "t1", replace(linked_game(), linked=OTHER))
    t1.close()
    conn.close()

    # a server with one link: a login that had reached none gets that one
    dsn = new_database(pg_server)
    conn = _as_before_0007(dsn, (LINK,))
    table_dsn(dsn, "t4", links=())
    assert server_schema.apply(conn)[0] == "0007_table_links"
    assert conn.execute(b"SELECT table_id, link FROM link_table_links").fetchall() == [
        ("t4", LINK)]
    assert conn.execute(b"SELECT reason FROM link_admin_log WHERE what = 'table link'"
                        ).fetchall() == [("migration 0007_table_links: the only link on the "
                                          "server, and the table had reached none",)]
    t4 = server.connect(table_dsn(dsn, "t4"), who="t4")
    server.register_table(t4, LINK, "t4", linked_game())
    assert server.contribute(t4, LINK, "t4", [Owed(1, 1, 1, 1, 100, taken_now())]) == 1
    assert verify(conn) == []
    t4.close()
    conn.close()


def test_reconcile_looks_at_every_link_the_table_is_on(tmp_path: Path, link_dsn: str) -> None:
    """A review: a table on two links that played only one was "the same as the server"
    while its login had put made-up wagers and a tray hit on the other under its name."""
    two_links(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)  # on both links, plays LINK only
    try:
        play_to_hit(t, HAND_FULL_HOUSE)
        with server.connect(link_dsn) as conn:
            assert reconcile(conn, tmp_path / "t1.db") == []
        login = server.connect(table_dsn(link_dsn, "t1"), who="t1")
        server.contribute(login, OTHER, "t1", [Owed(r, 1, 1, 1, 100, taken_now()) for r in (1, 2)])
        hit = server.confirm_hit(login, OTHER, "t1", round_id=1, spot=1, seat=1,
                                 line_no=FULL_HOUSE, employee_id="X1")
        login.close()
        with server.connect(link_dsn) as conn:
            assert reconcile(conn, tmp_path / "t1.db") == [
                *(f"link {OTHER} table t1 round {r} (deal 1) seat 1: the server holds a "
                  "$1.00 wager the table never took" for r in (1, 2)),
                f"link {OTHER} table t1 hit {hit.hit_id} (round 1 seat 1): on the server, not "
                "recorded at the table (an ask still open?)"]
    finally:
        t.close()
