"""The link's trust boundary, attacked with a real table's own login on the real server
(``link/server_trust.py``): each attack of issue 25 is refused and leaves the link exactly as
it was (every link table compared before and after)."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.link.health import now as taken_now
from dealer_link import admin, server
from dealer_link.audit import verify
from dealer_link.settings import LinkError, LinkRefused
from tests.link.helpers import (
    LINK,
    SEED,
    as_table,
    init_link,
    link_state,
    linked_game,
    refused_and_unchanged,
)

ROYAL_100 = 1  # WA01 line 1: 100% of the meter
FULL_HOUSE = 8  # a fixed 6 for 1 from the tray


@pytest.fixture
def link(link_dsn: str) -> Iterator[tuple[server.Connection, server.Connection,
                                          server.Connection]]:
    """The administrator's connection and two tables' own, each with a wager on the link
    (table-b's round 5 seat 2 and table-a's round 1 seat 3) and the meter moved."""
    conn = init_link(link_dsn)
    a, b = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    server.register_table(a, LINK, "table-a", linked_game())
    server.register_table(b, LINK, "table-b", linked_game())
    server.contribute(a, LINK, "table-a", [Owed(1, 1, 1, 3, 100, taken_now())])
    server.contribute(b, LINK, "table-b", [Owed(5, 1, 1, 2, 100, taken_now())])
    yield conn, a, b
    for c in (conn, a, b):
        c.close()


DENIED = (psycopg.errors.InsufficientPrivilege, LinkRefused)
NOT_ADMIN = "permission denied for function|only a link administrator"


def test_a_table_cannot_contribute_as_another(link: tuple[server.Connection, ...]) -> None:
    conn, a, _b = link
    refused_and_unchanged(conn, lambda: server.contribute(
        a, LINK, "table-b", [Owed(9, 1, 1, 1, 100, taken_now())]), LinkRefused,
        "this login is table table-a on the link, not table-b")
    refused_and_unchanged(conn, lambda: a.execute(
        "INSERT INTO link_contributions (link, table_id, round_id, deal_no, spot, seat, "
        "wager_cents, taken_at) VALUES (%s, 'table-b', 9, 1, 1, 1, 100, 't')", [LINK]),
        psycopg.errors.InsufficientPrivilege, "permission denied")
    # the function without a claimed name acts on the login's own rows only
    assert server.call(a, "SELECT link_contribute(%s, NULL, '{9}', '{1}', '{1}', '{1}', "
                       "'{100}', ARRAY[%s])", [LINK, taken_now()]) == [(1,)]
    owners = conn.execute(b"SELECT table_id FROM link_contributions WHERE round_id = 9"
                          ).fetchall()
    assert owners == [("table-a",)]


def test_a_table_cannot_have_a_hit_paid_on_another(link: tuple[server.Connection, ...]
                                                   ) -> None:
    conn, a, _b = link
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        a, LINK, "table-b", round_id=5, spot=1, seat=2, line_no=ROYAL_100,
        employee_id="X1"), LinkRefused, "not table-b")
    refused_and_unchanged(conn, lambda: a.execute(
        "INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, line_label, "
        "amount_cents, from_meter_cents, from_tray_cents, employee_id) VALUES "
        "(%s, 'table-b', 5, 1, 2, 1, 'x', 1, 1, 0, 'X1')", [LINK]),
        psycopg.errors.InsufficientPrivilege, "permission denied")


def test_a_table_cannot_pay_itself_with_an_unknown_confirmer_or_no_limit(
        link: tuple[server.Connection, ...]) -> None:
    conn, a, _b = link
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        a, LINK, "table-a", round_id=1, spot=1, seat=3, line_no=ROYAL_100,
        employee_id="NOBODY", most_cents=None), LinkRefused, "NOBODY may not confirm")
    # a supervisor, no limit sent: the server holds the award to its own threshold
    admin.set_thresholds(conn, LINK, executive_cents=500_00, two_person_cents=None,
                         reason="a lower threshold for the test")
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        a, LINK, "table-a", round_id=1, spot=1, seat=3, line_no=ROYAL_100,
        employee_id="S1", most_cents=None), LinkRefused,
        r"now pays \$1,000\.30, more than a supervisor may confirm")
    # above the two-person level one card is not enough, nor two of one role
    admin.set_thresholds(conn, LINK, executive_cents=500_00, two_person_cents=900_00,
                         reason="two people above $900 for the test")
    for first, second in (("X1", None), ("S1", "SIM-S1"), ("X1", "SIM-X1"), ("X1", "X1")):
        refused_and_unchanged(conn, lambda f=first, s=second: server.confirm_hit(  # type: ignore[misc]
            a, LINK, "table-a", round_id=1, spot=1, seat=3, line_no=ROYAL_100,
            employee_id=f, second_employee_id=s), LinkRefused, "two people|same person")
    admin.set_confirmer(conn, "S1", "Sam Super", "supervisor", enabled=False,
                        reason="left the card room")
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        a, LINK, "table-a", round_id=1, spot=1, seat=3, line_no=ROYAL_100,
        employee_id="X1", second_employee_id="S1"), LinkRefused, "S1 may not confirm")
    # a supervisor and an executive both known: paid, from the server's own meter
    hit = server.confirm_hit(a, LINK, "table-a", round_id=1, spot=1, seat=3,
                             line_no=ROYAL_100, employee_id="X1",
                             second_employee_id="SIM-S1")
    assert hit.amount_cents == (SEED * MICRO + 2 * 100 * 150_000) // MICRO
    assert verify(conn) == []


def test_a_planted_hit_on_another_tables_round_is_refused(
        link: tuple[server.Connection, ...]) -> None:
    conn, a, b = link
    # table-a cannot reach table-b's round 5 in any way ...
    refused_and_unchanged(conn, lambda: server.confirm_hit(
        a, LINK, "table-b", round_id=5, spot=1, seat=2, line_no=FULL_HOUSE,
        employee_id="S1"), LinkRefused, "not table-b")
    refused_and_unchanged(conn, lambda: server.call(
        a, "SELECT * FROM link_confirm_hit(%s, NULL, 5, 1, 2, 8, 'S1', NULL, NULL)", [LINK]),
        LinkRefused, "table table-a round 5 seat 2: the link has not received")
    # ... so table-b's own ask is paid as its own hit
    hit = server.confirm_hit(b, LINK, "table-b", round_id=5, spot=1, seat=2,
                             line_no=FULL_HOUSE, employee_id="S1")
    assert (hit.table_id, hit.line_no, hit.amount_cents, hit.from_tray_cents) == (
        "table-b", FULL_HOUSE, 600, 600)


def test_a_table_cannot_end_the_link_s_hit_numbers(link: tuple[server.Connection, ...]
                                                   ) -> None:
    """A table's hello moves the server's hit numbers past one it recorded (a server restored
    from an older copy). An outside review sent the largest bigint: no table of the link got
    a hit number again. No restore loses a million hits, so a number beyond that is refused."""
    conn, a, b = link
    refused_and_unchanged(conn, lambda: server.hello(a, LINK, "table-a", seen_hit=2**63 - 1),
                           LinkRefused, "more than 1000000 beyond the last number")
    hit = server.confirm_hit(b, LINK, "table-b", round_id=5, spot=1, seat=2,
                             line_no=FULL_HOUSE, employee_id="S1")
    assert hit.hit_id == 1  # the other tables' numbers go on
    said = server.hello(a, LINK, "table-a", seen_hit=1_000)  # what a restore could have lost
    assert said.went_back is not None and "hit number 1000" in said.went_back
    assert conn.execute(b"SELECT last_value FROM link_hits_hit_id_seq").fetchone() == (1_000,)
    assert verify(conn) == [_NOT_PUT_BACK.format(table="table-a", seen=1_000, reached=1)]


_NOT_PUT_BACK = (f"link {LINK}: table {{table}}'s hello moved the hit numbers from {{reached}} "
                 "to {seen}, saying the server had gone back in time; the server has no such "
                 "hit: if it was not restored in place, that table's login made it up (\"link "
                 "reconcile\" on its database; \"link went-back\" acknowledges it once looked "
                 "at)")


def test_a_tables_went_back_in_time_is_bounded_and_audited(
        link: tuple[server.Connection, ...]) -> None:
    """A review: 300 hellos, each a million past the last hit, moved every table's hit
    numbers to 300,000,005 and wrote 300 lines telling the administrator to put back hits
    no one lost; the audit said OK."""
    conn, a, b = link

    def lines() -> int:
        row = conn.execute(b"SELECT count(*) FROM link_admin_log "
                           b"WHERE what = 'went back in time'").fetchone()
        return int(row[0]) if row else -1

    said = server.hello(a, LINK, "table-a", seen_hit=1_000_000)
    assert said.went_back is not None
    server.hello(a, LINK, "table-a", seen_hit=1_000_000)  # said again: nothing more
    # another number, with no hit of its own since: refused, nothing moved or written
    before = link_state(conn)
    with pytest.raises(LinkRefused, match="already said the link server had gone back in time"):
        server.hello(a, LINK, "table-a", seen_hit=2_000_000)
    # all tables together: at most a million a day past where the numbers stood
    with pytest.raises(LinkRefused, match="at most 1000000 a day past where they stood"):
        server.hello(b, LINK, "table-b", seen_hit=1_000_002)
    assert link_state(conn) == before
    assert conn.execute(b"SELECT last_value FROM link_hits_hit_id_seq").fetchone() == (
        1_000_000,)
    assert lines() == 1
    assert verify(conn) == [_NOT_PUT_BACK.format(table="table-a", seen=1_000_000, reached=0)]
    # a hit of its own numbered after its claim: the table may say another number
    hit = server.confirm_hit(a, LINK, "table-a", round_id=1, spot=1, seat=3,
                             line_no=FULL_HOUSE, employee_id="S1")
    assert hit.hit_id == 1_000_001
    server.hello(a, LINK, "table-a", seen_hit=1_000_001)  # its own hit: no claim
    assert lines() == 1


def test_a_table_cannot_change_the_game_or_its_thresholds(
        link: tuple[server.Connection, ...], link_dsn: str) -> None:
    conn, a, _b = link
    refused_and_unchanged(conn, lambda: a.execute(
        "UPDATE link_games SET executive_threshold_cents = 0"),
        psycopg.errors.InsufficientPrivilege, "permission denied")
    refused_and_unchanged(conn, lambda: admin.set_thresholds(
        a, LINK, executive_cents=0, two_person_cents=None, reason="mine now"), DENIED,
        NOT_ADMIN)
    refused_and_unchanged(conn, lambda: admin.set_confirmer(
        a, "EVIL", "Evil", "executive", reason="mine now"), DENIED, NOT_ADMIN)
    refused_and_unchanged(conn, lambda: server.call(
        a, "SELECT link_register_login(session_user, 'table-b', 'mine now')", []), DENIED,
        NOT_ADMIN)
    # every honest table still joins
    with as_table(link_dsn, "table-c") as c:
        server.register_table(c, LINK, "table-c", linked_game())


def test_a_table_cannot_move_a_meter_or_forge_a_reset(link: tuple[server.Connection, ...],
                                                      link_dsn: str) -> None:
    conn, a, _b = link
    for statement in (
            "UPDATE link_levels SET meter_micro = meter_micro + 1000000000000",
            "INSERT INTO link_ledger (link, level, kind, meter_delta_micro, "
            "reserve_delta_micro, meter_after_micro, reserve_after_micro) VALUES "
            f"('{LINK}', 'main', 'reset', 1000000000000, 0, 1, 0)",
            "SELECT nextval('link_hits_hit_id_seq')",
            "DELETE FROM link_contributions",
            "CREATE TABLE link_evil (x int)"):
        refused_and_unchanged(conn, lambda s=statement: a.execute(s.encode()),  # type: ignore[misc]
                               psycopg.errors.InsufficientPrivilege, "denied")
    refused_and_unchanged(conn, lambda: admin.adjust(
        a, LINK, "main", delta_micro=10_000_00 * MICRO, reason="mine"), DENIED,
        NOT_ADMIN)
    # a forged reset written behind the functions' back (here by the superuser, as a table
    # login would if it ever had the right) fails the audit, naming who made it
    login = a.info.user
    with conn.transaction():
        conn.execute("ALTER TABLE link_ledger DISABLE TRIGGER USER")
        conn.execute("INSERT INTO link_ledger (link, level, kind, meter_delta_micro, "
                     "reserve_delta_micro, meter_after_micro, reserve_after_micro, actor) "
                     "SELECT link, level, 'reset', 1000000000, 0, meter_micro + 1000000000, "
                     "reserve_micro, %s FROM link_levels", [login])
        conn.execute("UPDATE link_levels SET meter_micro = meter_micro + 1000000000")
        conn.execute("ALTER TABLE link_ledger ENABLE TRIGGER USER")
    problems = verify(conn)
    assert any(f"made by {login}, who is not a link administrator" in p for p in problems)


def test_row_security_is_a_second_wall(link: tuple[server.Connection, ...]) -> None:
    conn, a, _b = link
    login = a.info.user
    conn.execute(f'GRANT SELECT, INSERT ON link_contributions TO "{login}"'.encode())
    try:  # a right granted by mistake: the login still sees and writes its own rows only
        assert {r[0] for r in a.execute(b"SELECT table_id FROM link_contributions")} == {
            "table-a"}
        refused_and_unchanged(conn, lambda: a.execute(
            "INSERT INTO link_contributions (link, table_id, round_id, deal_no, spot, seat, "
            "wager_cents, taken_at) VALUES (%s, 'table-b', 9, 1, 1, 1, 100, 't')", [LINK]),
            psycopg.errors.InsufficientPrivilege, "row-level security")
    finally:
        conn.execute(f'REVOKE SELECT, INSERT ON link_contributions FROM "{login}"'.encode())


def test_an_administrators_changes_are_recorded_with_who_and_why(
        link: tuple[server.Connection, ...]) -> None:
    conn, _a, _b = link
    before = server.meter_states(conn, LINK)["main"]
    admin.adjust(conn, LINK, "main", delta_micro=-5 * MICRO, reason="a meter fault refunded")
    admin.adjust(conn, LINK, "main", reset=True, reason="the regulator's reset")
    after = server.meter_states(conn, LINK)["main"]
    assert after == type(after)(SEED * MICRO + before.reserve_micro, 0)
    rows = conn.execute(b"SELECT kind, actor, reason FROM link_ledger WHERE kind IN "
                        b"('adjustment', 'reset') ORDER BY entry").fetchall()
    me = conn.info.user
    assert rows == [("adjustment", me, "a meter fault refunded"),
                    ("reset", me, "the regulator's reset")]
    assert verify(conn) == []
    with pytest.raises(LinkError, match="needs a reason"):
        admin.adjust(conn, LINK, "main", delta_micro=1, reason=" ")


def test_the_audit_names_a_hit_forged_behind_the_functions_back(
        link: tuple[server.Connection, ...]) -> None:
    conn, _a, _b = link
    # a tray pay written straight into the table (as only the schema's owner could): the
    # confirmer unknown to the link, the amount not the paytable's
    conn.execute("INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, "
                 "line_label, amount_cents, from_meter_cents, from_tray_cents, employee_id) "
                 "VALUES (%s, 'table-a', 1, 1, 3, 8, 'Full house', 1250030, 0, 1250030, "
                 "'NOBODY')", [LINK])
    problems = verify(conn)
    assert any("confirmed by NOBODY, whom the link does not know" in p for p in problems)
    assert any("amount" in p and "1250030" in p and "600" in p for p in problems)
