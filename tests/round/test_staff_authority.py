"""Who may change a round after the cards are seen (an outside review of staff authority): a
player banker's hand reconstructed at a Face Up table only before any player has set against
it, once a round and with a reason; the Oxford Downs new high card only on the floor's name,
kept in the log."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_console.round.state import Phase
from dealer_console.round.table import Table
from dealer_console.setting import Setting, is_foul, make_setting
from tests.round.helpers import (
    bet_all,
    deal,
    hands_with,
    make_table,
    play_round,
    reopen,
    set_all_house_way,
    settle_all,
    start_and_act,
    take_bank,
)


def _banker_shown(tmp_path: Path, profile: str) -> Table:
    """A Face Up round with a player banker, the banker's hand set and shown, no player set."""
    for seed in range(20):
        (tmp_path / str(seed)).mkdir()
        table = make_table(tmp_path / str(seed), profile)
        take_bank(table)
        bet_all(table)
        start_and_act(table, 9)
        deal(table, hands_with({}, seed))
        table.handle(c.RemainingCards(4))
        table.handle(c.SetBankerHand())
        if table.state.phase is Phase.PLAYERS_SET:  # not an ace-high push
            assert table.state.banker_kind == "player"
            return table
    raise AssertionError("no deal without an ace-high push")


def _other(table: Table) -> Setting:
    st = table.state
    cards = st.hands[st.banker_seat]
    assert st.banker_setting is not None
    return next(setting for pair in combinations(cards, 2)
                if not is_foul(setting := make_setting(pair, [x for x in cards
                                                              if x not in pair]))
                and sorted(setting.low) != sorted(st.banker_setting.low))


@pytest.mark.parametrize("profile", ["california-face-up", "oxford-downs-face-up"])
def test_a_face_up_player_bankers_hand_stays_once_a_player_has_set_against_it(
        tmp_path: Path, profile: str) -> None:
    """Oxford Downs, "Round of Play": a hand set wrong but not foul stays once action has
    started; California, "Dealing Procedures & Round of Play": the player-dealer's hand is set
    before the players set theirs. The review re-set it after every hand was set, often."""
    table = _banker_shown(tmp_path, profile)
    first = next(s for s in table.state.seats_with_base() if s != table.state.banker_seat)
    table.handle(c.SetPlayerHand(first))
    with pytest.raises(Refused, match="players have set their hands against the banker"):
        table.handle(c.ReconstructBankerHand(_other(table), "supervisor 7", "misread"))
    set_all_house_way(table)
    assert table.state.phase is Phase.SETTLEMENT
    with pytest.raises(Refused, match="stays as set"):
        table.handle(c.ReconstructBankerHand(_other(table), "supervisor 7", "misread"))


@pytest.mark.parametrize("profile", ["california-face-up", "oxford-downs-face-up"])
def test_before_any_player_sets_a_reconstruction_is_taken_once_with_its_reason(
        tmp_path: Path, profile: str) -> None:
    table = _banker_shown(tmp_path, profile)
    other = _other(table)
    with pytest.raises(Refused, match="say why"):
        table.handle(c.ReconstructBankerHand(other, "supervisor 7"))
    assert table.state.banker_setting is not None
    with pytest.raises(Refused, match="already set that way"):
        table.handle(c.ReconstructBankerHand(table.state.banker_setting, "supervisor 7", "x"))
    table.handle(c.ReconstructBankerHand(other, "supervisor 7", "Entered wrongly"))
    assert table.state.banker_setting == other
    with pytest.raises(Refused, match="already reconstructed this round"):
        table.handle(c.ReconstructBankerHand(_other(table), "supervisor 7", "again"))
    payload = json.loads(table.db.execute(
        "SELECT payload FROM events WHERE kind = 'banker_reconstructed'").fetchone()[0])
    assert payload["reason"] == "Entered wrongly" and payload["who"] == "supervisor 7"
    detail = table.db.execute("SELECT detail FROM interventions").fetchone()[0]
    assert detail.endswith("(Entered wrongly)")
    set_all_house_way(table)
    settle_all(table)
    table.handle(c.EndGame())
    assert audit(table.db).ok


