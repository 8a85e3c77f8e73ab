"""A linked hit at the table: asked of the link's server off the owner thread, paid from the
shared meter in the server's order, recorded by the table exactly as the server paid it, and
never lost or paid twice when the answer goes missing (``dealer_console/jackpot/linked.py``).

Real parts: a PostgreSQL server of the tests' own, two table databases on files, the asker's
thread, the sender delivering the wagers."""

from __future__ import annotations

import queue
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.audit.verify import audit
from dealer_console.employees import registry
from dealer_console.errors import Refusal
from dealer_console.jackpot import linked, store
from dealer_console.jackpot.marks import MarkError
from dealer_console.jackpot.meters import MICRO
from dealer_console.jackpot.round_hook import JackpotSystem, LinkUnanswered
from dealer_console.link import server
from dealer_console.link.asker import HitAnswer, HitAsk, HitAsker
from dealer_console.link.audit import verify
from dealer_console.link.hook import LinkHook
from dealer_console.link.sender import LinkHealth, OutboxSender
from dealer_console.link.settings import LinkRefused
from dealer_console.profiles.loader import get_profile
from dealer_console.round import commands as c
from dealer_console.round.jackpot import JackpotRefused
from dealer_console.round.rules import round_rules
from dealer_console.round.table import Table
from dealer_console.storage.connection import open_table_db
from tests.jackpot.conftest import CARDS, add_staff
from tests.link.helpers import LINK, SEED, init_link, linked_game
from tests.round.helpers import deal, hands_with, set_all_house_way, settle_all

SEVEN_SF = "2c 3c 4c 5c 6c 7c 8c"
"""A natural seven-card straight flush: line 1 of FUPGPP-WA01, 100% of the main meter."""
FULL_HOUSE = "Kd Ks Kh 9c 9d 2s 4h"
"""Line 8, a fixed 6 for 1 from the tray."""


@dataclass
class LinkedTable:
    table_id: str
    path: Path
    db: Database
    table: Table
    system: JackpotSystem
    hook: LinkHook
    sender: OutboxSender
    answers: queue.SimpleQueue[HitAnswer]

    def close(self) -> None:
        self.hook.close()
        self.sender._close()
        self.db.close()


def _open(path: Path, table_id: str, dsn: str) -> LinkedTable:
    db = open_table_db(path)
    if not store.spots(db):
        store.install_game(db, linked_game(), actor="test")
        add_staff(db)
    health = LinkHealth()
    hook = LinkHook({1: LINK}, table_id, health, HitAsker(dsn, table_id))
    answers: queue.SimpleQueue[HitAnswer] = queue.SimpleQueue()
    hook.answers_to(answers.put)  # the controller queues them for its owner thread the same
    system = JackpotSystem(db, hook)
    table = Table.open(db, round_rules(get_profile("washington-face-up"), None, None),
                       jackpot=system)
    sender = OutboxSender(path, link=LINK, table_id=table_id, dsn=dsn, game=linked_game(),
                          health=health)
    return LinkedTable(table_id, path, db, table, system, hook, sender, answers)


def _play_to_hit(t: LinkedTable, hand: str, *, deliver: bool = True) -> None:
    """A round with jackpot wagers on seats 1-3 and ``hand`` dealt to seat 3, set and
    settled; the wagers delivered to the link (and its meters read back) when ``deliver``."""
    if deliver:
        t.sender.drain_once()  # the link answers: it is up
    else:
        t.hook.health.up(0)
    for seat in (1, 2, 3):
        t.table.handle(c.PlaceWager(seat, "base", 2000))
        t.table.handle(c.PlaceWager(seat, "jackpot", 100))
    t.table.handle(c.StartGame())
    if deliver:
        t.sender.drain_once()
    else:
        t.hook.health.set_meters(LINK, {"main": store.meter_states(t.db, 1)["main"]})
    t.table.handle(c.SetActionNumber(2))
    deal(t.table, hands_with({2: hand}))
    t.table.handle(c.RemainingCards(4))
    set_all_house_way(t.table)
    assert [p.mark.seat for p in t.system.marks(t.table.state)] == [3]


def _answer(t: LinkedTable) -> HitAnswer:
    return t.answers.get(timeout=30)


