"""A table's own login against the link's new defences, as an outside review attacked them:
a connection holding the meters while it waits on a lock of its own, or several taking turns,
is ended; one login cannot fill the administrator's log with stuck connections; no card's
track is sent to a server that does not read cards; a hit waiting for the meters when the
switch turns is held to the switch as it then stands."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from dealer_console.jackpot_values.link_records import HitAsk, Owed
from dealer_console.link.health import now as taken_now
from dealer_link import admin, server
from dealer_link.asker import HitAsker
from dealer_link.audit import verify
from dealer_link.settings import LinkError
from tests.jackpot.conftest import CARDS
from tests.link.helpers import (
    FULL_HOUSE,
    LINK,
    as_table,
    casino_staff,
    init_link,
    open_linked,
    play_to_hit,
    table_dsn,
)
from tests.link.pg_server import PgServer

ROYAL_100 = 1
FULL_HOUSE_LINE = 8
HOLD = b"SELECT link_contribute(%s, NULL, '{}', '{}', '{}', '{}', '{}', '{}')"


def _login(link_dsn: str, table_id: str) -> str:
    return str(conninfo_to_dict(table_dsn(link_dsn, table_id))["user"])


def ended_or_done(step: Callable[[], object]) -> None:
    """An attacker's step, on a connection the server may end meanwhile (the point)."""
    with contextlib.suppress(psycopg.OperationalError):
        step()


def _stuck_lines(conn: server.Connection) -> int:
    return int(str(conn.execute(b"SELECT count(*) FROM link_admin_log "
                                b"WHERE what = 'stuck connection'").fetchone()[0]))


# -- 0006: a stuck holder that looks "waiting" is never ended -------------------------------

def test_a_holder_waiting_on_its_own_advisory_lock_is_ended(tmp_path: Path,
                                                                link_dsn: str) -> None:
    """table-a locks the meters in a transaction, then waits on an advisory lock its own
    second connection holds: it has an ungranted lock, so link_lock_holders() skips it.
    Every other table's delivery times out, end_stuck ends nothing, for as long as it likes."""
    adm = init_link(link_dsn)
    helper, stuck = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-a")
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    waiter: threading.Thread | None = None
    try:
        play_to_hit(t, FULL_HOUSE, deliver=False)
        t.sender.timeout_s = 2.0
        helper.execute(b"SELECT pg_advisory_lock(4242)")  # session lock, no link lock
        stuck.autocommit = False
        stuck.execute(HOLD, [LINK])  # the meters locked, no COMMIT
        waiter = threading.Thread(target=ended_or_done, args=(lambda: stuck.execute(
            b"SELECT pg_advisory_xact_lock(4242)"),), daemon=True)
        waiter.start()  # now "waiting": skipped by the two looks
        time.sleep(0.3)
        outcomes = []
        for _ in range(2):  # the honest table times out and asks the server to end it
            try:
                t.sender.drain_once()
                outcomes.append("delivered")
            except LinkError as exc:
                outcomes.append(str(exc))
        assert _stuck_lines(adm) >= 1 and "delivered" in outcomes, (
            f"the stuck holder was never ended; the honest table got: {outcomes}")
    finally:
        helper.close()  # releases the advisory lock: the waiter gets it
        if waiter is not None:
            waiter.join(5)
        stuck.close()
        t.close()
        adm.close()


# -- a table's login stops another table's card reading (the pit's advisory key) ---------

