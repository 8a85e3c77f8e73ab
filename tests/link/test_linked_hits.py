"""A linked hit at the table: asked of the link's server off the owner thread, paid from the
shared meter in the server's order, recorded by the table exactly as the server paid it, and
never lost or paid twice when the answer goes missing (``dealer_console/jackpot/linked.py``).

Real parts: a PostgreSQL server of the tests' own, two table databases on files, the asker's
thread, the sender delivering the wagers."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.employees import registry
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.jackpot import games, hits, linked
from dealer_console.jackpot_values.link_records import HitAnswer, HitAsk
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.link.health import now as taken_now
from dealer_console.round import commands as c
from dealer_console.round.jackpot import JackpotRefused
from dealer_console.storage.connection import connect
from dealer_link import server
from dealer_link.asker import HitAsker
from dealer_link.audit import verify
from dealer_link.reconcile import reconcile
from dealer_link.settings import LinkRefused
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import answered, mark_refused, swipe
from tests.link.helpers import (
    FULL_HOUSE,
    LINK,
    SEED,
    SEVEN_SF,
    as_table,
    init_link,
    open_linked,
    play_to_hit,
    table_dsn,
)
from tests.round.helpers import settle_all


def test_two_tables_hit_at_once_and_the_server_orders_them(tmp_path: Path,
                                                           link_dsn: str) -> None:
    init_link(link_dsn).close()
    one, two = (open_linked(tmp_path / f"{n}.db", n, link_dsn) for n in ("t1", "t2"))
    try:
        for t in (one, two):
            play_to_hit(t, SEVEN_SF)
        one.sender.drain_once()  # the meters both tables quote on: every wager in
        two.sender.drain_once()
        meter = one.hook.meters(1)
        assert meter is not None and meter == two.hook.meters(1)
        local_before = games.meter_states(one.db, 1)
        # both supervisors swipe before either answer is back: nothing is paid yet
        for t in (one, two):
            assert swipe(t.system, t.table, CARDS["supervisor"]) is None
            assert t.system.asking() == f"seat 3's hit on the jackpot link {LINK}"
            with pytest.raises(JackpotRefused, match="is paying seat 3's hit"):
                swipe(t.system, t.table, CARDS["executive"])
        paid = {t.table_id: answered(t.system, t.table, t.answer()) for t in (one, two)}
        conn = server.connect(link_dsn)
        try:
            ordered = server.hits(conn, LINK)
            problems = verify(conn)
            shared_now = server.meter_states(conn, LINK)["main"]
        finally:
            conn.close()
        assert problems == []
        first, second = ordered  # the server's order: the first took the whole meter
        assert first.amount_cents == meter["main"].meter_micro // MICRO
        assert first.meter_after_micro == second.meter_before_micro  # reseeded between
        assert second.amount_cents == second.meter_before_micro // MICRO  # type: ignore[operator]
        assert second.meter_after_micro == shared_now.meter_micro
        assert shared_now.meter_micro >= SEED * MICRO
        for hit in ordered:  # each table recorded the server's amounts, the link named
            mine = paid[hit.table_id]
            assert mine is not None
            assert (mine.amount_cents, mine.from_meter_cents, mine.meter_before_micro,
                    mine.meter_after_micro, mine.link, mine.link_hit_id) == (
                hit.amount_cents, hit.from_meter_cents, hit.meter_before_micro,
                hit.meter_after_micro, LINK, hit.hit_id)
        # the table's own meter for the linked game paid nothing: it only counts its wagers
        assert games.meter_states(one.db, 1) == local_before
        for t in (one, two):
            settle_all(t.table)
            t.table.handle(c.EndGame())
            report = audit(t.db)
            assert report.ok, report.problems
    finally:
        one.close()
        two.close()


def test_a_lost_answer_keeps_the_mark_and_the_next_swipe_learns_the_same_award(
        tmp_path: Path, link_dsn: str) -> None:
    init_link(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    play_to_hit(t, FULL_HOUSE)
    swipe(t.system, t.table, CARDS["supervisor"])
    paid = t.answer()  # the server paid it; the table goes down before recording it
    assert paid.hit is not None and paid.hit.amount_cents == 600
    t.close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        t.sender.drain_once()
        state = t.table.state
        assert linked.open_asks(t.db, state.round_id) == [linked.OpenAsk(1, 3, 8)]
        t.system.select_seat(state, 1, 3)
        with mark_refused("may have paid it"):
            t.system.press_hand(state, 1, 8)  # not cleared: the link may have paid it
        with pytest.raises(JackpotRefused, match="not confirmed"):
            t.system.end_game(t.db, state.round_id)
        swipe(t.system, t.table, CARDS["supervisor"])
        hit = answered(t.system, t.table, t.answer())
        assert hit is not None and hit.link_hit_id == paid.hit.hit_id
        assert hit.amount_cents == 600 and hit.from_tray_cents == 600
        conn = server.connect(link_dsn)
        try:
            assert len(server.hits(conn, LINK)) == 1  # asked twice, paid once
        finally:
            conn.close()
        assert linked.open_asks(t.db, state.round_id) == []
        settle_all(t.table)
        t.table.handle(c.EndGame())
        assert audit(t.db).ok
    finally:
        t.close()


def test_a_refused_ask_pays_nothing_and_frees_the_mark(tmp_path: Path, link_dsn: str) -> None:
    init_link(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE, deliver=False)  # the wagers have not reached the link
        t.system.select_seat(t.table.state, 1, 3)
        with mark_refused("stays marked"):
            t.system.press_hand(t.table.state, 1, 8)  # the console's mark, nothing refused yet
        swipe(t.system, t.table, CARDS["supervisor"])
        with pytest.raises(JackpotRefused, match=r"nothing was paid: .*not received"):
            answered(t.system, t.table, t.answer())
        state = t.table.state
        assert linked.open_asks(t.db, state.round_id) == []
        assert hits.hit_for(t.db, state.round_id, 1, 3) is None
        t.system.select_seat(state, 1, 3)
        assert t.system.press_hand(state, 1, 8) is None  # the dealer may clear it now: the
        assert linked.was_refused(t.db, state.round_id, 1, 3)  # refusal is on record
    finally:
        t.close()


def test_an_unanswered_ask_may_have_been_paid_and_says_so(tmp_path: Path,
                                                          link_dsn: str) -> None:
    init_link(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE)
        swipe(t.system, t.table, CARDS["supervisor"])
        asked = t.answer().ask
        lost = HitAnswer(asked, failed="the link server stopped answering")
        with pytest.raises(Refusal, match="may have paid") as unanswered:
            answered(t.system, t.table, lost)
        assert unanswered.value.code is RefusalCode.LINK_UNANSWERED
        assert linked.open_asks(t.db, t.table.state.round_id) == [linked.OpenAsk(1, 3, 8)]
        assert answered(t.system, t.table, lost) is None  # an answer to nothing asked
    finally:
        t.close()


def test_the_server_refuses_an_award_above_what_the_card_may_confirm(link_dsn: str) -> None:
    conn = init_link(link_dsn)
    try:
        t = HitAsker(table_dsn(link_dsn, "t1"), "t1")
        ask = HitAsk(LINK, 1, 1, 3, 1, "S1", most_cents=SEED - 1)
        answer = t.answer(ask)  # no wager delivered: refused before the amount matters
        assert answer.refused is not None and "not received" in answer.refused
        from dealer_console.jackpot_values.link_records import Owed

        t1 = as_table(link_dsn, "t1")
        server.contribute(t1, LINK, "t1", [Owed(1, 1, 1, 3, 100, taken_now())])
        answer = t.answer(ask)
        assert answer.refused is not None and "executive's card is needed" in answer.refused
        with pytest.raises(LinkRefused):
            server.confirm_hit(t1, LINK, "t1", round_id=1, spot=1, seat=3, line_no=1,
                               employee_id="S1", most_cents=SEED - 1)
        assert server.hits(conn, LINK) == []
        assert t.answer(HitAsk(LINK, 1, 1, 3, 1, "S1", None)).hit is not None
        t.stop()
    finally:
        conn.close()


def test_a_linked_hit_is_never_paid_from_the_tables_own_meter(tmp_path: Path,
                                                               link_dsn: str) -> None:
    init_link(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE)
        supervisor = registry.get(t.db, "S1")
        with pytest.raises(Refusal, match="paid only by the link's server"):
            t.table.handle(c.JackpotHit(3, 8, supervisor, 1))
        assert hits.hit_for(t.db, t.table.state.round_id, 1, 3) is None
    finally:
        t.close()


def test_reconcile_names_a_confirmer_rewritten_on_the_server(tmp_path: Path,
                                                             link_dsn: str) -> None:
    """The table keeps who confirmed each linked hit as its console authorised them; an
    outside review rewrote the server's row (as the schema's owner, its trigger off) to name
    another confirmer, and nothing on the server noticed. ``link reconcile`` does."""
    init_link(link_dsn).close()
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, FULL_HOUSE)
        swipe(t.system, t.table, CARDS["supervisor"])
        hit = answered(t.system, t.table, t.answer())
        assert hit is not None and hit.link_hit_id is not None
        with server.connect(link_dsn) as conn:
            assert reconcile(conn, tmp_path / "t1.db") == []
            conn.execute(b"ALTER TABLE link_hits DISABLE TRIGGER USER")
            conn.execute(b"UPDATE link_hits SET employee_id = 'X9'")
            conn.execute(b"ALTER TABLE link_hits ENABLE TRIGGER USER")
            conn.commit()
            assert reconcile(conn, tmp_path / "t1.db") == [
                f"link {LINK} table t1 hit {hit.link_hit_id}: confirmed by {hit.employee_id} "
                "at the table, by X9 on the server"]
    finally:
        t.close()


def test_a_server_hit_logged_twice_at_the_table_is_reported(tmp_path: Path,
                                                            link_dsn: str) -> None:
    """The audit holds each of the server's hits to one award at the table: a second linked
    hit rewritten to carry the first's hit id (chain recomputed, tables made to agree) is
    reported, not taken as a second payment of the same hit."""
    from tests.cli.audit_helpers import resync_tables, rewrite_event

    init_link(link_dsn).close()
    path = tmp_path / "t1.db"
    t = open_linked(path, "t1", link_dsn)
    try:
        ids = []
        for _ in range(2):
            play_to_hit(t, FULL_HOUSE)
            swipe(t.system, t.table, CARDS["supervisor"])
            hit = answered(t.system, t.table, t.answer())
            assert hit is not None and hit.link_hit_id is not None
            ids.append(hit.link_hit_id)
            settle_all(t.table)
            t.table.handle(c.EndGame())
        assert len(set(ids)) == 2 and audit(t.db).ok
        second, = [seq for seq, in t.db.execute(
            "SELECT seq FROM events WHERE kind = 'jackpot_hit' AND "
            "json_extract(payload, '$.link_hit_id') = ?", [ids[1]])]
    finally:
        t.close()
    rewrite_event(path, second, lambda p: p.update(link_hit_id=ids[0]))
    resync_tables(path)
    db = connect(path)
    try:
        report = audit(db)
    finally:
        db.close()
    assert not report.ok
    assert any(f"the link {LINK}'s hit {ids[0]} is paid again" in p for p in report.problems)
