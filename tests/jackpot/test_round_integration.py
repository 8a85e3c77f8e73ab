"""The jackpot system inside the round: START GAME feeds the meters in the round's transaction,
marks are shown, swipes confirm in order, refusals are logged and change nothing, END GAME
waits for every marked hit, and the round's money and the meters both audit clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.audit.verify import audit
from dealer_console.employees.authorize import Refused as SwipeRefused
from dealer_console.errors import Refusal
from dealer_console.jackpot import games
from dealer_console.jackpot.audit import verify_meters
from dealer_console.jackpot.system import JackpotSystem
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.jackpot_values.paytable import load
from dealer_console.profiles.loader import get_profile
from dealer_console.round import commands as c
from dealer_console.round.jackpot import JackpotRefused
from dealer_console.round.machine import Refused
from dealer_console.round.rules import round_rules
from dealer_console.round.state import Phase
from dealer_console.round.table import Table
from dealer_console.table_db import open_table_db
from tests.jackpot.conftest import CARDS, add_staff
from tests.jackpot.swipes import swipe
from tests.round.helpers import deal, hands_with, set_all_house_way, settle_all

SEVEN_SF = "2c 3c 4c 5c 6c 7c 8c"
FIVE_ACES = "As Ad Ah Ac JK 2d 7h"
FOUR_KINGS = "Ks Kd Kh Kc 3d 9h Jc"


def _table(tmp_path: Path, paytable: str = "fupgpp-wa03") -> tuple[Table, JackpotSystem]:
    db = open_table_db(tmp_path / "table.db")
    add_staff(db)
    pt = load(paytable)
    games.install_game(db, GameConfig(
        spot=1, paytable=pt, mode=JackpotMode.HOUSE, executive_threshold_cents=100_000,
        levels=level_configs(pt, {lv: {"seed": "$1,000", "contribution": "15%",
                                       "reserve": "2%"} for lv in pt.levels})), actor="test")
    system = JackpotSystem(db)
    table = Table.open(db, round_rules(get_profile("washington-face-up"), None, None),
                       jackpot=system)
    return table, system


def _to_banker_set(table: Table, fixed: dict[int, str], seats: tuple[int, ...] = (1, 2, 3)
                   ) -> None:
    for seat in seats:
        table.handle(c.PlaceWager(seat, "base", 2000))
        table.handle(c.PlaceWager(seat, "jackpot", 100))
    table.handle(c.StartGame())
    table.handle(c.SetActionNumber(2))  # hands_with index 0 to seat 1, 1 to seat 2, ...
    deal(table, hands_with(fixed))
    table.handle(c.RemainingCards(4))


def _to_settlement(table: Table, fixed: dict[int, str], seats: tuple[int, ...] = (1, 2, 3)
                   ) -> None:
    _to_banker_set(table, fixed, seats)
    set_all_house_way(table)


def _meter(db: Database) -> int:
    return games.meter_states(db, 1)["main"].meter_micro


def test_start_game_feeds_the_meter_in_the_rounds_transaction(tmp_path: Path) -> None:
    table, _system = _table(tmp_path)
    for seat in (1, 2):
        table.handle(c.PlaceWager(seat, "base", 2000))
        table.handle(c.PlaceWager(seat, "jackpot", 100))
    assert _meter(table.db) == 1000_00 * MICRO
    table.handle(c.StartGame())
    # two $1 wagers at 15%: 30 cents, exactly
    assert _meter(table.db) == (1000_00 + 30) * MICRO
    assert games.wagered_seats(table.db, table.state.round_id, 1) == {1, 2}


def test_a_wrong_wager_amount_refuses_start_game_and_writes_nothing(tmp_path: Path) -> None:
    table, system = _table(tmp_path)
    events = table.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    with pytest.raises(JackpotRefused, match=r"fixed \$1\.00, not \$5\.00"):
        system.start_game(table.db, 1, {1: {1: 500}})
    with pytest.raises(JackpotRefused, match="no jackpot game is installed"):
        system.start_game(table.db, 1, {2: {1: 100}})
    assert table.db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == events
    assert table.db.execute("SELECT COUNT(*) FROM jackpot_wagers").fetchone()[0] == 0


def test_two_meter_hits_paid_in_order_with_every_refusal(tmp_path: Path) -> None:
    """Seat 3's 7-card straight flush (100%) is farther right than seat 1's five aces (10%):
    it is paid first, the meter resets to seed + reserve, then the 10% comes off the new
    meter. A dealer's, a technician's, a disabled, an unknown card are refused and logged; a
    supervisor cannot confirm the 100% award (above the threshold); END GAME waits."""
    table, system = _table(tmp_path)
    _to_settlement(table, {0: FIVE_ACES, 2: SEVEN_SF})
    pending = system.marks(table.state)
    assert [(p.mark.seat, p.mark.line.label) for p in pending] == [
        (3, pending[0].mark.line.label), (1, pending[1].mark.line.label)]
    assert system.required(pending[0]) == "executive"
    settle_all(table)
    with pytest.raises(Refused, match="not confirmed"):
        table.handle(c.EndGame())
    before = _meter(table.db)
    for who, reason in (("dealer", "role may not"), ("technician", "role may not"),
                        ("disabled", "employee disabled"), ("unknown", "unknown card"),
                        ("supervisor", "role may not")):
        with pytest.raises(SwipeRefused) as refused:
            swipe(system, table, CARDS[who])
        assert refused.value.reason.value.startswith(reason)
    assert _meter(table.db) == before
    logged = table.db.execute(
        "SELECT COUNT(*) FROM employee_log WHERE action = 'swipe_refused'").fetchone()[0]
    assert logged == 5  # each refusal committed on its own
    assert table.db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 0
    top = swipe(system, table, CARDS["executive"])
    assert top.seat == 3 and top.amount_cents == before // MICRO
    reset = _meter(table.db)
    assert reset == before - top.amount_cents * MICRO + 1000_00 * MICRO + 6 * MICRO
    ten = swipe(system, table, CARDS["supervisor"])
    assert ten.seat == 1 and ten.amount_cents == reset // (10 * MICRO)
    table.handle(c.EndGame())
    assert table.state.phase is Phase.BETTING and table.state.round_id == 2
    event = table.db.execute("SELECT payload FROM events WHERE kind = 'jackpot_hit' "
                             "ORDER BY seq").fetchall()
    assert len(event) == 2 and all(CARDS["executive"] not in e[0] for e in event)
    assert '"employee_id":"X1"' in event[0][0] and '"meter_before_cents"' in event[0][0]
    report = audit(table.db)
    assert report.ok, report.problems
    assert verify_meters(table.db) == []
    awards = table.db.execute("SELECT SUM(returned_cents) FROM settlement_lines WHERE kind"
                              " LIKE 'jackpot_award_%'").fetchone()[0]
    assert awards == top.amount_cents + ten.amount_cents


def test_the_tray_pay_is_paid_once_by_the_confirmation_not_by_settlement(tmp_path: Path
                                                                         ) -> None:
    table, system = _table(tmp_path)
    _to_settlement(table, {1: FOUR_KINGS})
    settle_all(table)
    wager = table.db.execute("SELECT outcome, staked_cents, returned_cents, house_delta_cents"
                             " FROM settlement_lines WHERE kind = 'jackpot' AND seat = 2"
                             ).fetchone()
    assert tuple(wager) == ("taken", 100, 0, 100)
    hit = swipe(system, table, CARDS["supervisor"])
    assert (hit.amount_cents, hit.from_tray_cents, hit.from_meter_cents) == (75_00, 75_00, 0)
    table.handle(c.EndGame())
    paid = table.db.execute("SELECT SUM(returned_cents) FROM settlement_lines WHERE seat = 2 AND"
                            " kind LIKE 'jackpot%'").fetchone()[0]
    assert paid == 75_00
    assert audit(table.db).ok


def test_a_mark_read_from_the_cards_is_not_the_dealer_s_to_clear(tmp_path: Path) -> None:
    table, system = _table(tmp_path)
    _to_settlement(table, {1: FOUR_KINGS})
    assert [p.mark.seat for p in system.marks(table.state)] == [2]
    system.select_seat(table.state, 1, 2)
    four = system.current(table.state)
    assert four is not None
    line = four.game(1).paytable.number_of(system.marks(table.state)[0].mark.line)
    with pytest.raises(Refusal, match="call a supervisor to confirm it"):
        system.press_hand(table.state, 1, line)  # pressed again: the mark stays
    assert [p.mark.seat for p in system.marks(table.state)] == [2]
    settle_all(table)
    with pytest.raises(Refusal, match=r"not confirmed: confirm it before END GAME"):
        table.handle(c.EndGame())  # the hand is paid or the round does not end
    swipe(system, table, CARDS["supervisor"])
    table.handle(c.EndGame())
    assert table.db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 1


def test_a_restart_after_the_swipe_never_pays_twice(tmp_path: Path) -> None:
    table, system = _table(tmp_path)
    _to_settlement(table, {0: FIVE_ACES, 2: SEVEN_SF})
    settle_all(table)
    swipe(system, table, CARDS["executive"])
    path = table.db.execute("PRAGMA database_list").fetchone()[2]
    table.db.close()
    db = open_table_db(path)
    system = JackpotSystem(db)
    table = Table.open(db, table.rules, jackpot=system)
    assert [p.mark.seat for p in system.marks(table.state)] == [1]
    swipe(system, table, CARDS["supervisor"])
    table.handle(c.EndGame())
    assert db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 2
    assert audit(db).ok


def test_a_swipe_before_the_hands_are_settled_is_refused_before_its_card_is_read(
        tmp_path: Path) -> None:
    """The round takes a hit only in settlement or before END GAME. A swipe earlier was read
    (an accepted swipe logged) and, for a linked game, sent to the link's server, which paid
    and reset the shared meter, before the round refused it (an outside review)."""
    table, system = _table(tmp_path)
    _to_banker_set(table, {2: SEVEN_SF})
    assert table.state.phase is Phase.BANKER_SET and system.marks(table.state)
    logged = table.db.execute("SELECT COUNT(*) FROM employee_log").fetchone()
    with pytest.raises(Refusal, match=r"not allowed in phase banker_set .*swipe once the "
                                      r"hands are settled"):
        swipe(system, table, CARDS["executive"])
    assert table.db.execute("SELECT COUNT(*) FROM employee_log").fetchone() == logged
    set_all_house_way(table)
    settle_all(table)
    assert swipe(system, table, CARDS["executive"]) is not None  # in its time, it pays
