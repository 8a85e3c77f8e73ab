"""The link administrator's commands: ``link add-table`` (a login and its credentials file,
0600), ``add-confirmer``, ``thresholds``, ``adjust``, ``cards-on-server``; a table's login
refused at each, in one line."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from psycopg.conninfo import make_conninfo

from dealer_console.cli import main
from dealer_console.jackpot_values.meters import MICRO
from dealer_link import server
from dealer_link.audit import verify
from tests.link.helpers import LINK, SEED, init_link, linked_game


def test_add_table_makes_a_login_that_logs_in_as_that_table(
        tmp_path: Path, link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    init_link(link_dsn).close()
    credentials = tmp_path / "pit1-t3.pgpass"
    login = f"{link_dsn.split('dbname=')[1].split()[0]}-pit1-t3"
    assert main(["link", "add-table", "pit1-t3", "--credentials", str(credentials),
                 "--login", login, "--link", LINK, "--reason", "a new table in pit 1",
                 "--dsn", link_dsn]) == 0
    out = capsys.readouterr().out
    assert f"login {login}" in out and f"table pit1-t3: on link {LINK}" in out
    assert stat.S_IMODE(credentials.stat().st_mode) == 0o600
    table = server.connect(make_conninfo(link_dsn, user=login, passfile=str(credentials)))
    try:
        server.register_table(table, LINK, "pit1-t3", linked_game())
        with pytest.raises(server.LinkRefused, match="table pit1-t3 on the link, not t9"):
            server.register_table(table, LINK, "t9", linked_game())
    finally:
        table.close()
    # the file is never overwritten; a second login for the table is refused
    assert main(["link", "add-table", "pit1-t3", "--credentials", str(credentials),
                 "--reason", "again", "--dsn", link_dsn]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["link", "add-table", "pit1-t3", "--credentials", str(tmp_path / "other"),
                 "--login", f"{login}-2", "--reason", "again", "--dsn", link_dsn]) == 2
    assert "already has a login of its own" in capsys.readouterr().err


def test_confirmers_thresholds_and_adjustments_by_the_administrator_only(
        tmp_path: Path, link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    conn = init_link(link_dsn)
    assert main(["link", "add-confirmer", "S7", "--name", "Sue Seven", "--role", "supervisor",
                 "--reason", "hired", "--dsn", link_dsn]) == 0
    assert "S7 (Sue Seven, supervisor) may confirm" in capsys.readouterr().out
    assert main(["link", "thresholds", LINK, "--executive", "$2,000", "--two-person",
                 "$5,000", "--reason", "the commission's letter", "--dsn", link_dsn]) == 0
    assert "executive threshold $2,000.00, two-person level $5,000.00" in \
        capsys.readouterr().out
    assert main(["link", "adjust", LINK, "main", "--by=-$0.50", "--reason",
                 "a test wager refunded", "--dsn", link_dsn]) == 0
    assert main(["link", "adjust", LINK, "main", "--reset", "--reason", "new promotion",
                 "--dsn", link_dsn]) == 0
    assert server.meter_states(conn, LINK)["main"].meter_micro == SEED * MICRO
    assert verify(conn) == []
    log = conn.execute(b"SELECT what, reason FROM link_admin_log ORDER BY entry").fetchall()
    assert [w for w, _ in log] == ["install", "confirmer", "confirmer", "confirmer",
                                   "confirmer", "confirmer", "thresholds"]
    assert ("thresholds", "the commission's letter") in log
    assert main(["link", "audit", "--dsn", link_dsn]) == 0
    capsys.readouterr()
    # a table's login: refused, one line, nothing changed
    from tests.link.helpers import table_dsn

    table = table_dsn(link_dsn, "t1")
    for argv in (["link", "add-confirmer", "EVIL", "--name", "E", "--role", "executive"],
                 ["link", "thresholds", LINK, "--executive", "$0"],
                 ["link", "adjust", LINK, "main", "--by", "$10,000"]):
        assert main([*argv, "--reason", "mine", "--dsn", table]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is not a link administrator or auditor" in err
    assert server.meter_states(conn, LINK)["main"].meter_micro == SEED * MICRO
    assert server.game_of(conn, LINK).executive_threshold_cents == 2_000_00
    conn.close()


def test_cards_on_server_by_the_administrator_once_the_casinos_list_is_there(
        link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    from dealer_link.pit import server as pit
    from tests.link.helpers import table_dsn

    conn = init_link(link_dsn)
    argv = ["link", "cards-on-server", LINK, "--reason", "the commission's letter", "--dsn"]
    assert main([*argv, link_dsn]) == 2  # the pit's part, with its staff list, not there yet
    assert "the casino's staff list is not on this server" in capsys.readouterr().err
    pit.apply(conn)
    assert main([*argv, table_dsn(link_dsn, "t1")]) == 2
    assert "is not a link administrator or auditor" in capsys.readouterr().err
    assert main([*argv, link_dsn]) == 0
    assert "only on cards the server reads" in capsys.readouterr().out
    assert main([*argv[:3], "--off", *argv[3:], link_dsn]) == 0
    assert "ids the tables send" in capsys.readouterr().out
    log = conn.execute(b"SELECT detail FROM link_admin_log WHERE what = 'cards on server' "
                       b"ORDER BY entry").fetchall()
    assert log == [("cards read by the server: off -> on",),
                   ("cards read by the server: on -> off",)]
    conn.close()
