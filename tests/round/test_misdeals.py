"""Misdeals (rules README "Round procedure"; Catfish Bend "Irregularities" 1-5) and the other
irregularities: wrong first hand, exposed cards, banker hand reconstructed by a supervisor."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from dealer_console.cards import parse_cards
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_console.round.state import MisdealReason, Phase
from dealer_console.round.table import Table
from dealer_console.setting import is_foul, make_setting
from tests.round.helpers import (
    PROFILES,
    bet_all,
    deal,
    hands_with,
    make_table,
    reopen,
    set_all_house_way,
    settle_all,
    start_and_act,
    take_bank,
)


def _dealing(tmp_path: Path, profile: str = "washington-face-up") -> Table:
    table = make_table(tmp_path, profile)
    take_bank(table)
    bet_all(table)
    start_and_act(table, 9)
    return table


def _wagers(table: Table) -> list[tuple[int, str, int]]:
    rows = table.db.execute("SELECT seat, kind, amount_cents FROM wagers WHERE round_id = ?"
                            " ORDER BY seat, kind", [table.state.round_id]).fetchall()
    return [tuple(r) for r in rows]


def _misdeal_row(table: Table) -> tuple[object, ...]:
    row = table.db.execute("SELECT reason, source, deck_count_due, deck_counted FROM misdeals"
                           " ORDER BY deal_no DESC LIMIT 1").fetchone()
    return tuple(row)


def _cause(table: Table, reason: MisdealReason) -> None:
    hands = hands_with({})
    if reason is MisdealReason.NOT_FOUR_LEFT:
        deal(table, hands)
        table.handle(c.RemainingCards(5))
    elif reason is MisdealReason.POSITION_MISSED:
        deal(table, hands[:2])
        skipped = table.state.order[3]  # the hand meant for order[2] lands one seat further
        table.handle(c.DealHand(hands[2], seat=skipped))
    elif reason is MisdealReason.CARDS_EXPOSED:
        deal(table, hands[:3])
        table.handle(c.CardsExposed(2))
        with pytest.raises(Refused, match="supervisor's card"):
            table.handle(c.CardsExposed(2))  # the dealer alone declares no misdeal
        table.handle(c.CardsExposed(2, "supervisor 7"))
    elif reason is MisdealReason.HAND_NOT_SEVEN:
        deal(table, hands[:1])
        table.handle(c.DealHand(hands[1][:6]))
    elif reason is MisdealReason.CARD_COUNT_ERROR:
        deal(table, hands[:4])
        table.handle(c.ShufflerCountError("jam at the card counter"))


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("reason", list(MisdealReason))
def test_misdeal_voids_hands_keeps_wagers_and_counts_the_deck_when_due(
        tmp_path: Path, reason: MisdealReason, profile: str) -> None:
    table = _dealing(tmp_path, profile)
    wagers = _wagers(table)
    _cause(table, reason)
    assert table.state.phase is Phase.MISDEAL
    assert table.state.misdeal_reason == reason.value
    assert _wagers(table) == wagers
    void = table.db.execute("SELECT COUNT(*), SUM(void) FROM hands").fetchone()
    assert void[0] == void[1]  # every hand of the deal is void
    due = reason in (MisdealReason.NOT_FOUR_LEFT, MisdealReason.CARD_COUNT_ERROR)
    assert _misdeal_row(table)[2] == int(due)
    if due:
        with pytest.raises(Refused, match="53 cards"):
            table.handle(c.Redeal())
        with pytest.raises(Refused, match="supervisor's card"):
            table.handle(c.DeckCounted(53))  # by hand, the dealer alone enters no count
        table.handle(c.DeckCounted(52, "supervisor 7"))  # short: play still may not resume
        with pytest.raises(Refused, match="53 cards"):
            table.handle(c.Redeal())
        table.handle(c.DeckCounted(53, "supervisor 7"))
        assert _misdeal_row(table)[3] == 53
    else:
        with pytest.raises(Refused, match="no deck count is due"):
            table.handle(c.DeckCounted(53, "supervisor 7"))
    table.handle(c.Redeal())
    assert table.state.phase is Phase.ACTION and table.state.deal_no == 1
    # play resumes with the same wagers and a fresh deal, and the round completes
    table.handle(c.SetActionNumber(10) if table.rules.action_method.value != "high_card"
                 else c.SetActionSeat(next(s for s in table.rules.player_seats
                                           if s != table.state.banker_seat)))
    deal(table, hands_with({}, seed=5))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    table.handle(c.EndGame())
    staked = table.db.execute("SELECT SUM(staked_cents) FROM settlement_lines WHERE kind IN"
                              " ('base','fortune','house_wager')").fetchone()[0]
    assert staked == sum(a for _s, k, a in wagers if k in ("base", "fortune", "house_wager"))


def test_three_exposed_cards_are_turned_back_and_play_goes_on(tmp_path: Path) -> None:
    table = _dealing(tmp_path)
    deal(table, hands_with({})[:2])
    table.handle(c.CardsExposed(3))
    assert table.state.phase is Phase.DEALING and table.state.exposed == 3
    with pytest.raises(Refused, match="4 cards exposed is a misdeal"):
        table.handle(c.CardsExposed(1))
    table.handle(c.CardsExposed(1, "supervisor 7"))
    assert table.state.phase is Phase.MISDEAL
    assert _misdeal_payload(table)["who"] == "supervisor 7"


def test_dealer_declared_misdeal_and_unknown_reason(tmp_path: Path) -> None:
    table = _dealing(tmp_path)
    with pytest.raises(Refused, match="unknown misdeal reason"):
        table.handle(c.DeclareMisdeal("bad luck"))
    with pytest.raises(Refused, match="supervisor's card"):
        table.handle(c.DeclareMisdeal("position_missed", "seat 4 skipped"))
    assert table.state.phase is Phase.DEALING
    table.handle(c.DeclareMisdeal("position_missed", "seat 4 skipped", "supervisor 7"))
    assert _misdeal_row(table)[:2] == ("position_missed", "dealer")
    assert _misdeal_payload(table)["who"] == "supervisor 7"


def _misdeal_payload(table: Table) -> dict[str, object]:
    row = table.db.execute("SELECT payload FROM events WHERE kind = 'misdeal' ORDER BY seq DESC"
                           " LIMIT 1").fetchone()
    return dict(json.loads(row[0]))


def test_repeated_card_is_a_card_count_misdeal(tmp_path: Path) -> None:
    table = _dealing(tmp_path)
    hands = hands_with({})
    deal(table, hands[:1])
    table.handle(c.DealHand(hands[0][:1] + hands[1][1:]))
    assert table.state.misdeal_reason == "card_count_error"
    assert table.state.deck_count_due


def test_wrong_first_hand_is_corrected_by_moving_the_hands(tmp_path: Path) -> None:
    table = _dealing(tmp_path)  # the first hand is due at seat 1
    hands = hands_with({})
    assert table.state.first_seat == 1
    table.handle(c.DealHand(hands[0], seat=3))  # dealer started at seat 3
    deal(table, hands[1:])  # and went on from there
    with pytest.raises(Refused, match="move the hands first"):
        table.handle(c.RemainingCards(4))
    table.handle(c.CorrectFirstHand())
    assert table.state.hands[1] == hands[0]
    assert table.state.hands[2] == hands[1]
    assert table.state.hands[0] == hands[6]
    table.handle(c.RemainingCards(4))
    stored = table.db.execute("SELECT cards FROM hands WHERE seat = 1").fetchone()[0]
    assert parse_cards(stored) == hands[0]
    assert table.db.execute("SELECT kind FROM interventions").fetchone()[0] == "first_hand_moved"
    # the shift report counts it as the dealer's correction, not a supervisor's intervention
    # (an outside review found 8 of 11 "supervisor interventions" the dealer's)
    from dealer_console.reports.shift import shift_report, summary_lines

    set_all_house_way(table)
    settle_all(table)
    table.handle(c.EndGame())
    report = shift_report(table.db, "2000-01-01T00:00+00:00", "2100-01-01T00:00+00:00")
    assert dict(summary_lines(report))["Supervisor interventions"] == (
        "0 (and 1 correction by the dealer)")


def test_correct_first_hand_refused_when_nothing_is_wrong(tmp_path: Path) -> None:
    table = _dealing(tmp_path)
    deal(table, hands_with({})[:2])
    with pytest.raises(Refused, match="nothing to move"):
        table.handle(c.CorrectFirstHand())


def test_supervisor_reconstructs_a_wrongly_set_banker_hand(tmp_path: Path) -> None:
    table = make_table(tmp_path, "catfish-bend-fortune")
    # Round 1 the dealer banks; round 2 seat 6 accepts the bank.
    from tests.round.helpers import play_round

    play_round(table)
    table.handle(c.AcceptBank(6, 500_000))
    bet_all(table)
    start_and_act(table, 9)
    deal(table, hands_with({}, 11))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)  # players, then the player banker (House Way)
    assert table.state.phase is Phase.SETTLEMENT
    banker_cards = table.state.hands[6]
    wrong = table.state.banker_setting
    assert wrong is not None
    other = next(
        setting for pair in combinations(banker_cards, 2)
        if not is_foul(setting := make_setting(
            pair, [x for x in banker_cards if x not in pair]))
        and setting.low != wrong.low)
    with pytest.raises(Refused, match="supervisor must be named"):
        table.handle(c.ReconstructBankerHand(other, ""))
    with pytest.raises(Refused, match="say why"):
        table.handle(c.ReconstructBankerHand(other, "supervisor 7"))
    table.handle(c.ReconstructBankerHand(other, "supervisor 7", "misread"))
    assert table.state.banker_setting == other
    row = table.db.execute("SELECT kind, who FROM interventions").fetchone()
    assert tuple(row) == ("banker_hand_reconstructed", "supervisor 7")
    table.handle(c.SettleNext())
    with pytest.raises(Refused, match="already settled"):
        table.handle(c.ReconstructBankerHand(wrong, "supervisor 7"))
    # the reconstruction survives a restart
    again = reopen(table)
    assert again.state.banker_setting == other


def test_the_shuffler_skipping_a_delivery_index_is_a_position_missed(tmp_path: Path) -> None:
    """The machine numbers its deliveries: hand 4 after hand 2 means a spot got nothing,
    whatever seat the dealer would have put it at."""
    table = _dealing(tmp_path)
    hands = hands_with({})
    for i in (1, 2):
        table.handle(c.DealHand(hands[i - 1], index=i))
    before = table.state
    with pytest.raises(Refused, match="delivery 2 of this deal is already applied"):
        table.handle(c.DealHand(hands[1], index=2))
    assert table.state == before
    table.handle(c.DealHand(hands[3], index=4))
    assert table.state.phase is Phase.MISDEAL
    assert _misdeal_row(table) == ("position_missed", "device", 0, None)
    assert _wagers(table)  # the wagers stay
    table.handle(c.Redeal())
    assert table.state.phase is Phase.ACTION


def test_the_shuffler_finishing_short_of_seven_hands_is_a_position_missed(tmp_path: Path
                                                                           ) -> None:
    """The cards-left report arrives while positions still wait for a hand."""
    table = _dealing(tmp_path)
    hands = hands_with({})
    deal(table, hands[:6])
    table.handle(c.RemainingCards(11))
    assert table.state.phase is Phase.MISDEAL
    assert _misdeal_row(table) == ("position_missed", "device", 0, None)
    void = table.db.execute("SELECT COUNT(*) FROM hands WHERE void = 1").fetchone()[0]
    assert void == 6
    assert reopen(table).state == table.state


@pytest.mark.parametrize("profile", ["washington-face-up", "catfish-bend-fortune"])
def test_a_house_hand_cannot_be_reconstructed_off_the_house_way(tmp_path: Path,
                                                                profile: str) -> None:
    table = make_table(tmp_path, profile)
    bet_all(table)
    start_and_act(table, 9)
    deal(table, hands_with({}, 5))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    assert table.state.phase is Phase.SETTLEMENT and table.state.banker_kind == "house"
    house = table.state.banker_setting
    assert house is not None
    cards = table.state.hands[0]
    other = next(setting for pair in combinations(cards, 2)
                 if not is_foul(setting := make_setting(pair, [x for x in cards
                                                               if x not in pair]))
                 and sorted(setting.low) != sorted(house.low))
    before = table.state
    with pytest.raises(Refused, match="House Way"):
        table.handle(c.ReconstructBankerHand(other, "supervisor 7"))
    assert table.state == before
    assert table.db.execute("SELECT COUNT(*) FROM interventions").fetchone()[0] == 0
