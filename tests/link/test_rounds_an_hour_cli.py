"""``link rounds-an-hour``: the play bound of migration ``0013_bounded_play`` shown and set by
its administrator with a reason (``server_rounds_an_hour.py``), nonsense refused with the link
unchanged, and neither a table's login nor an auditor may set it."""

from __future__ import annotations

import psycopg
import pytest

from dealer_console import clock
from dealer_console.cli import main
from dealer_console.jackpot_values.link_records import Owed
from dealer_link import server
from dealer_link.settings import LinkRefused
from tests.link.helpers import LINK, as_table, auditor_dsn, init_link, link_state, table_dsn
from tests.link.pg_server import PgServer


def _rounds(first: int, count: int) -> list[Owed]:
    """``count`` rounds of seven seats on both spots, taken now."""
    at = clock.now().isoformat()
    return [Owed(r, 1, spot, seat, 100, at) for r in range(first, first + count)
            for spot in (1, 2) for seat in range(1, 8)]


def _bound(conn: server.Connection) -> int:
    row = conn.execute("SELECT rounds_an_hour FROM link_games WHERE link = %s",
                       [LINK]).fetchone()
    assert row is not None
    return int(row[0])


def test_the_administrator_shows_and_sets_the_bound_with_a_reason(
        link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    assert main(["link", "rounds-an-hour", LINK, "--dsn", link_dsn]) == 0
    assert capsys.readouterr().out == (
        f"link {LINK}: a table plays at most 120 rounds an hour (one table's login may add "
        "at most 1,680 jackpot wagers an hour)\n")
    assert main(["link", "rounds-an-hour", LINK, "240", "--reason", "a faster game",
                 "--dsn", link_dsn]) == 0
    assert capsys.readouterr().out == (
        f"link {LINK}: a table plays at most 240 rounds an hour (was 120)\n")
    assert _bound(conn) == 240
    log = conn.execute(b"SELECT what, detail, reason, actor = current_user FROM link_admin_log "
                       b"WHERE what = 'rounds an hour'").fetchall()
    assert log == [("rounds an hour", "the most rounds a table plays in an hour: 120 -> 240",
                    "a faster game", True)]
    # the same again: nothing changed, nothing written
    assert main(["link", "rounds-an-hour", LINK, "240", "--reason", "again",
                 "--dsn", link_dsn]) == 0
    assert "240 rounds an hour already (nothing changed)" in capsys.readouterr().out
    assert conn.execute(b"SELECT count(*) FROM link_admin_log WHERE what = 'rounds an hour'"
                        ).fetchone() == (1,)
    # and the server holds the tables to it
    t1 = as_table(link_dsn, "t1")
    assert server.contribute(t1, LINK, "t1", _rounds(1, 240)) == 240 * 14
    with pytest.raises(LinkRefused, match="241 rounds taken in the hour"):
        server.contribute(t1, LINK, "t1", _rounds(241, 1))
    t1.close()
    conn.close()


@pytest.mark.parametrize("argv, said", [
    (["0"], "'0' is not a number of rounds from 1 to 600 (0 would refuse every wager"),
    (["-5"], "'-5' is not a number of rounds from 1 to 600"),
    (["601"], "'601' is not a number of rounds from 1 to 600"),
    (["100000"], "above 600, a round every 6 s, no table deals"),
    (["1e3"], "'1e3' is not a number of rounds"),
    (["12O"], "'12O' is not a number of rounds"),
    (["200"], "a change needs --reason"),
    (["--reason", "faster"], "--reason is for a change, and none is named"),
])
def test_nonsense_is_refused_in_words_and_nothing_changes(
        link_dsn: str, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
        ) -> None:
    conn = init_link(link_dsn)
    before = link_state(conn)
    reason = [] if "--reason" in argv or argv == ["200"] else ["--reason", "why not"]
    assert main(["link", "rounds-an-hour", LINK, *argv, *reason, "--dsn", link_dsn]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err
    assert link_state(conn) == before and _bound(conn) == 120
    conn.close()


def test_a_link_not_installed_and_a_bound_below_the_play_are_refused(
        link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    t1 = as_table(link_dsn, "t1")
    server.contribute(t1, LINK, "t1", _rounds(1, 40))  # its busiest hour
    t1.close()
    before = link_state(conn)
    assert main(["link", "rounds-an-hour", "pit-9", "--dsn", link_dsn]) == 2
    assert "link pit-9 is not installed" in capsys.readouterr().err
    assert main(["link", "rounds-an-hour", "pit-9", "200", "--reason", "x",
                 "--dsn", link_dsn]) == 2
    assert "link pit-9 is not installed" in capsys.readouterr().err
    assert main(["link", "rounds-an-hour", LINK, "39", "--reason", "a slower game",
                 "--dsn", link_dsn]) == 2
    err = capsys.readouterr().err
    assert "table t1 played 40 rounds in the hour from" in err
    assert "with a bound of 39 \"link audit\" would name that play as made up; set 40" in err
    assert link_state(conn) == before and _bound(conn) == 120
    assert main(["link", "rounds-an-hour", LINK, "40", "--reason", "a slower game",
                 "--dsn", link_dsn]) == 0
    assert _bound(conn) == 40
    assert main(["link", "audit", "--dsn", link_dsn]) == 0
    conn.close()


def test_neither_a_table_s_login_nor_an_auditor_may_set_it(
        link_dsn: str, pg_server: PgServer, capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    table = table_dsn(link_dsn, "t1")
    auditor = auditor_dsn(conn, pg_server, link_dsn)
    before = link_state(conn)
    for argv in (["link", "rounds-an-hour", LINK, "600", "--reason", "mine now"],
                 ["link", "rounds-an-hour", LINK]):
        assert main([*argv, "--dsn", table]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is not a link administrator or auditor" in err
    with as_table(link_dsn, "t1") as t1:
        for attack in ("SELECT link_set_rounds_an_hour('wa-link', 600, 'mine now')",
                       "UPDATE link_games SET rounds_an_hour = 600"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                t1.execute(attack.encode())
    # the auditor reads the bound, and may not change it
    assert main(["link", "rounds-an-hour", LINK, "--dsn", auditor]) == 0
    assert "at most 120 rounds an hour" in capsys.readouterr().out
    assert main(["link", "rounds-an-hour", LINK, "600", "--reason", "mine now",
                 "--dsn", auditor]) == 2
    assert "permission denied for function link_set_rounds_an_hour" in capsys.readouterr().err
    assert link_state(conn) == before and _bound(conn) == 120
    conn.close()
