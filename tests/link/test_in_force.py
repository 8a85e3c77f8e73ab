"""Each linked hit keeps the rules it was paid under, and ``link audit`` holds it to them
(``server_in_force.py``, migration ``0008_in_force``): a confirmer's role changed after the
hit leaves it right, a hit written behind the functions' back above what its confirmer could
confirm then is named, and every change of the confirmers, the games and the tables' links
is kept with who made it, a change written straight into the table too."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import psycopg
import pytest

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.link.health import now as taken_now
from dealer_link import admin, server, server_schema
from dealer_link.audit import verify
from tests.link.helpers import LINK, as_table, init_link, linked_game, older_link

FULL_HOUSE = 8  # a fixed 6 for 1 from the tray: $6.00 on the $1 wager


@pytest.fixture
def link(link_dsn: str) -> Iterator[tuple[server.Connection, server.Connection]]:
    """The administrator's connection and table-a's, with jackpot wagers in rounds 1-4 seat
    3, the executive threshold at $5 and two people above $50."""
    conn = init_link(link_dsn)
    a = as_table(link_dsn, "table-a")
    server.register_table(a, LINK, "table-a", linked_game())
    server.contribute(a, LINK, "table-a",
                      [Owed(r, 1, 1, 3, 100, taken_now()) for r in (1, 2, 3, 4)])
    admin.set_thresholds(conn, LINK, executive_cents=500, two_person_cents=5000,
                         reason="the test's thresholds")
    yield conn, a
    a.close()
    conn.close()


def pay(a: server.Connection, round_id: int, first: str, second: str | None = None) -> None:
    server.confirm_hit(a, LINK, "table-a", round_id=round_id, spot=1, seat=3,
                       line_no=FULL_HOUSE, employee_id=first, second_employee_id=second)


def test_a_hit_is_held_to_the_roles_and_thresholds_it_was_paid_under(
        link: tuple[server.Connection, server.Connection]) -> None:
    conn, a = link
    with pytest.raises(server.LinkRefused, match="an executive's card is needed"):
        pay(a, 1, "S1")
    # S1 made an executive for one hit, and back
    admin.set_confirmer(conn, "S1", "Sam Super", "executive", reason="covering the shift")
    pay(a, 1, "S1")
    admin.set_confirmer(conn, "S1", "Sam Super", "supervisor", reason="shift over")
    admin.set_thresholds(conn, LINK, executive_cents=10**9, two_person_cents=None,
                         reason="the new letter")
    kept = conn.execute(b"SELECT employee_role, second_role, executive_threshold_cents, "
                        b"two_person_above_cents, rules_kept FROM link_hits").fetchall()
    assert kept == [("executive", None, 500, 5000, True)]
    assert verify(conn) == []

    # written straight into the table (as only the schema's owner can): S1 alone, a
    # supervisor now, for $6.00 above the $0.50 threshold in force
    admin.set_thresholds(conn, LINK, executive_cents=50, two_person_cents=None, reason="x")
    conn.execute("INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, "
                 "line_label, amount_cents, from_meter_cents, from_tray_cents, employee_id, "
                 "employee_role, executive_threshold_cents) VALUES (%s, 'table-a', 2, 1, 3, "
                 "8, 'Full House', 600, 0, 600, 'S1', 'executive', 0)", [LINK])
    hit = conn.execute(b"SELECT hit_id, employee_role, executive_threshold_cents FROM "
                       b"link_hits WHERE round_id = 2").fetchone()
    assert hit is not None and hit[1:] == ("supervisor", 50)  # what it says is not kept
    assert verify(conn) == [
        f"link {LINK} hit {hit[0]} of $6.00, confirmed by S1: above the executive threshold, "
        "$0.50, it needs an executive, by the rules in force when it was paid"]


def test_two_people_above_the_level_and_confirmers_unknown_then(
        link: tuple[server.Connection, server.Connection]) -> None:
    conn, a = link
    admin.set_thresholds(conn, LINK, executive_cents=100, two_person_cents=500,
                         reason="two people from $5")
    pay(a, 1, "X1", "S1")
    assert verify(conn) == []
    forged = ("INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, "
              "line_label, amount_cents, from_meter_cents, from_tray_cents, employee_id, "
              "second_employee_id) VALUES (%s, 'table-a', %s, 1, 3, 8, 'Full House', 600, 0, "
              "600, %s, %s)")
    conn.execute(forged, [LINK, 2, "X1", None])
    conn.execute(forged, [LINK, 3, "X1", "SIM-X1"])
    admin.set_confirmer(conn, "S1", "Sam Super", "supervisor", enabled=False, reason="left")
    conn.execute(forged, [LINK, 4, "X1", "S1"])  # S1 no longer in service
    ids = [r[0] for r in conn.execute(b"SELECT hit_id FROM link_hits WHERE round_id > 1 "
                                      b"ORDER BY round_id").fetchall()]
    two = "above the two-person level, $5.00, it needs a supervisor and an executive"
    assert verify(conn) == [
        f"link {LINK} hit {ids[0]} of $6.00, confirmed by X1: {two}, by the rules in force "
        "when it was paid",
        f"link {LINK} hit {ids[1]} of $6.00, confirmed by X1 and SIM-X1: {two}, by the rules "
        "in force when it was paid",
        f"link {LINK} hit {ids[2]} of $6.00, confirmed by X1 and S1: a confirmer who could "
        "not confirm then (unknown, or not in service), by the rules in force when it was "
        "paid"]


def test_every_change_of_who_may_confirm_is_kept_however_it_was_made(
        link: tuple[server.Connection, server.Connection]) -> None:
    conn, a = link
    admin.set_confirmer(conn, "S1", "Sam Super", "executive", reason="promoted")
    conn.execute(b"UPDATE link_confirmers SET role = 'supervisor' WHERE employee_id = 'S1'")
    conn.execute(b"UPDATE link_games SET executive_threshold_cents = 1")
    who = conn.execute(b"SELECT session_user").fetchone()
    assert who is not None
    rows = conn.execute(b"SELECT setting, change, before->>'role', after->>'role', actor "
                        b"FROM link_settings_history WHERE setting = 'link_confirmers' "
                        b"AND after->>'employee_id' = 'S1' ORDER BY entry").fetchall()
    assert rows == [("link_confirmers", "INSERT", None, "supervisor", who[0]),
                    ("link_confirmers", "UPDATE", "supervisor", "executive", who[0]),
                    ("link_confirmers", "UPDATE", "executive", "supervisor", who[0])]
    games = conn.execute(b"SELECT change, (after->>'executive_threshold_cents')::bigint FROM "
                         b"link_settings_history WHERE setting = 'link_games' ORDER BY entry"
                         ).fetchall()
    assert games[-2:] == [("UPDATE", 500), ("UPDATE", 1)]
    # the history is append-only, and no table's login reads it
    with pytest.raises(psycopg.errors.RaiseException,
                       match="link_settings_history is append-only: DELETE refused"):
        conn.execute(b"DELETE FROM link_settings_history")
    conn.rollback()
    with pytest.raises(server.LinkRefused, match="permission denied"):
        server.call(a, "SELECT count(*) FROM link_settings_history", [])


def test_a_change_of_the_rules_waits_for_a_hit_being_paid(
        link: tuple[server.Connection, server.Connection], link_dsn: str) -> None:
    """An outside review: X1, an executive, confirmed $6 above the $5 threshold while the
    administrator made X1 a supervisor; the change landed between the function's reads and
    its row, so the row said "supervisor" and the audit doubted a hit paid rightly. The
    change now waits for the meters the payment holds."""
    conn, a = link
    holder = server.connect(link_dsn)  # the schema's owner holds the hit's row back
    other = server.connect(link_dsn)  # the administrator's change, meanwhile
    done: dict[str, BaseException | None] = {}

    def run(name: str, work: Callable[[], object]) -> threading.Thread:
        def target() -> None:
            try:
                work()
                done[name] = None
            except BaseException as exc:  # reported by the assertions below
                done[name] = exc
        thread = threading.Thread(target=target)
        thread.start()
        return thread

    with holder.transaction():
        holder.execute(b"LOCK TABLE link_hits IN SHARE MODE")
        paying = run("pay", lambda: pay(a, 1, "X1"))
        wait_for(lambda: waiting_on_a_lock(conn, 1))  # its checks done, its row held
        changing = run("change", lambda: admin.set_confirmer(
            other, "X1", "Ella Exec", "supervisor", reason="stepped down"))
        wait_for(lambda: waiting_on_a_lock(conn, 2))
        assert "change" not in done  # it waits for the payment
    paying.join(10)
    changing.join(10)
    assert done == {"pay": None, "change": None}
    assert conn.execute(b"SELECT employee_id, employee_role, executive_threshold_cents FROM "
                        b"link_hits").fetchall() == [("X1", "executive", 500)]
    assert verify(conn) == []
    holder.close()
    other.close()


def waiting_on_a_lock(conn: server.Connection, count: int) -> bool:
    row = conn.execute(b"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                       b"AND datname = current_database()").fetchone()
    return row is not None and row[0] >= count


def wait_for(condition: Callable[[], bool]) -> None:
    import time

    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.01)


def test_no_one_empties_the_evidence_with_truncate(
        link: tuple[server.Connection, server.Connection]) -> None:
    conn, _a = link
    for table in ("link_settings_history", "link_confirmers", "link_hits", "link_ledger",
                  "link_admin_log", "link_contributions"):
        with pytest.raises(psycopg.errors.RaiseException,
                           match=f"{table} keeps every row as evidence: TRUNCATE refused"):
            conn.execute(f"TRUNCATE {table} CASCADE".encode())
    assert verify(conn) == []


def test_a_change_of_the_rules_waits_two_seconds_at_most(
        link: tuple[server.Connection, server.Connection], link_dsn: str) -> None:
    """A review: waiting for every link's meters, a change of who may confirm stalled the
    other links' hits behind one link held by a connection no table could end."""
    _conn, _a = link
    conn = server.connect(link_dsn, statement_timeout_s=10)  # never waits for ever here
    holder = server.connect(link_dsn)
    with holder.transaction():
        holder.execute("SELECT 1 FROM link_levels WHERE link = %s FOR UPDATE", [LINK])
        before = conn.execute(b"SELECT * FROM link_confirmers ORDER BY 1").fetchall()
        with pytest.raises(server.LinkRefused, match="a link's meters are held by a hit or "
                                                     "wagers being sent: nothing changed"):
            admin.set_confirmer(conn, "S1", "Sam Super", "executive", reason="promoted")
        with pytest.raises(server.LinkRefused, match="the link's meters are held"):
            admin.set_thresholds(conn, LINK, executive_cents=1, two_person_cents=None,
                                 reason="x")
        assert conn.execute(b"SELECT * FROM link_confirmers ORDER BY 1").fetchall() == before
        assert conn.execute(b"SHOW lock_timeout").fetchone() == ("0",)  # the session's own
    admin.set_confirmer(conn, "S1", "Sam Super", "executive", reason="promoted")
    holder.close()
    conn.close()


