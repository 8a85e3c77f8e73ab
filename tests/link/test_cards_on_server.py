"""A link that reads the confirmers' cards itself (migration ``0005_cards_on_server``,
``dealer_link/server_cards.py``), attacked with a real table's own login on the real server:
no made-up confirmer, reused, borrowed or another's pass, and no console from before, takes
anything off the shared meter; an honest table's hit is paid on the card its supervisor swiped,
which the server never keeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from dealer_console.jackpot_values.link_records import HitAsk, Owed
from dealer_console.link.health import now as taken_now
from dealer_console.round import commands as c
from dealer_console.round.jackpot import JackpotRefused
from dealer_link import admin, server
from dealer_link.asker import HitAsker
from dealer_link.audit import verify
from dealer_link.pit import server as pit
from dealer_link.settings import LinkRefused
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import answered, swipe
from tests.link.helpers import (
    LINK,
    SEVEN_SF,
    as_table,
    casino_staff,
    init_link,
    link_state,
    open_linked,
    play_to_hit,
    refused_and_unchanged,
    table_dsn,
)
from tests.round.helpers import settle_all

ROYAL_100 = 1  # WA01 line 1: 100% of the meter
FULL_HOUSE_LINE = 8  # a fixed 6 for 1 from the tray
STRANGER = "5000000000001=2912"
"""A card on no staff list (the tables' ``unknown`` card)."""


@pytest.fixture
def link(link_dsn: str) -> Iterator[tuple[server.Connection, server.Connection,
                                          server.Connection]]:
    """The administrator's connection and two tables' own on a link that reads the cards,
    each table with a jackpot wager delivered (table-a round 1 seat 3, table-b round 5
    seat 2)."""
    conn = init_link(link_dsn)
    casino_staff(conn)
    admin.set_cards_on_server(conn, LINK, True, reason="cards read by the server")
    a, b = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    for t, name, owed in ((a, "table-a", Owed(1, 1, 1, 3, 100, taken_now())),
                          (b, "table-b", Owed(5, 1, 1, 2, 100, taken_now()))):
        server.register_table(t, LINK, name, server.game_of(conn, LINK))
        server.contribute(t, LINK, name, [owed])
    yield conn, a, b
    for one in (conn, a, b):
        one.close()


def _confirm(table: server.Connection, name: str, *, employee: str = "S1",
             passes: tuple[str | None, str | None] = (None, None), round_id: int = 1,
             seat: int = 3, line_no: int = ROYAL_100) -> object:
    return server.confirm_hit(table, LINK, name, round_id=round_id, spot=1, seat=seat,
                              line_no=line_no, employee_id=employee, passes=passes)


def test_no_hit_comes_off_the_meter_without_a_card_the_server_read(
        link: tuple[server.Connection, ...]) -> None:
    conn, a, _b = link
    # a confirmer named, no card: the console's own call, and a console from before
    refused_and_unchanged(conn, lambda: _confirm(a, "table-a"), LinkRefused,
                           "only on a card the server reads")
    refused_and_unchanged(conn, lambda: server.call(
        a, "SELECT * FROM link_confirm_hit(%s, NULL, 1, 1, 3, 1, 'S1', NULL, NULL)", [LINK]),
        LinkRefused, "a console from before: update it")
    # a pass made up
    refused_and_unchanged(conn, lambda: _confirm(a, "table-a", passes=("0" * 32, None)),
                           LinkRefused, "not read by the server for this hit")
    # the paying body of before, called directly
    refused_and_unchanged(conn, lambda: a.execute(
        b"SELECT * FROM link_pay_hit('wa-link', NULL, 1, 1, 3, 1, 'S1', NULL, NULL)"),
        psycopg.errors.InsufficientPrivilege, "permission denied")
    # the table's login reads no pass, nor the casino's staff list
    for secret in (b"SELECT * FROM link_card_passes", b"SELECT * FROM pit_staff"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            a.execute(secret)


def test_a_pass_is_this_tables_this_employees_and_good_once(
        link: tuple[server.Connection, ...]) -> None:
    conn, a, b = link
    supervisor = server.present_card(b, LINK, "table-b", CARDS["supervisor"])
    assert supervisor.employee_id == "S1" and supervisor.passed is not None
    assert supervisor.passed not in repr(supervisor)  # never shown, never logged
    # table-b's pass, used by table-a
    refused_and_unchanged(conn, lambda: _confirm(a, "table-a",
                                                  passes=(supervisor.passed, None)),
                           LinkRefused, "not read by the server for this hit")
    # the supervisor's pass, for the executive
    refused_and_unchanged(conn, lambda: _confirm(b, "table-b", employee="X1", round_id=5,
                                                  seat=2, passes=(supervisor.passed, None)),
                           LinkRefused, "the card the server read is employee S1's, not X1's")
    # a dealer's card is read, but the dealer is not the link's confirmer
    dealer = server.present_card(b, LINK, "table-b", CARDS["dealer"])
    refused_and_unchanged(conn, lambda: _confirm(b, "table-b", employee="D1", round_id=5,
                                                  seat=2, passes=(dealer.passed, None)),
                           LinkRefused, "may not confirm a linked jackpot")
    hit = _confirm(b, "table-b", round_id=5, seat=2, passes=(supervisor.passed, None))
    assert isinstance(hit, server.LinkedHit) and hit.employee_id == "S1"
    # used once: on another hit it pays nothing
    server.contribute(b, LINK, "table-b", [Owed(6, 1, 1, 2, 100, taken_now())])
    refused_and_unchanged(conn, lambda: _confirm(b, "table-b", round_id=6, seat=2,
                                                  passes=(supervisor.passed, None)),
                           LinkRefused, "not read by the server for this hit")
    # asked again (a lost answer): the hit already paid, no card needed
    assert _confirm(b, "table-b", round_id=5, seat=2) == hit
    used = conn.execute(b"SELECT employee_id, table_id, hit_id FROM link_card_passes "
                        b"WHERE used_at IS NOT NULL").fetchall()
    assert used == [("S1", "table-b", hit.hit_id)]
    assert verify(conn) == []
    conn.execute(b"UPDATE link_card_passes SET hit_id = NULL")  # by the schema's owner
    assert verify(conn) == [f"link {LINK} hit {hit.hit_id}: paid off the meter while the link "
                            "read the cards itself, with no card of S1's read for it"]


def test_a_card_not_on_the_casinos_list_is_refused_and_written_down(
        link: tuple[server.Connection, ...]) -> None:
    conn, a, _b = link
    with pytest.raises(LinkRefused, match="not on the staff list"):
        server.present_card(a, LINK, "table-a", STRANGER)
    attempts = conn.execute(b"SELECT caller, action, counts FROM pit_card_attempts").fetchall()
    assert attempts == [("table table-a", f"confirm a jackpot hit on link {LINK}", True)]
    everything = repr([conn.execute(f"SELECT x::text FROM {t} x".encode()).fetchall()
                       for t in ("pit_card_attempts", "link_card_passes", "link_admin_log")])
    assert STRANGER.split("=")[0] not in everything  # the card is never kept


def test_a_tray_pay_needs_a_card_too_and_the_switch_is_the_administrators(
        link: tuple[server.Connection, ...]) -> None:
    conn, a, _b = link
    # a fixed pay from the tray moves no meter, but the server has no proof that the link
    # was down for the table (an outside review recorded a $2,500 tray hit with no card):
    # refused without a card the server read, the console's own call and one from before
    refused_and_unchanged(conn, lambda: _confirm(a, "table-a", employee="X1",
                                                  line_no=FULL_HOUSE_LINE), LinkRefused,
                           "only on a card the server reads")
    refused_and_unchanged(conn, lambda: server.call(
        a, "SELECT * FROM link_confirm_hit(%s, NULL, 1, 1, 3, 8, 'X1', NULL, NULL)", [LINK]),
        LinkRefused, "a console from before: update it")
    executive = server.present_card(a, LINK, "table-a", CARDS["executive"])
    tray = _confirm(a, "table-a", employee="X1", line_no=FULL_HOUSE_LINE,
                    passes=(executive.passed, None))
    assert isinstance(tray, server.LinkedHit) and tray.from_meter_cents == 0
    assert _confirm(a, "table-a", employee="X1", line_no=FULL_HOUSE_LINE) == tray  # asked again
    assert verify(conn) == []
    # one written with no card (as only the schema's owner could): the audit names it
    [(forged,)] = conn.execute(
        "INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, line_label, "
        "amount_cents, from_meter_cents, from_tray_cents, employee_id) VALUES (%s, 'table-a', "
        "2, 1, 3, 8, %s, 600, 0, 600, 'X1') RETURNING hit_id", [LINK, tray.line_label]
    ).fetchall()
    assert verify(conn) == [f"link {LINK} hit {forged}: paid from the tray while the link "
                            "read the cards itself, with no card of X1's read for it"]
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        a.execute(b"SELECT link_set_cards_on_server('wa-link', false, 'no')")
    [(what, detail, reason)] = conn.execute(
        b"SELECT what, detail, reason FROM link_admin_log WHERE what = 'cards on server'"
    ).fetchall()
    assert (what, detail, reason) == ("cards on server", "cards read by the server: off -> on",
                                      "cards read by the server")


def test_the_switch_is_refused_where_the_casinos_list_is_not_on_the_server(
        link_dsn: str) -> None:
    conn = init_link(link_dsn)
    try:
        with pytest.raises(LinkRefused, match="staff list is not on this server"):
            admin.set_cards_on_server(conn, LINK, True, reason="too soon")
        assert server.call(conn, "SELECT cards_on_server FROM link_games", []) == [(False,)]
    finally:
        conn.close()


def test_a_tables_hit_is_paid_on_the_card_its_supervisor_swiped(tmp_path: Path,
                                                                 link_dsn: str) -> None:
    """Through the table's own path: the swipe authorised at the table, the card handed to the
    server by the asker, the hit paid on the server's pass and recorded by the table."""
    conn = init_link(link_dsn)
    casino_staff(conn)
    admin.set_cards_on_server(conn, LINK, True, reason="cards read by the server")
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, SEVEN_SF)
        assert swipe(t.system, t.table, CARDS["supervisor"]) is None  # asked of the link
        hit = answered(t.system, t.table, t.answer())
        assert hit is not None and hit.employee_id == "S1" and hit.from_meter_cents > 0
        [(employee, hit_id)] = conn.execute(
            b"SELECT employee_id, hit_id FROM link_card_passes").fetchall()
        assert (employee, hit_id) == ("S1", hit.link_hit_id)
        settle_all(t.table)
        t.table.handle(c.EndGame())
        assert verify(conn) == []
    finally:
        t.close()
        conn.close()


def test_a_table_whose_list_differs_from_the_casinos_is_refused(tmp_path: Path,
                                                                 link_dsn: str) -> None:
    """The table knows the card as S1's, the casino as nobody's: the server's reading wins,
    nothing is paid and the dealer reads why."""
    conn = init_link(link_dsn)
    casino_staff(conn)
    pit.set_staff(conn, executive_track=CARDS["executive"], employee_id="S1",
                  name="Sam Super", role="supervisor", card_track=None, enabled=False,
                  reason="left")
    admin.set_cards_on_server(conn, LINK, True, reason="cards read by the server")
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        play_to_hit(t, SEVEN_SF)
        swipe(t.system, t.table, CARDS["supervisor"])
        with pytest.raises(JackpotRefused, match=r"nothing was paid: .*not on the staff list"):
            answered(t.system, t.table, t.answer())
        assert server.hits(conn, LINK) == []
    finally:
        t.close()
        conn.close()


def test_an_asker_on_a_link_that_takes_ids_presents_no_card(link_dsn: str) -> None:
    """Without the switch the cards are not read (nor written): the ids decide, as before."""
    conn = init_link(link_dsn)
    try:
        casino_staff(conn)
        t1 = as_table(link_dsn, "t1")
        server.contribute(t1, LINK, "t1", [Owed(1, 1, 1, 3, 100, taken_now())])
        asker = HitAsker(table_dsn(link_dsn, "t1"), "t1")
        answer = asker.answer(HitAsk(LINK, 1, 1, 3, FULL_HOUSE_LINE, "S1", None,
                                     cards=(STRANGER,)))
        assert answer.hit is not None and answer.hit.employee_id == "S1"
        assert conn.execute(b"SELECT count(*) FROM pit_card_attempts").fetchone() == (0,)
        assert conn.execute(b"SELECT count(*) FROM link_card_passes").fetchone() == (0,)
        asker.stop()
        t1.close()
    finally:
        conn.close()



def test_two_people_each_need_their_own_card_read(link: tuple[server.Connection, ...],
                                                  link_dsn: str) -> None:
    """Above the two-person level the asker hands the server both cards, the first
    confirmer's first; one card read and a second person only named pays nothing."""
    conn, a, _b = link
    admin.set_thresholds(conn, LINK, executive_cents=500_00, two_person_cents=900_00,
                         reason="two people above $900")
    asker = HitAsker(table_dsn(link_dsn, "table-a"), "table-a")
    try:
        ask = HitAsk(LINK, 1, 1, 3, ROYAL_100, "S1", None, "X1",
                     cards=(CARDS["supervisor"], CARDS["executive"]))
        swapped = HitAsk(LINK, 1, 1, 3, ROYAL_100, "S1", None, "X1",
                         cards=(CARDS["executive"], CARDS["supervisor"]))
        refused = asker.answer(swapped)
        assert refused.refused is not None and "employee X1's, where this table read S1's" \
            in refused.refused
        before = link_state(conn)
        supervisor = server.present_card(a, LINK, "table-a", CARDS["supervisor"])
        with pytest.raises(LinkRefused, match="console sent none for employee X1"):
            server.confirm_hit(a, LINK, "table-a", round_id=1, spot=1, seat=3,
                               line_no=ROYAL_100, employee_id="S1", second_employee_id="X1",
                               passes=(supervisor.passed, None))
        assert {k: v for k, v in link_state(conn).items() if k != "link_card_passes"} == {
            k: v for k, v in before.items() if k != "link_card_passes"}  # only passes made
        paid = asker.answer(ask)
        assert paid.hit is not None and paid.hit.amount_cents > 900_00
        used = conn.execute(b"SELECT employee_id FROM link_card_passes WHERE hit_id = %s "
                            b"ORDER BY employee_id", [paid.hit.hit_id]).fetchall()
        assert used == [("S1",), ("X1",)]
        assert verify(conn) == []
    finally:
        asker.stop()
