"""Every refusal of a confirming swipe, the back-out, and what each leaves in the logs."""

from __future__ import annotations

import sqlite3

import pytest
from sqlite_utils import Database

from dealer_console.cards import parse_cards
from dealer_console.employees.authorize import RefusalReason, Refused
from dealer_console.jackpot import games, hits
from dealer_console.jackpot.audit import verify_meters
from dealer_console.jackpot.display import meter_display
from dealer_console.jackpot.games import JackpotError
from dealer_console.jackpot.history import hit_history, meter_history
from dealer_console.jackpot.service import JackpotRound
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot_values.paytable import load
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import back_out_by_card, mark_refused, swipe_round

SEVEN_SF = parse_cards("2c 3c 4c 5c 6c 7c 8c")
FIVE_ACES = parse_cards("As Ad Ah Ac JK 2d 7h")
FULL_HOUSE = parse_cards("Kd Ks Kh 9c 9d 2s 4h")


@pytest.fixture
def game(db: Database) -> Database:
    paytable = load("fupgpp-wa03")
    games.install_game(db, GameConfig(
        spot=1, paytable=paytable, mode=JackpotMode.PROGRESSIVE,
        levels=level_configs(paytable, {"main": {"seed": "$1,000", "contribution": "15%",
                                                 "reserve": "2%"}}),
        executive_threshold_cents=50_000,
    ), actor="test")
    return db


def refusals(db: Database) -> list[str]:
    return [r[0] for r in db.execute(
        "SELECT detail FROM employee_log WHERE action = 'swipe_refused' ORDER BY entry")]


@pytest.mark.parametrize(("card", "reason"), [
    ("unknown", RefusalReason.UNKNOWN_CARD),
    ("disabled", RefusalReason.DISABLED),
    ("dealer", RefusalReason.NOT_AUTHORISED),
    ("technician", RefusalReason.NOT_AUTHORISED),
    ("supervisor", RefusalReason.NOT_AUTHORISED),  # $1,000.15 is above the $500 threshold
])
def test_a_refused_swipe_changes_nothing_but_the_log(game: Database, card: str,
                                                     reason: RefusalReason) -> None:
    jr = JackpotRound.start(game, 1, {1: [1]})
    jr.show_hands({1: SEVEN_SF})
    before = games.meter_states(game, 1)
    with pytest.raises(Refused) as info:
        swipe_round(jr, CARDS[card])
    assert info.value.reason is reason
    assert games.meter_states(game, 1) == before
    assert hit_history(game) == []
    assert refusals(game)[-1].endswith(str(info.value))
    with mark_refused("not confirmed"):
        jr.end()
    assert swipe_round(jr, CARDS["executive"]).employee_id == "X1"
    jr.end()
    assert verify_meters(game) == []


def test_a_bad_track_is_an_unknown_card(game: Database) -> None:
    jr = JackpotRound.start(game, 1, {1: [2]})
    jr.show_hands({2: FIVE_ACES})
    with pytest.raises(Refused) as info:
        swipe_round(jr, "not a card")
    assert info.value.reason is RefusalReason.UNKNOWN_CARD


def test_hits_are_confirmed_in_rule_order_and_only_once(game: Database) -> None:
    jr = JackpotRound.start(game, 1, {1: [2, 5]})
    jr.show_hands({2: SEVEN_SF, 5: FIVE_ACES})
    with mark_refused("seat 5 is paid off the meter before seat 2"):
        swipe_round(jr, CARDS["executive"], 1, 2)
    swipe_round(jr, CARDS["supervisor"], 1, 5)
    swipe_round(jr, CARDS["executive"], 1, 2)
    with pytest.raises(JackpotError, match="already confirmed"):
        swipe_round(jr, CARDS["executive"], 1, 2)
    with pytest.raises(sqlite3.IntegrityError):
        game.execute("UPDATE jackpot_hits SET amount_cents = 0")


def test_the_hand_button_toggles_and_needs_a_wagered_seat(game: Database) -> None:
    jr = JackpotRound.start(game, 1, {1: [3]})
    with mark_refused("select"):
        jr.press_hand(1, 2)
    with mark_refused("no jackpot wager"):
        jr.select_seat(1, 4)
    jr.select_seat(1, 3)
    with mark_refused("not known yet"):
        jr.press_hand(1, 6)  # no mark before the console has read the seat's cards
    jr.show_hands({3: FULL_HOUSE})
    assert [p.mark.line.label for p in jr.pending()] == ["Full house"]  # marked on sight
    with mark_refused(r"win Full house \(hand button 6\)"):
        jr.press_hand(1, 2)  # the cards do not hold five aces
    with mark_refused("marked it from the cards, so it stays marked"):
        jr.press_hand(1, 6)  # pressed again: the console's own mark is not the dealer's to undo
    (pending,) = jr.pending()
    assert pending.mark.line.label == "Full house"
    hit = swipe_round(jr, CARDS["supervisor"])
    assert hit.amount_cents == 400 and hit.from_tray_cents == 400
    with mark_refused("manual adjustment"):
        jr.press_hand(1, 6)


def test_back_out_needs_an_executive_and_a_reason_and_restores_the_meter(game: Database) -> None:
    jr = JackpotRound.start(game, 1, {1: [1, 2]})
    jr.show_hands({1: SEVEN_SF})
    before = games.meter_states(game, 1)[games.game_config(game, 1).paytable.levels[0]]
    hit = swipe_round(jr, CARDS["executive"])
    assert meter_display(game).last_hit is not None
    with pytest.raises(JackpotError, match="reason"):
        back_out_by_card(game, hit_id=hit.hit_id, reason="  ", track=CARDS["executive"])
    with pytest.raises(Refused) as info:
        back_out_by_card(game, hit_id=hit.hit_id, reason="wrong seat", track=CARDS["supervisor"])
    assert info.value.reason is RefusalReason.NOT_AUTHORISED
    back_out_by_card(game, hit_id=hit.hit_id, reason="wrong seat", track=CARDS["executive"])
    assert games.meter_states(game, 1)["main"] == before
    assert hits.get_hit(game, hit.hit_id).backed_out
    assert meter_display(game).last_hit is None
    with pytest.raises(JackpotError, match="already backed out"):
        back_out_by_card(game, hit_id=hit.hit_id, reason="again", track=CARDS["executive"])
    kinds = [e.kind for e in meter_history(game, 1, "main")]
    assert kinds == ["seed", "contribution", "contribution", "award", "reset", "adjustment"]
    assert verify_meters(game) == []


def test_the_audit_sees_a_meter_that_left_its_history(game: Database) -> None:
    JackpotRound.start(game, 1, {1: [1, 2, 3]})
    assert verify_meters(game) == []
    game.execute("UPDATE jackpot_levels SET meter_micro = meter_micro + 1")
    problems = verify_meters(game)
    assert problems and "ledger adds up to" in problems[0]


def test_a_replayed_start_game_contributes_once(game: Database) -> None:
    JackpotRound.start(game, 7, {1: [1, 2]})
    with pytest.raises(JackpotError, match="already taken"):
        JackpotRound.start(game, 7, {1: [3, 2]})
    assert games.wagered_seats(game, 7, 1) == {1, 2}
    assert verify_meters(game) == []
