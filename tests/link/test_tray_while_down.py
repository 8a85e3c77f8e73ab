"""Issue 25: a linked game's tray pay does not stop the table when the link goes down
mid-round. Washington, Rules of Play item 9 b: hands other than the percentage pays are paid
from the tray and do not come off the meter, so the shared meter has nothing to decide. The
table pays it (the supervisor's card as always), END GAME goes on, and the pay is reported to
the link when it answers again: recorded there once, the shared meter untouched, and
``link reconcile`` and ``link audit`` find nothing to say. A real server is stopped and
started; the table's sender thread runs as in the console."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import psycopg

from dealer_console.audit.verify import audit
from dealer_console.jackpot.back_outs import back_out_problem
from dealer_console.link import outbox
from dealer_console.link.progress import progress_path
from dealer_console.round import commands as c
from dealer_link import server
from dealer_link.audit import verify
from dealer_link.reconcile import reconcile
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import swipe
from tests.link.helpers import FULL_HOUSE, LINK, init_link, open_linked, play_to_hit
from tests.link.pg_server import PgServer
from tests.round.helpers import settle_all


def _until(condition: object, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {seconds:g} s: {what}")
        time.sleep(0.05)


def _meters(dsn: str) -> list[tuple[object, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT level, meter_micro, reserve_micro FROM link_levels "
                            "ORDER BY level").fetchall()


def test_a_tray_pay_is_paid_at_the_table_while_the_link_is_down_and_reported_after(
        tmp_path: Path, link_dsn: str, pg_server: PgServer) -> None:
    init_link(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE)  # the wagers delivered, the link up
        meters_before = _meters(link_dsn)
        t.sender._close()  # its connections were opened on this thread by play_to_hit
        t.sender.start()
        pg_server.stop()  # the link goes down mid-round
        try:
            _until(lambda: not t.hook.health.view().up, "the link seen down")
            hit = swipe(t.system, t.table, CARDS["supervisor"])  # paid here, not refused
            assert hit is not None and (hit.amount_cents, hit.from_tray_cents) == (600, 600)
            assert hit.link is None and hit.from_meter_cents == 0
            owed = outbox.trays_undelivered(t.db, LINK, "t1", 0)  # counted as read
            assert outbox.trays_owed(t.db, LINK, "t1", 0) == len(owed) == 1
            assert outbox.trays_owed(t.db, LINK, "t1", owed[0][0]) == 0
            settle_all(t.table)
            t.table.handle(c.EndGame())  # the base game goes on
            assert audit(t.db).ok, audit(t.db).problems
            # backed out here, it would stay paid on the link, which has the report: refused
            # at the table like a hit the link paid (an outside review)
            why = back_out_problem(t.db, hit.hit_id, "misread")
            assert why is not None and f"tray pay of link {LINK}'s game" in why, why
        finally:
            pg_server.start()
        _until(lambda: t.hook.health.view().up and t.hook.health.view().owed == 0,
               "the tray pay reported once the link is back")
        with server.connect(link_dsn) as conn:
            [reported] = [h for h in server.hits(conn, LINK) if h.table_id == "t1"]
            assert (reported.round_id, reported.spot, reported.seat, reported.line_no) == (
                t.table.state.round_id - 1, 1, 3, 8)
            assert (reported.amount_cents, reported.from_tray_cents,
                    reported.from_meter_cents) == (600, 600, 0)
            assert _meters(link_dsn) == meters_before  # the shared meter did not move
            assert reconcile(conn, tmp_path / "t1.db") == []
            assert verify(conn) == []
        t.sender.stop()
        with sqlite3.connect(progress_path(tmp_path / "t1.db")) as marks:
            marks.execute("DELETE FROM sent_trays")  # the sender's mark lost
        t.sender.drain_once()  # reported again: the server answers with the hit it has
        with server.connect(link_dsn) as conn:
            assert len([h for h in server.hits(conn, LINK) if h.table_id == "t1"]) == 1
    finally:
        t.sender.stop()
        t.close()


def test_a_tray_pay_not_yet_reported_is_named_by_reconcile(
        tmp_path: Path, link_dsn: str, pg_server: PgServer) -> None:
    init_link(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE)
        t.hook.health.down("the tests cut it", 0)  # seen down; nothing sent since
        swipe(t.system, t.table, CARDS["supervisor"])
        with server.connect(link_dsn) as conn:
            said = reconcile(conn, tmp_path / "t1.db")
        assert len(said) == 1 and "$6.00 tray pay paid at the table while the link was down" \
            in said[0] and "not reported to the server yet" in said[0], said
    finally:
        t.close()
