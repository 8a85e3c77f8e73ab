"""The pit's trust boundary, each with a real login against the real server: a table writes
only its own report and reads none; the pit's login reads the reports and changes nothing
except through a card the server checks; nobody changes the staff list without an
executive's card."""

from __future__ import annotations

import psycopg
import pytest

from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.settings import LinkRefused
from tests.link.pg_server import PgServer
from tests.pit.helpers import (
    DEALER_CARD,
    EXEC_CARD,
    SUPER_CARD,
    as_table,
    init_pit,
    pit_dsn,
    report,
)

Refused = (LinkRefused, psycopg.errors.InsufficientPrivilege)


def test_a_table_s_report_is_filed_under_its_login_and_read_by_the_pit(link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1, as_table(link_dsn, "t2") as t2:
        server.send_report(t1, report(table_id="t2", round_id=11))  # the name sent is ignored
        server.send_report(t2, report(round_id=22, jackpots_waiting=2))
        server.send_report(t1, report(round_id=12))  # a later report replaces the first
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        rows = {r.report.table_id: r for r in server.read_reports(pit)}
    assert sorted(rows) == ["t1", "t2"]
    assert rows["t1"].report.round_id == 12
    assert rows["t2"].report.jackpots_waiting == 2
    assert rows["t2"].report.devices[0].title == "Shuffler"
    assert 0 <= rows["t1"].age_ms < 60_000


def test_a_table_reads_no_report_and_writes_no_other_table_s(link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1:
        server.send_report(t1, report())
    with as_table(link_dsn, "t2") as t2:
        with pytest.raises(Refused):
            server.read_reports(t2)
        for statement in ("SELECT * FROM pit_reports",
                          "UPDATE pit_reports SET jackpots_waiting = 0",
                          "INSERT INTO pit_reports (table_id, phase, round_text, table_open, "
                          "self_test, devices, link_state, jackpots_waiting, drop_cents, "
                          "hold_cents, events) VALUES ('t1', 'bets', '', true, 'passed', "
                          "'[]', 'up', 0, 0, 0, '[]')",
                          "SELECT * FROM pit_staff", "SELECT * FROM pit_secret",
                          "DELETE FROM pit_acks"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                t2.execute(statement.encode())
        # acknowledging needs a card; a table's login without one acknowledges nothing
        with pytest.raises(LinkRefused):
            server.acknowledge(t2, "t1", "jackpot", ";NOT-A-CARD?")
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        [row] = server.read_reports(pit)
    assert row.report.table_id == "t1" and row.acks == {}


def test_the_pit_reads_reports_and_nothing_else(link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        for statement in ("SELECT * FROM link_hits", "SELECT * FROM link_meters('wa-link')",
                          "SELECT * FROM link_hits_of('wa-link')", "SELECT * FROM pit_staff",
                          "SELECT * FROM pit_staff_since(0)", "SELECT * FROM pit_secret",
                          "SELECT * FROM pit_ack_log", "SELECT * FROM link_confirmers",
                          "SELECT link_touch('wa-link', 't1')",
                          "UPDATE link_levels SET meter_micro = 0"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                pit.execute(statement.encode())
        # a report is a table's: the pit cannot file one
        with pytest.raises(Refused):
            server.send_report(pit, report())
        # the staff list: only on an executive's card
        for card in (None, SUPER_CARD, DEALER_CARD, ";FORGED?"):
            with pytest.raises(LinkRefused):
                server.set_staff(pit, executive_track=card, employee_id="S9", name="Mallory",
                                 role="executive", card_track=";6666000066660000?", enabled=True,
                                 reason="a podium acting alone")
        assert server.read_reports(pit) == []


def test_an_alert_is_acknowledged_on_a_supervisor_s_card_and_attributed(link_dsn: str
                                                                        ) -> None:
    admin = init_pit(link_dsn)
    with as_table(link_dsn, "t1") as t1:
        server.send_report(t1, report(jackpots_waiting=1, table_open=False,
                                      self_test="the shuffler failed its self-test"))
        with link_server.connect(pit_dsn(link_dsn)) as pit:
            for card in (DEALER_CARD, ";UNKNOWN?"):
                with pytest.raises(LinkRefused):
                    server.acknowledge(pit, "t1", "jackpot", card)
            assert server.acknowledge(pit, "t1", "jackpot", SUPER_CARD) == "Sam Super"
            assert server.acknowledge(pit, "t1", "closed", EXEC_CARD) == "Ella Exec"
            acks = server.read_reports(pit)[0].acks
            assert (acks["jackpot"].employee_id, acks["closed"].employee_id) == ("S1", "X1")
            # the jackpot paid, the table still closed: only the closed one stays acknowledged
            server.send_report(t1, report(jackpots_waiting=0, table_open=False,
                                          self_test="the shuffler failed its self-test"))
            assert set(server.read_reports(pit)[0].acks) == {"closed"}
            # a new jackpot is loud again
            server.send_report(t1, report(jackpots_waiting=1, table_open=False,
                                          self_test="the shuffler failed its self-test"))
            assert set(server.read_reports(pit)[0].acks) == {"closed"}
            # a supervisor disabled (on an executive's card) acknowledges no more
            server.set_staff(pit, executive_track=EXEC_CARD, employee_id="S1",
                             name="Sam Super", role="supervisor", card_track=None,
                             enabled=False, reason="left the casino")
            with pytest.raises(LinkRefused):
                server.acknowledge(pit, "t1", "jackpot", SUPER_CARD)
    log = admin.execute(b"SELECT table_id, kind, employee_id, login FROM pit_ack_log "
                        b"ORDER BY entry").fetchall()
    assert [(t, k, e) for t, k, e, _ in log] == [("t1", "jackpot", "S1"), ("t1", "closed", "X1")]
    assert all(str(login).endswith("-pit") for *_, login in log)
    with pytest.raises(psycopg.errors.RaiseException):
        admin.execute(b"DELETE FROM pit_ack_log")
    admin.close()


def test_no_table_changes_the_staff_list_alone(link_dsn: str) -> None:
    admin = init_pit(link_dsn)
    with as_table(link_dsn, "t1") as t1:
        for card in (None, SUPER_CARD, DEALER_CARD):
            with pytest.raises(LinkRefused):
                server.set_staff(t1, executive_track=card, employee_id="D1", name="Dana",
                                 role="executive", card_track=None, enabled=True,
                                 reason="a dealer promotes herself")
        version = server.set_staff(t1, executive_track=EXEC_CARD, employee_id="D2",
                                   name="Dan Dealer", role="dealer",
                                   card_track=";4444000044440000?", enabled=True,
                                   reason="hired at table 1")
        with pytest.raises(LinkRefused):  # one card, one employee
            server.set_staff(t1, executive_track=EXEC_CARD, employee_id="D3", name="Dup",
                             role="dealer", card_track=";4444000044440000?", enabled=True,
                             reason="dup")
        with pytest.raises(LinkRefused):
            server.set_staff(t1, executive_track=EXEC_CARD, employee_id="D4", name="Nobody",
                             role="dealer", card_track=";5555000055550000?", enabled=True,
                             reason=" ")
    roles = {str(e): str(r) for e, r in admin.execute(
        b"SELECT employee_id, role FROM pit_staff").fetchall()}
    assert roles == {"X1": "executive", "S1": "supervisor", "D1": "dealer", "D2": "dealer"}
    entry = admin.execute(b"SELECT version, by_employee, detail, reason FROM pit_staff_log "
                          b"ORDER BY entry DESC LIMIT 1").fetchone()
    assert entry is not None
    assert (entry[0], entry[1], entry[3]) == (version, "X1", "hired at table 1")
    assert "at table t1" in str(entry[2])
    admin.close()


def test_an_auditor_reads_the_pit_s_tables_but_no_card(link_dsn: str,
                                                       pg_server: PgServer) -> None:
    admin = init_pit(link_dsn)
    dbname = link_dsn.rsplit("dbname=", 1)[1].split()[0]
    login = f"{dbname}-aud".replace("_", "-")
    admin.execute(f'CREATE ROLE "{login}" LOGIN PASSWORD \'aud-secret\' '
                  f'IN ROLE dealer_link_auditor'.encode())
    pg_server.add_password(login, "aud-secret")
    with as_table(link_dsn, "t1") as t1, pytest.raises(LinkRefused):
        server.acknowledge(t1, "t1", "jackpot", SUPER_CARD)  # no report: refused, kept
    with psycopg.connect(pg_server.dsn(dbname, user=login), autocommit=True) as aud:
        staff = aud.execute(b"SELECT employee_id, role, enabled FROM pit_staff "
                            b"ORDER BY employee_id").fetchall()
        assert [r[0] for r in staff] == ["D1", "S1", "X1"]
        assert len(aud.execute(b"SELECT * FROM pit_card_attempts").fetchall()) == 1
        for statement in ("SELECT card_crypt FROM pit_staff", "SELECT card_hash FROM pit_staff",
                          "SELECT * FROM pit_staff", "SELECT * FROM pit_secret",
                          "INSERT INTO pit_card_unlocks (login, reason) VALUES ('x', 'y')"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                aud.execute(statement.encode())
    admin.close()


def test_the_card_functions_inner_parts_are_no_login_s(link_dsn: str) -> None:
    """Only the two card functions and the unlock are called: no table or pit login writes
    an attempt of its own, reads a lock, asks a card past the lock or computes a tag."""
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1, link_server.connect(pit_dsn(link_dsn)) as pit:
        for conn in (t1, pit):
            for statement in ("SELECT pit_card_refuse('table t1', 'x', 'y', false)",
                              "SELECT * FROM pit_card_gate('table t1', 'x', '1111')",
                              "SELECT pit_card_locked_until('x')", "SELECT pit_tag('1111')",
                              "SELECT pit_card_unlock('x', 'y')",
                              "SELECT * FROM pit_card_attempts",
                              "INSERT INTO pit_card_unlocks (login, reason) VALUES ('x', 'y')"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement.encode())