def test_a_table_login_cannot_block_another_tables_cards(link_dsn: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """pit_card_gate serialised a login's card attempts on an advisory key any login may
    take: table-a took table-b's, and table-b's linked hit could never be paid (its asker's
    present_card waited until its timeout: "no answer, it may have paid"). The turn is now
    the login's own row of pit_card_turns (migration pit_0002_card_turns), which no login
    touches but through the gate."""
    monkeypatch.setattr("dealer_link.asker.ASK_TIMEOUT_S", 2)
    conn = init_link(link_dsn)
    casino_staff(conn)
    admin.set_cards_on_server(conn, LINK, True, reason="cards read by the server")
    a, b = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    server.contribute(b, LINK, "table-b", [Owed(5, 1, 1, 2, 100, taken_now())])
    victim = _login(link_dsn, "table-b")
    a.execute(b"SELECT pg_advisory_lock(hashtext('pit card ' || %s))", [victim])
    asker = HitAsker(table_dsn(link_dsn, "table-b"), "table-b")
    try:
        answer = asker.answer(HitAsk(LINK, 5, 1, 2, ROYAL_100, "S1", None,
                                     cards=(CARDS["supervisor"],)))
        assert answer.hit is not None, (
            f"table-b's honest hit, on its supervisor's real card, was not paid: "
            f"failed={answer.failed!r}; stuck lines={_stuck_lines(conn)}")
    finally:
        asker.stop()
        for one in (a, b, conn):
            one.close()


# -- link_admin_log flooded by one table's login --------------------------------------------

def test_one_table_login_cannot_flood_link_admin_log(link_dsn: str) -> None:
    """table-a opens connections that each read link_game() in a transaction left open,
    then calls link_end_stuck itself: one append-only line per connection, with no bound."""
    adm = init_link(link_dsn)
    caller = as_table(link_dsn, "table-a")
    dsn = table_dsn(link_dsn, "table-a")
    started = time.monotonic()
    try:
        for _ in range(3):
            idle = []
            for _ in range(40):
                c = psycopg.connect(dsn)  # autocommit off: a transaction left open
                c.execute(b"SELECT * FROM link_game(%s)", [LINK])
                idle.append(c)
            server.end_stuck(caller, LINK)
            for c in idle:
                c.close()
        lines, took = _stuck_lines(adm), time.monotonic() - started
        assert lines <= 20, f"one table's login wrote {lines} append-only lines to " \
                            f"link_admin_log in {took:.1f} s"
    finally:
        caller.close()
        adm.close()


# -- 0005: the card's track goes to the server where the link does not read cards ---------

def test_no_track_is_sent_where_the_link_does_not_read_cards(
        link_dsn: str, pg_server: PgServer) -> None:
    """Switch off (the default): the asker still calls link_present_card with the swiped
    track (reads_cards only asks whether the function exists); the server's statement log
    shows the supervisor's card."""
    conn = init_link(link_dsn)
    try:
        login = _login(link_dsn, "t1")
        conn.execute(f'ALTER ROLE "{login}" SET log_statement = \'all\''.encode())
        t1 = as_table(link_dsn, "t1")
        server.contribute(t1, LINK, "t1", [Owed(1, 1, 1, 3, 100, taken_now())])
        asker = HitAsker(table_dsn(link_dsn, "t1"), "t1")
        answer = asker.answer(HitAsk(LINK, 1, 1, 3, FULL_HOUSE_LINE, "S1", None,
                                     cards=(CARDS["supervisor"],)))
        asker.stop()
        t1.close()
        assert answer.hit is not None
        assert server.call(conn, "SELECT cards_on_server FROM link_games", []) == [(False,)]
        time.sleep(0.5)
        logged = [line for line in (pg_server.root / "log").read_text().splitlines()
                  if CARDS["supervisor"] in line]
        assert logged == [], f"the server received the card: {logged}"
    finally:
        conn.close()


# -- 0005: the switch and the meters --------------------------------------------------------

def test_a_hit_waiting_its_turn_when_the_switch_turns_is_held_to_the_switch_in_force(
        link_dsn: str) -> None:
    """A hit asked without a card waits for the meters behind another table's statement while
    the administrator turns the cards on: the switch waits for the meters too, so the hit is
    decided by the switch as it stood when the hit had them, and the audit agrees (the review
    found it paid with no card after the switch, and named as uncarded by the audit)."""
    conn = init_link(link_dsn)
    casino_staff(conn)
    a, holder = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    try:
        server.contribute(a, LINK, "table-a", [Owed(1, 1, 1, 3, 100, taken_now())])
        server.contribute(holder, LINK, "table-b", [Owed(5, 1, 1, 2, 100, taken_now())])
        server.confirm_hit(holder, LINK, "table-b", round_id=5, spot=1, seat=2,
                           line_no=FULL_HOUSE_LINE, employee_id="S1")  # paid, switch off
        holder.autocommit = False  # table-b asks again for its hit: the meters locked
        holder.execute(b"SELECT * FROM link_confirm_hit(%s, NULL, 5, 1, 2, 8, 'S1', NULL, "
                       b"NULL, NULL, NULL)", [LINK])
        got: list[object] = []
        asking = threading.Thread(target=lambda: got.append(server.confirm_hit(
            a, LINK, "table-a", round_id=1, spot=1, seat=3, line_no=ROYAL_100,
            employee_id="S1")), daemon=True)
        asking.start()
        time.sleep(0.5)  # table-a's ask waits for the meters
        switching = threading.Thread(target=lambda: admin.set_cards_on_server(
            conn, LINK, True, reason="cards read by the server"), daemon=True)
        switching.start()  # the switch waits for them too
        time.sleep(0.3)
        holder.commit()
        asking.join(10)
        switching.join(10)
        assert len(got) == 1  # asked before the switch: paid as the switch then stood
        assert server.call(conn, "SELECT cards_on_server FROM link_games", []) == [(True,)]
        assert verify(conn) == []
    finally:
        for one in (a, holder, conn):
            one.close()


def test_holders_taking_turns_under_a_second_each_are_ended(tmp_path: Path,
                                                                  link_dsn: str) -> None:
    """No advisory lock needed: six connections of table-a take turns on the meters, each
    holding them 0.8 s in a transaction of its own and queueing again at once. No
    transaction is there at both looks, so link_end_stuck never ends anything, while every
    honest delivery waits behind the queue past its timeout."""
    adm = init_link(link_dsn)
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    stop = threading.Event()
    relay = [as_table(link_dsn, "table-a") for _ in range(6)]

    def take_turns(c: server.Connection) -> None:
        c.autocommit = False
        while not stop.is_set() and not c.closed:
            ended_or_done(lambda: (c.execute(HOLD, [LINK]), time.sleep(0.8), c.commit()))

    runners = [threading.Thread(target=take_turns, args=(c,), daemon=True) for c in relay]
    try:
        play_to_hit(t, FULL_HOUSE, deliver=False)
        t.sender.timeout_s = 2.0
        for r in runners:
            r.start()
            time.sleep(0.05)
        time.sleep(1)
        outcomes = []
        for _ in range(3):
            try:
                t.sender.drain_once()
                outcomes.append("delivered")
            except LinkError as exc:
                outcomes.append(str(exc))
        assert "delivered" in outcomes or _stuck_lines(adm) > 0, (
            f"nothing ended, no delivery: {outcomes}")
    finally:
        stop.set()
        for r in runners:
            r.join(5)
        for c in relay:
            c.close()
        t.close()
        adm.close()