def test_catfish_bend_reconstructs_a_player_bankers_hand_midway_once(tmp_path: Path) -> None:
    """Catfish Bend, "Irregularities": noticed midway through the round, a supervisor
    reconstructs the player banker's hand (the players there set theirs first)."""
    table = make_table(tmp_path, "catfish-bend-fortune")
    play_round(table)
    table.handle(c.AcceptBank(6, 500_000))
    bet_all(table)
    start_and_act(table, 9)
    deal(table, hands_with({}, 11))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    assert table.state.phase is Phase.SETTLEMENT
    table.handle(c.ReconstructBankerHand(_other(table), "supervisor 7", "misread"))
    with pytest.raises(Refused, match="already reconstructed"):
        table.handle(c.ReconstructBankerHand(_other(table), "supervisor 7", "misread"))


def test_a_new_high_card_needs_the_floors_name_and_the_log_keeps_it(tmp_path: Path) -> None:
    """Oxford Downs, "Action Button": the dealer calls the floor and gets permission."""
    table = make_table(tmp_path, "oxford-downs-face-up")
    play_round(table)
    take_bank(table, 40_000)
    bet_all(table)
    table.handle(c.StartGame())
    st = table.state
    from dealer_console.round.decide_dealing import button_seat

    button = button_seat(st, table.rules)
    assert button is not None
    other = next(s for s in table.rules.player_seats if s not in (button, st.banker_seat))
    with pytest.raises(Refused, match="floor's permission"):
        table.handle(c.SetActionSeat(other, restart=True))
    table.handle(c.SetActionSeat(other, restart=True, who="supervisor 7"))
    payload = json.loads(table.db.execute(
        "SELECT payload FROM events WHERE kind = 'action_set' ORDER BY seq DESC LIMIT 1"
    ).fetchone()[0])
    assert payload["action_seat"] == other and payload["floor"] == "supervisor 7"
    deal(table, hands_with({}, 3))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    table.handle(c.EndGame())
    assert audit(table.db).ok


def test_the_action_button_is_put_in_play_on_the_floors_card_and_kept_at_a_redeal(
        tmp_path: Path) -> None:
    """Oxford Downs, "Action Button": the button is put in play after the dealer calls the
    floor for permission, then a high card says where it starts. A review found the first
    round's high card taken from the dealer alone. The permission is the round's: the redeal
    after a misdeal keeps the seat without a second card."""
    from dealer_console.round.decide_dealing import button_seat

    table = make_table(tmp_path, "oxford-downs-face-up")
    take_bank(table, 40_000)
    bet_all(table)
    table.handle(c.StartGame())
    assert button_seat(table.state, table.rules) is None  # not in play yet
    seat = next(s for s in table.rules.player_seats if s != table.state.banker_seat)
    with pytest.raises(Refused, match="putting the action button in play needs the floor"):
        table.handle(c.SetActionSeat(seat))
    table.handle(c.SetActionSeat(seat, who="supervisor 7"))
    payload = json.loads(table.db.execute(
        "SELECT payload FROM events WHERE kind = 'action_set' ORDER BY seq DESC LIMIT 1"
    ).fetchone()[0])
    assert payload["action_seat"] == seat and payload["floor"] == "supervisor 7"
    deal(table, hands_with({}, 3)[:2])
    table.handle(c.DeclareMisdeal("position_missed", who="supervisor 7"))
    table.handle(c.Redeal())
    assert button_seat(table.state, table.rules) == seat
    other = next(s for s in table.rules.player_seats if s not in (seat, table.state.banker_seat))
    with pytest.raises(Refused, match=f"it goes to seat {seat}"):
        table.handle(c.SetActionSeat(other))
    table.handle(c.SetActionSeat(seat))  # the dealer alone: the round's permission holds
    assert table.state.action_seat == seat
    table = reopen(table)  # the log rebuilds where the button is
    assert button_seat(table.state, table.rules) == seat
