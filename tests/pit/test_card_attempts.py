"""Guesses at a card, with real logins: every refused attempt is written by the server and
survives its refusal (never the card); a login with five refused cards in ten minutes is
locked, said plainly, and lifted by the link administrator or by time; the administrator
without a card puts only the first executive on the list."""

from __future__ import annotations

import psycopg
import pytest

from dealer_console.employees.cardhash import KdfParams, hash_card
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.sql_cards import FLOOD_PER_MINUTE, LOCK_FAILURES
from dealer_link.settings import LinkRefused
from tests.pit.helpers import (
    DEALER_CARD,
    EXEC_CARD,
    SUPER_CARD,
    as_table,
    init_pit,
    pit_dsn,
    report,
)

GUESS = ";9999000099990000=9?"


def _attempts(admin: link_server.Connection) -> list[tuple[str, ...]]:
    rows = admin.execute(b"SELECT login, caller, action, refusal, counts::text FROM "
                         b"pit_card_attempts ORDER BY entry").fetchall()
    return [tuple(str(v) for v in row) for row in rows]


def test_a_refused_card_is_written_and_survives_its_refusal(link_dsn: str) -> None:
    admin = init_pit(link_dsn)
    with as_table(link_dsn, "t1") as t1:
        server.send_report(t1, report(jackpots_waiting=1))
        with pytest.raises(LinkRefused, match="not on the staff list"):
            server.acknowledge(t1, "t1", "jackpot", GUESS)
        with pytest.raises(LinkRefused, match="Dana Dealer is a dealer"):
            server.acknowledge(t1, "t1", "jackpot", DEALER_CARD)
        with pytest.raises(LinkRefused, match="no table t9"):  # no card read: not counted
            server.acknowledge(t1, "t9\x1b[2J\u202e", "jackpot", SUPER_CARD)
        with pytest.raises(LinkRefused, match="executive's card"):
            server.set_staff(t1, executive_track=SUPER_CARD, employee_id="S1", name="Sam",
                             role="executive", card_track=None, enabled=True,
                             reason="promotes himself")
        t1_login = str(t1.info.user)
    rows = _attempts(admin)
    assert [(r[0], r[1], r[4]) for r in rows] == [(t1_login, "table t1", "true")] * 2 + [
        (t1_login, "table t1", "false"), (t1_login, "table t1", "true")]
    assert rows[0][2] == "acknowledge jackpot at table t1"
    assert rows[2][2] == "acknowledge jackpot at table t9?[2J?"  # no escape reaches a terminal
    assert rows[3][2] == "staff change of S1 (executive)"
    # never the card: no column holds any of its digits' run
    text = repr(admin.execute(b"SELECT * FROM pit_card_attempts").fetchall())
    for card in (GUESS, DEALER_CARD, SUPER_CARD):
        assert card.strip(";?") not in text and card.strip(";?")[:12] not in text
    with pytest.raises(psycopg.errors.RaiseException):
        admin.execute(b"DELETE FROM pit_card_attempts")
    admin.close()


