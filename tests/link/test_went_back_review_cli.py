"""``link went-back``: the administrator reviews the tables' "the server went back in time"
claims (``server_went_back_review.py``, migration ``0015_went_back_reviews``). A stolen login
spends the day's million; an honest table's claim after a restore in place is then refused
until the administrator grants it, and the stolen login's claim, named by ``link audit``,
is acknowledged. Bad input changes nothing; a table's login can do none of it."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from dealer_console.cli import main
from dealer_console.jackpot_values.link_records import Owed
from dealer_console.link.health import now as taken_now
from dealer_link import server
from dealer_link.settings import LinkRefused
from tests.link.helpers import (
    LINK,
    as_table,
    auditor_dsn,
    init_link,
    link_state,
    linked_game,
    table_dsn,
)
from tests.link.pg_server import PgServer

FULL_HOUSE = 8  # a fixed 6 for 1 from the tray
HONEST, STOLEN = "t-a", "t-b"


@pytest.fixture
def link(link_dsn: str) -> Iterator[tuple[server.Connection, server.Connection,
                                          server.Connection]]:
    """The administrator's connection, the honest table's and the stolen login's; the stolen
    login has spent the day's million (numbers 0 -> 1,000,000), and the honest table, after a
    restore in place, is refused its claim of the hit 1,000,007 it recorded."""
    conn = init_link(link_dsn)
    a, b = as_table(link_dsn, HONEST), as_table(link_dsn, STOLEN)
    for t, name in ((a, HONEST), (b, STOLEN)):
        server.register_table(t, LINK, name, linked_game())
    server.hello(b, LINK, STOLEN, seen_hit=1_000_000)
    with pytest.raises(LinkRefused, match="at most 1000000 a day past where they stood"):
        server.hello(a, LINK, HONEST, seen_hit=1_000_007)
    yield conn, a, b
    for c in (conn, a, b):
        c.close()


def _state(conn: server.Connection) -> dict[str, list[str]]:
    """The link as it stands, its claims and reviews too."""
    out = link_state(conn)
    for name in ("link_went_back_claims", "link_went_back_reviews"):
        out[name] = [str(r[0]) for r in conn.execute(
            f"SELECT x::text FROM {name} x ORDER BY 1".encode()).fetchall()]
    return out


def _next_number(conn: server.Connection) -> int:
    row = conn.execute(b"SELECT last_value FROM link_hits_hit_id_seq").fetchone()
    assert row is not None
    return int(row[0])


def test_the_honest_claim_is_granted_and_the_stolen_one_acknowledged(
        link: tuple[server.Connection, ...], link_dsn: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    conn, a, _b = link
    assert main(["link", "audit", "--dsn", link_dsn]) == 1
    assert f"table {STOLEN}'s hello moved the hit numbers from 0 to 1000000" in \
        capsys.readouterr().out
    assert main(["link", "went-back", "--dsn", link_dsn]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[0].startswith(f"link {LINK} table {STOLEN}: said at ")
    assert out[0].endswith("recorded hit number 1000000 (the numbers stood at 0); the server "
                           "holds no such hit; it moved the numbers; not looked at (link "
                           "audit names it)")
    assert out[1] == "1 claims, 1 not looked at (1 named by link audit)"
    # the honest table's claim, refused by the cap, granted by the administrator
    assert main(["link", "went-back", LINK, HONEST, "1000007", "--grant", "--reason",
                 "restored in place; t-a's file holds hits to 1000007", "--dsn",
                 link_dsn]) == 0
    assert capsys.readouterr().out == (
        f"link {LINK} table {HONEST}: its claim of hit number 1000007 granted; the hit "
        "numbers go on after 1000007 (they stood at 1000000), and the table's next hello is "
        "taken\n")
    assert _next_number(conn) == 1_000_007
    said = server.hello(a, LINK, HONEST, seen_hit=1_000_007)  # its sender's next hello
    assert said.went_back is not None and "hit number 1000007" in said.went_back
    server.contribute(a, LINK, HONEST, [Owed(1, 1, 1, 3, 100, taken_now())])
    hit = server.confirm_hit(a, LINK, HONEST, round_id=1, spot=1, seat=3,
                             line_no=FULL_HOUSE, employee_id="S1")
    assert hit.hit_id == 1_000_008  # no number it recorded is given again
    # the stolen login's claim, looked at: the audit no longer names it
    assert main(["link", "audit", "--dsn", link_dsn]) == 1
    capsys.readouterr()
    assert main(["link", "went-back", LINK, STOLEN, "1000000", "--acknowledge", "--reason",
                 "t-b's password file was taken; a new login made", "--dsn", link_dsn]) == 0
    assert capsys.readouterr().out == (
        f"link {LINK} table {STOLEN}: its claim of hit number 1000000 acknowledged; link "
        "audit no longer names it\n")
    assert main(["link", "audit", "--dsn", link_dsn]) == 0
    assert "link meters: OK" in capsys.readouterr().out
    assert main(["link", "went-back", LINK, "--dsn", link_dsn]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "; acknowledged by " in out[0] and out[0].endswith(
        ": t-b's password file was taken; a new login made")
    assert "; granted by " in out[1] and "it moved the numbers" in out[1]
    assert out[2] == f"2 claims on link {LINK}, 0 not looked at"
    log = conn.execute(b"SELECT detail, reason, actor = current_user FROM link_admin_log "
                       b"WHERE what = 'went back reviewed' ORDER BY entry").fetchall()
    assert log == [
        (f"table {HONEST}'s claim of hit number 1000007 granted: the hit numbers go on after "
         "1000007 (they stood at 1000000)", "restored in place; t-a's file holds hits to "
         "1000007", True),
        (f"table {STOLEN}'s claim of hit number 1000000 (the numbers stood at 0): "
         "acknowledged", "t-b's password file was taken; a new login made", True)]
    # a review is never changed or taken back, even by the schema's owner
    for statement in (b"UPDATE link_went_back_reviews SET verdict = 'granted'",
                      b"DELETE FROM link_went_back_reviews",
                      b"TRUNCATE link_went_back_reviews"):
        with pytest.raises(psycopg.errors.RaiseException):
            conn.execute(statement)
        conn.rollback()


@pytest.mark.parametrize("argv, said", [
    ([HONEST, "1000007", "--acknowledge"], "table t-a has made no claim of hit number 1000007"),
    ([STOLEN, "1000000", "--grant"], "the server took table t-b's claim of hit number 1000000 "
     "on link wa-link already"),
    (["t-z", "1000007", "--grant"], "table t-z is not on link wa-link"),
    ([HONEST, "2000001", "--grant"], "hit number 2000001 is more than 1000000 beyond the last "
     "number this server gave (1000000): no restore loses that many hits"),
    ([HONEST, "0", "--grant"], "'0' is not a whole number from 1"),
    ([HONEST, "-3", "--grant"], "'-3' is not a whole number from 1"),
    ([HONEST, "x", "--grant"], "'x' is not a whole number from 1"),
    ([HONEST, "--grant"], "name the claim: LINK TABLE HIT"),
    ([HONEST, "1000007"], "say what to do with the claim: --acknowledge"),
    ([HONEST, "1000007", "--grant", "--acknowledge"], "not allowed with argument"),
])
def test_bad_input_is_refused_in_words_and_nothing_changes(
        link: tuple[server.Connection, ...], link_dsn: str,
        capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    conn = link[0]
    before = _state(conn)
    assert main(["link", "went-back", LINK, *argv, "--reason", "looked", "--dsn",
                 link_dsn]) == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert _state(conn) == before


def test_a_review_is_made_once_and_needs_a_reason(
        link: tuple[server.Connection, ...], link_dsn: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    conn, a, _b = link
    argv = ["link", "went-back", LINK, STOLEN, "1000000", "--acknowledge", "--dsn", link_dsn]
    before = _state(conn)
    assert main(argv) == 2
    assert "a change needs --reason" in capsys.readouterr().err
    assert main(["link", "went-back", "--reason", "x", "--dsn", link_dsn]) == 2
    assert "--reason is for a change, and none is named" in capsys.readouterr().err
    assert _state(conn) == before
    assert main([*argv, "--reason", "looked"]) == 0
    capsys.readouterr()
    reviewed = _state(conn)
    assert main([*argv, "--reason", "again"]) == 2
    assert "was acknowledged by" in capsys.readouterr().err
    assert _state(conn) == reviewed
    # the table's own hit needs no claim: nothing to grant
    server.hello(a, LINK, HONEST)
    server.contribute(a, LINK, HONEST, [Owed(1, 1, 1, 3, 100, taken_now())])
    hit = server.confirm_hit(a, LINK, HONEST, round_id=1, spot=1, seat=3,
                             line_no=FULL_HOUSE, employee_id="S1")
    assert main(["link", "went-back", LINK, HONEST, str(hit.hit_id), "--grant", "--reason",
                 "x", "--dsn", link_dsn]) == 2
    assert f"hit number {hit.hit_id} is table t-a's own on the server" in \
        capsys.readouterr().err


def test_a_table_s_login_cannot_review_or_grant_itself_a_claim(
        link: tuple[server.Connection, ...], link_dsn: str, pg_server: PgServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    conn, a, b = link
    before = _state(conn)
    for name, who in ((HONEST, a), (STOLEN, b)):
        dsn = table_dsn(link_dsn, name)
        for argv in (["link", "went-back"],
                     ["link", "went-back", LINK, name, "1000007", "--grant", "--reason", "m"],
                     ["link", "went-back", LINK, STOLEN, "1000000", "--acknowledge",
                      "--reason", "mine"]):
            assert main([*argv, "--dsn", dsn]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "is not a link administrator or auditor" in err
        for attack in (f"SELECT link_review_went_back('{LINK}', '{name}', 1000007, true, 'm')",
                       f"INSERT INTO link_went_back_reviews (link, table_id, seen_hit, verdict, "
                       f"reason) VALUES ('{LINK}', '{STOLEN}', 1000000, 'acknowledged', 'm')",
                       f"INSERT INTO link_went_back_claims (link, table_id, seen_hit, reached) "
                       f"VALUES ('{LINK}', '{name}', 1000007, 1000000)"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                who.execute(attack.encode())
    # an auditor lists the claims and may not review them
    auditor = auditor_dsn(conn, pg_server, link_dsn)
    assert main(["link", "went-back", "--dsn", auditor]) == 0
    assert "1 claims, 1 not looked at" in capsys.readouterr().out
    assert main(["link", "went-back", LINK, STOLEN, "1000000", "--acknowledge", "--reason",
                 "mine", "--dsn", auditor]) == 2
    assert "permission denied for function link_review_went_back" in capsys.readouterr().err
    assert _state(conn) == before


def test_a_claim_refused_for_a_standing_one_is_granted(
        link_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The table's own login, stolen, said a number first: the honest table's claim after a
    restore is refused ("already said") until the administrator grants it."""
    conn = init_link(link_dsn)
    stolen, honest = as_table(link_dsn, HONEST), as_table(link_dsn, HONEST)
    server.register_table(stolen, LINK, HONEST, linked_game())
    server.hello(stolen, LINK, HONEST, seen_hit=500)
    with pytest.raises(LinkRefused, match="already said the link server had gone back"):
        server.hello(honest, LINK, HONEST, seen_hit=600)
    assert main(["link", "went-back", LINK, HONEST, "600", "--grant", "--reason",
                 "its file holds hits to 600", "--dsn", link_dsn]) == 0
    assert "the hit numbers go on after 600 (they stood at 500)" in capsys.readouterr().out
    said = server.hello(honest, LINK, HONEST, seen_hit=600)
    assert said.went_back is not None and "hit number 600" in said.went_back
    assert main(["link", "went-back", LINK, HONEST, "500", "--acknowledge", "--reason",
                 "its stolen login's", "--dsn", link_dsn]) == 0
    assert main(["link", "audit", "--dsn", link_dsn]) == 0
    for c in (stolen, honest, conn):
        c.close()