def test_two_tables_hit_at_once_and_the_server_orders_them(tmp_path: Path,
                                                           link_dsn: str) -> None:
    init_link(link_dsn).close()
    one, two = (_open(tmp_path / f"{n}.db", n, link_dsn) for n in ("t1", "t2"))
    try:
        for t in (one, two):
            _play_to_hit(t, SEVEN_SF)
        one.sender.drain_once()  # the meters both tables quote on: every wager in
        two.sender.drain_once()
        meter = one.hook.meters(1)
        assert meter is not None and meter == two.hook.meters(1)
        local_before = store.meter_states(one.db, 1)
        # both supervisors swipe before either answer is back: nothing is paid yet
        for t in (one, two):
            assert t.system.confirm(t.table, CARDS["supervisor"]) is None
            assert t.system.asking() == f"seat 3's hit on the jackpot link {LINK}"
            with pytest.raises(JackpotRefused, match="is paying seat 3's hit"):
                t.system.confirm(t.table, CARDS["executive"])
        hits = {t.table_id: t.system.answered(t.table, _answer(t)) for t in (one, two)}
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
            mine = hits[hit.table_id]
            assert mine is not None
            assert (mine.amount_cents, mine.from_meter_cents, mine.meter_before_micro,
                    mine.meter_after_micro, mine.link, mine.link_hit_id) == (
                hit.amount_cents, hit.from_meter_cents, hit.meter_before_micro,
                hit.meter_after_micro, LINK, hit.hit_id)
        # the table's own meter for the linked game paid nothing: it only counts its wagers
        assert store.meter_states(one.db, 1) == local_before
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
    t = _open(tmp_path / "t1.db", "t1", link_dsn)
    _play_to_hit(t, FULL_HOUSE)
    t.system.confirm(t.table, CARDS["supervisor"])
    paid = _answer(t)  # the server paid it; the table goes down before recording it
    assert paid.hit is not None and paid.hit.amount_cents == 600
    t.close()
    t = _open(tmp_path / "t1.db", "t1", link_dsn)
    try:
        t.sender.drain_once()
        state = t.table.state
        assert linked.open_asks(t.db, state.round_id) == [linked.OpenAsk(1, 3, 8)]
        t.system.select_seat(state, 1, 3)
        with pytest.raises(MarkError, match="may have paid it"):
            t.system.press_hand(state, 1, 8)  # not cleared: the link may have paid it
        with pytest.raises(JackpotRefused, match="not confirmed"):
            t.system.end_game(t.db, state.round_id)
        t.system.confirm(t.table, CARDS["supervisor"])
        hit = t.system.answered(t.table, _answer(t))
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
    t = _open(tmp_path / "t1.db", "t1", link_dsn)
    try:
        _play_to_hit(t, FULL_HOUSE, deliver=False)  # the wagers have not reached the link
        t.system.confirm(t.table, CARDS["supervisor"])
        with pytest.raises(JackpotRefused, match=r"nothing was paid: .*not received"):
            t.system.answered(t.table, _answer(t))
        state = t.table.state
        assert linked.open_asks(t.db, state.round_id) == []
        assert store.hit_for(t.db, state.round_id, 1, 3) is None
        t.system.select_seat(state, 1, 3)
        assert t.system.press_hand(state, 1, 8) is None  # the dealer may clear it now
    finally:
        t.close()


def test_an_unanswered_ask_may_have_been_paid_and_says_so(tmp_path: Path,
                                                          link_dsn: str) -> None:
    init_link(link_dsn).close()
    t = _open(tmp_path / "t1.db", "t1", link_dsn)
    try:
        _play_to_hit(t, FULL_HOUSE)
        t.system.confirm(t.table, CARDS["supervisor"])
        asked = _answer(t).ask
        lost = HitAnswer(asked, failed="the link server stopped answering")
        with pytest.raises(LinkUnanswered, match="may have paid"):
            t.system.answered(t.table, lost)
        assert linked.open_asks(t.db, t.table.state.round_id) == [linked.OpenAsk(1, 3, 8)]
        assert t.system.answered(t.table, lost) is None  # an answer to nothing asked
    finally:
        t.close()


def test_the_server_refuses_an_award_above_what_the_card_may_confirm(link_dsn: str) -> None:
    conn = init_link(link_dsn)
    try:
        t = HitAsker(link_dsn, "t1")
        ask = HitAsk(LINK, 1, 1, 3, 1, "S1", most_cents=SEED - 1)
        answer = t.answer(ask)  # no wager delivered: refused before the amount matters
        assert answer.refused is not None and "not received" in answer.refused
        from dealer_console.link.records import Owed

        server.contribute(conn, LINK, "t1", [Owed(1, 1, 1, 3, 100, "2026-11-23T00:00:00Z")])
        answer = t.answer(ask)
        assert answer.refused is not None and "executive's card is needed" in answer.refused
        with pytest.raises(LinkRefused):
            server.confirm_hit(conn, LINK, "t1", round_id=1, spot=1, seat=3, line_no=1,
                               employee_id="S1", most_cents=SEED - 1)
        assert server.hits(conn, LINK) == []
        assert t.answer(HitAsk(LINK, 1, 1, 3, 1, "S1", None)).hit is not None
        t.stop()
    finally:
        conn.close()


def test_a_linked_hit_is_never_paid_from_the_tables_own_meter(tmp_path: Path,
                                                               link_dsn: str) -> None:
    init_link(link_dsn).close()
    t = _open(tmp_path / "t1.db", "t1", link_dsn)
    try:
        _play_to_hit(t, FULL_HOUSE)
        supervisor = registry.get(t.db, "S1")
        with pytest.raises(Refusal, match="paid only by the link's server"):
            t.table.handle(c.JackpotHit(3, 8, supervisor, 1))
        assert store.hit_for(t.db, t.table.state.round_id, 1, 3) is None
    finally:
        t.close()