def test_five_refused_cards_lock_the_login_until_the_administrator_lifts_it(
        link_dsn: str) -> None:
    admin = init_pit(link_dsn)
    with as_table(link_dsn, "t1") as t1, link_server.connect(pit_dsn(link_dsn)) as pit:
        server.send_report(t1, report(jackpots_waiting=1))
        login = str(t1.info.user)
        words = []
        for n in range(LOCK_FAILURES):
            with pytest.raises(LinkRefused) as refused:
                server.acknowledge(t1, "t1", "jackpot", f";99990000{n:04d}=9?")
            words.append(str(refused.value))
        assert "at 5 this login's card attempts are locked" in words[2]
        assert "now locked until" in words[-1]
        # locked: the supervisor's own card is not even read at this login
        with pytest.raises(LinkRefused, match=r"locked until \d\d:\d\d:\d\d .*unlock-cards"):
            server.acknowledge(t1, "t1", "jackpot", SUPER_CARD)
        with pytest.raises(LinkRefused, match="locked until"):
            server.set_staff(t1, executive_track=EXEC_CARD, employee_id="D9", name="Dee",
                             role="dealer", card_track=";7777000077770000?", enabled=True,
                             reason="hired")
        # another login is not locked by this one's guesses
        assert server.acknowledge(pit, "t1", "jackpot", SUPER_CARD) == "Sam Super"
        # neither a table nor the pit lifts a lock
        for conn in (t1, pit):
            with pytest.raises((LinkRefused, psycopg.errors.InsufficientPrivilege)):
                server.unlock_cards(conn, login, "let me in")
        # refusals while locked are written but do not prolong the lock
        counted = [r[4] for r in _attempts(admin) if r[0] == login]
        assert counted == ["true"] * LOCK_FAILURES + ["false", "false"]
        with pytest.raises(LinkRefused, match="needs a reason"):
            server.unlock_cards(admin, login, " ")
        assert "unlocked" in server.unlock_cards(admin, login, "the shift lead checked "
                                                 "the table's reader")
        assert server.acknowledge(t1, "t1", "jackpot", SUPER_CARD) == "Sam Super"
    unlocks = admin.execute(b"SELECT login, reason FROM pit_card_unlocks").fetchall()
    assert [str(u[0]) for u in unlocks] == [login]
    assert server.card_attempts(admin, 3)[0].refusal.startswith("card attempts from the login")
    admin.close()


def test_a_locked_login_cannot_flood_the_trace(link_dsn: str) -> None:
    """Issue 27: a locked login's refusals did not count, so nothing bounded them: a hostile
    table could write rows without end. A minute's share is written, the rest refused
    unwritten, and every other login's trace goes on."""
    admin = init_pit(link_dsn)
    with as_table(link_dsn, "t1") as t1, as_table(link_dsn, "t2") as t2:
        server.send_report(t1, report(jackpots_waiting=1))
        login = str(t1.info.user)
        for n in range(LOCK_FAILURES):
            with pytest.raises(LinkRefused):
                server.acknowledge(t1, "t1", "jackpot", f";99990000{n:04d}=9?")
        words = []
        for _ in range(FLOOD_PER_MINUTE + 15):
            with pytest.raises(LinkRefused) as refused:
                server.acknowledge(t1, "t1", "jackpot", SUPER_CARD)
            words.append(str(refused.value))
        assert all("locked until" in w for w in words)  # still told why, written or not
        assert "not written down" not in words[FLOOD_PER_MINUTE - 1]
        assert all("not written down" in w for w in words[FLOOD_PER_MINUTE:])
        counted = [r[4] for r in _attempts(admin) if r[0] == login]
        assert counted == ["true"] * LOCK_FAILURES + ["false"] * FLOOD_PER_MINUTE
        with pytest.raises(LinkRefused, match="no table t9"):  # another login: written
            server.acknowledge(t2, "t9", "jackpot", SUPER_CARD)
        assert [r[0] for r in _attempts(admin)][-1] == str(t2.info.user)
    admin.close()


def test_a_lock_lifts_by_itself_when_its_failures_leave_the_window(link_dsn: str) -> None:
    """The window is read on the server's clock: failures written eleven minutes ago lock
    nothing; five written nine minutes ago lock for one more minute (the owner writes them:
    the table is append-only, so the clock cannot be moved otherwise)."""
    admin = init_pit(link_dsn)
    with as_table(link_dsn, "t1") as t1:
        server.send_report(t1, report(jackpots_waiting=1))
        login = str(t1.info.user)
        for minutes in (11, 9):
            admin.execute(
                "INSERT INTO pit_card_attempts (login, caller, action, refusal, counts, at) "
                "SELECT %s, 'table t1', 'acknowledge', 'not on the list', true, "
                "clock_timestamp() - make_interval(mins => %s) FROM generate_series(1, 5)",
                [login, minutes])
            if minutes == 11:
                assert server.acknowledge(t1, "t1", "jackpot", SUPER_CARD) == "Sam Super"
        with pytest.raises(LinkRefused, match="locked until"):
            server.acknowledge(t1, "t1", "jackpot", SUPER_CARD)
        until = admin.execute("SELECT pit_card_locked_until(%s) - clock_timestamp()",
                              [login]).fetchone()
        assert until is not None and 0 < until[0].total_seconds() <= 60
    admin.close()