def test_an_upgrade_while_a_hit_is_being_paid_waits_for_it(link_dsn: str) -> None:
    """A review: an upgrade under play deadlocked with a hit being paid (the hit had read
    the hits and waited to write its own behind the upgrade's new trigger, while the upgrade
    waited for the hit to alter the table)."""
    conn = older_link(link_dsn, "0007_table_links")
    server.install_game(conn, LINK, linked_game(), actor="test")
    paying = server.connect(link_dsn)  # stands for a hit's payment, as far as its locks go
    upgrading = server.connect(link_dsn)
    applied: list[object] = []

    def upgrade() -> None:
        try:
            applied.append(server_schema.apply(upgrading))
        except Exception as exc:  # reported by the assertion below
            applied.append(exc)

    with paying.transaction():
        paying.execute(b"SELECT count(*) FROM link_hits")  # the hit's first look
        thread = threading.Thread(target=upgrade)
        thread.start()
        wait_for(lambda: waiting_on_a_lock(conn, 1))  # the upgrade waits for it
        paying.execute("INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, "
                       "line_label, amount_cents, from_meter_cents, from_tray_cents, "
                       "employee_id) VALUES (%s, 't1', 1, 1, 3, 8, 'Full House', 600, 0, "
                       "600, 'S1')", [LINK])  # then writes its row: no deadlock
    thread.join(30)
    assert applied and isinstance(applied[0], list) and applied[0][:2] == [
        "0007_table_links", "0008_in_force"], applied
    for c in (paying, upgrading, conn):
        c.close()
