"""Hits ordered by the server across tables, the same amounts in both logs; the command line;
the auditor's read-only role."""

from __future__ import annotations

import threading
from pathlib import Path

import psycopg
import pytest

from dealer_console.cli import main
from dealer_console.jackpot_values.link_records import LinkedHit, Owed
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.link.health import now as taken_now
from dealer_link import server
from dealer_link.audit import verify
from tests.link.helpers import LINK, SEED, as_table, init_link, table_dsn
from tests.link.pg_server import PgServer

ROYAL_100 = 1  # WA01's first line: the 7-card straight flush pays 100% of the meter


def test_two_tables_confirming_at_once_are_paid_in_the_servers_order(
        tmp_path: Path, link_dsn: str) -> None:
    conn = init_link(link_dsn)
    game_line = server.game_of(conn, LINK).paytable.line(ROYAL_100)
    assert "100%" in str(game_line.pay)
    for table in ("a", "b"):
        server.contribute(as_table(link_dsn, table), LINK, table,
                          [Owed(1, 1, 1, 4, 100, taken_now())])
    before = server.meter_states(conn, LINK)["main"]
    start = threading.Barrier(2)
    got: dict[str, LinkedHit] = {}

    def confirm(table: str) -> None:
        mine = server.connect(table_dsn(link_dsn, table))
        start.wait()
        got[table] = server.confirm_hit(mine, LINK, table, round_id=1, spot=1, seat=4,
                                        line_no=ROYAL_100, employee_id="S1")
        mine.close()

    threads = [threading.Thread(target=confirm, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    first, second = sorted(got.values(), key=lambda h: h.hit_id)
    # the first takes the whole meter (to the cent) and reseeds it with seed + reserve
    assert first.amount_cents == before.meter_micro // MICRO
    assert first.meter_before_micro == before.meter_micro
    reseed = before.meter_micro % MICRO + SEED * MICRO + before.reserve_micro
    assert first.meter_after_micro == reseed
    # the second is paid from what the meter then holds
    assert second.meter_before_micro == first.meter_after_micro
    assert second.amount_cents == reseed // MICRO
    # a table asking again (lost reply) learns the same hit, never a second award
    again = server.confirm_hit(as_table(link_dsn, first.table_id), LINK, first.table_id,
                               round_id=1, spot=1, seat=4,
                               line_no=ROYAL_100, employee_id="S1")
    assert again == first
    assert len(server.hits(conn, LINK)) == 2
    assert verify(conn) == []
    from dealer_link.audit import PROOF_QUERY

    (level, meter, proved), = conn.execute(PROOF_QUERY.encode()).fetchall()
    assert level == "main" and meter == proved == second.meter_after_micro


def test_a_hit_needs_the_wager_on_the_link_first(link_dsn: str) -> None:
    init_link(link_dsn)
    from dealer_link.settings import LinkError

    with pytest.raises(LinkError, match="has not received"):
        server.confirm_hit(as_table(link_dsn, "a"), LINK, "a", round_id=9, spot=1, seat=1,
                           line_no=ROYAL_100, employee_id="S1")


def test_audit_finds_a_meter_changed_behind_the_ledgers_back(link_dsn: str) -> None:
    conn = init_link(link_dsn)
    server.contribute(as_table(link_dsn, "a"), LINK, "a", [Owed(1, 1, 1, 1, 100, taken_now())])
    assert verify(conn) == []
    conn.execute("UPDATE link_levels SET meter_micro = meter_micro + 1")
    problems = verify(conn)
    assert len(problems) == 1 and "ledger replays to" in problems[0]
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        conn.execute("DELETE FROM link_contributions")


def _profile(tmp_path: Path) -> Path:
    text = Path("config/profiles/washington-face-up.toml").read_text()
    text = text.replace('mode = "house"', 'mode = "progressive"\nlinked = "wa-link"')
    text = text.replace('name = "washington-face-up"', 'name = "linked-test"')
    path = tmp_path / "linked-test.toml"
    path.write_text(text)
    return path


def test_link_commands(tmp_path: Path, link_dsn: str, pg_server: PgServer,
                       capsys: pytest.CaptureFixture[str]) -> None:
    profile = str(_profile(tmp_path))
    assert main(["link", "status", "--dsn", link_dsn]) == 2
    assert "link init" in capsys.readouterr().err
    assert main(["link", "init", "--dsn", link_dsn, "--profile", profile]) == 0
    out = capsys.readouterr().out
    assert "applied 0001_link" in out and "link wa-link: fupgpp-wa01 installed" in out
    assert main(["link", "init", "--dsn", link_dsn, "--profile", profile]) == 0
    assert "up to date" in capsys.readouterr().out
    conn = server.connect(link_dsn)
    server.contribute(as_table(link_dsn, "pit1-t3"), LINK, "pit1-t3",
                      [Owed(1, 1, 1, s, 100, taken_now()) for s in (1, 2)])
    assert main(["link", "status", "--dsn", link_dsn]) == 0
    out = capsys.readouterr().out
    assert "main $2,500.30" in out and "table pit1-t3" in out and "2 wagers ($2.00)" in out
    # the auditor's role reads and audits, and cannot write
    conn.execute("CREATE ROLE aud LOGIN PASSWORD 'aud-secret' IN ROLE dealer_link_auditor")
    pg_server.add_password("aud", "aud-secret")
    auditor = pg_server.dsn(link_dsn.rsplit("dbname=", 1)[1], user="aud")
    assert main(["link", "audit", "--dsn", auditor]) == 0
    assert "link meters: OK" in capsys.readouterr().out
    with psycopg.connect(auditor, autocommit=True) as ro, pytest.raises(
            psycopg.errors.InsufficientPrivilege):
        ro.execute("UPDATE link_levels SET meter_micro = 0")


@pytest.mark.parametrize("argv, message", [
    (["link", "audit", "--dsn", "host=/nowhere port=1 user=x password=secret"], "pgpass"),
    (["link", "audit", "--dsn", "postgresql://u:secret@h/db"], "pgpass"),
    (["link", "audit", "--dsn", "postgresql://h/db?user=u&password=secret"], "pgpass"),
    (["link", "audit", "--dsn", "postgresql://h/db?password=secret"], "pgpass"),
    (["link", "audit", "--dsn", "host=/nowhere-at-all port=1 user=x dbname=x"],
     "cannot be reached"),
    (["link", "audit", "--dsn", ""], "empty"),
    (["link", "init", "--dsn", "host=/x", "--profile", "no-such-profile"], None),
])
def test_bad_input_is_one_line(argv: list[str], message: str | None,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dealer-console link:")
    assert "secret" not in err
    if message:
        assert message in err


def test_an_address_over_the_network_must_verify_the_server(tmp_path: Path) -> None:
    from dealer_link.settings import LinkError, check_dsn

    for dsn in ("host=jackpot-db.cardroom dbname=jackpot user=t",
                "host=db sslmode=require dbname=j", "hostaddr=10.0.0.5 dbname=j",
                "postgresql://db.cardroom/jackpot?sslmode=prefer"):
        with pytest.raises(LinkError, match="sslmode=verify-full"):
            check_dsn(dsn)
    assert check_dsn("host=db sslmode=verify-full sslrootcert=/etc/ca.crt dbname=j")
    assert check_dsn(f"host={tmp_path} dbname=j")  # a Unix socket: no network
    loose = tmp_path / "pgpass"
    loose.write_text("*:*:*:t:x\n")
    loose.chmod(0o644)
    with pytest.raises(LinkError, match="can be read by others: chmod 600"):
        check_dsn(f"host={tmp_path} dbname=j passfile={loose}")
    loose.chmod(0o600)
    assert check_dsn(f"host={tmp_path} dbname=j passfile={loose}")