def test_without_a_card_the_administrator_adds_only_the_first_executive(link_dsn: str
                                                                        ) -> None:
    admin = init_pit(link_dsn)  # X1 was put on the list without a card
    for role in ("executive", "dealer"):
        with pytest.raises(LinkRefused, match="first executive"):
            server.set_staff(admin, executive_track=None, employee_id="X2", name="Max",
                             role=role, card_track=";8888000088880000?", enabled=True,
                             reason="a second one, no card")
    # with the executive's card, the administrator's terminal changes it as anyone's
    assert server.set_staff(admin, executive_track=EXEC_CARD, employee_id="X2", name="Max",
                            role="executive", card_track=";8888000088880000?", enabled=True,
                            reason="hired") > 0
    admin.close()


def test_the_server_takes_only_what_every_table_takes(link_dsn: str) -> None:
    """The staff list's changes reach every table's replica: an id, a name or a card hash a
    table would refuse, or a weak hash, is refused at the server, whatever the caller sends
    (the call made by hand, past the console's own checks)."""
    admin = init_pit(link_dsn)
    good_hash = hash_card("8888000088880000")
    weak_hash = hash_card("8888000088880000", KdfParams(n=2**4))
    cases = [("X 2", "Max", "8888000088880000", good_hash, "employee id"),
             ("the casino's staff list, change 99", "Max", "8888000088880000", good_hash,
              "employee id"),
             ("X2", "Max\u202eXE", "8888000088880000", good_hash, "name"),
             ("X2", "Max\nSam Super", "8888000088880000", good_hash, "name"),
             ("X2", " Max", "8888000088880000", good_hash, "name"),
             ("X2", "Max", "8888000088880000", weak_hash, "scrypt form"),
             ("X2", "Max", "8888000088880000", "plain", "scrypt form"),
             ("X2", "Max", "<script>", good_hash, "track-2")]
    with as_table(link_dsn, "t1") as t1:
        for employee, name, card, card_hash, words in cases:
            [(refusal, change)] = t1.execute(
                "SELECT * FROM pit_staff_set(%s, %s, %s, 'dealer', %s, %s, true, 'hired', NULL)",
                [EXEC_CARD.strip(";?"), employee, name, card, card_hash]).fetchall()
            assert change is None and words in str(refusal), (employee, name, refusal)
        assert server.set_staff(t1, executive_track=EXEC_CARD, employee_id="X2",
                                name="José Max", role="dealer",
                                card_track=";8888000088880000?", enabled=True,
                                reason="hired") > 0
    ids = {str(r[0]) for r in admin.execute(b"SELECT employee_id FROM pit_staff").fetchall()}
    assert ids == {"X1", "S1", "D1", "X2"}
    admin.close()


def test_an_executive_s_card_never_changes_its_holder_s_own_record(link_dsn: str) -> None:
    """As at every table: no new card, name or role for oneself on one's own card; stepping
    down only while another executive is enabled."""
    admin = init_pit(link_dsn)
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        for changes in ({"card_track": ";8888000088880000?"}, {"name": "Ella Boss"},
                        {"role": "supervisor"}, {"enabled": False}):
            args: dict[str, object] = dict(employee_id="X1", name="Ella Exec",
                                           role="executive", card_track=None, enabled=True)
            args.update(changes)
            with pytest.raises(LinkRefused, match="may not change their own record"):
                server.set_staff(pit, executive_track=EXEC_CARD, reason="myself",
                                 **args)  # type: ignore[arg-type]
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2", name="Max Exec",
                         role="executive", card_track=";8888000088880000?", enabled=True,
                         reason="a second executive")
        assert server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X1",
                                name="Ella Exec", role="executive", card_track=None,
                                enabled=False, reason="steps down") > 0
    enabled = admin.execute(b"SELECT enabled FROM pit_staff WHERE employee_id = 'X1'"
                            ).fetchone()
    assert enabled is not None and enabled[0] is False
    admin.close()
