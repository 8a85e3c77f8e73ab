"""Each profile's round, phase by phase, through the real database, House Ways and settlement
engine; refusals that change nothing; ace-high push; fouls; banker rotation."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealer_console.profiles.loader import get_profile
from dealer_console.round import commands as c
from dealer_console.round.decide_setting import players_to_set
from dealer_console.round.machine import Refused
from dealer_console.round.state import Phase
from dealer_console.round.table import RecordsDisagree, Table, load_open_round
from dealer_console.selftest.database import check_database
from dealer_console.selftest.report import Report
from dealer_console.setting import is_foul, make_setting
from dealer_console.table_db import open_table_db
from tests.round.helpers import (
    PROFILES,
    bet_all,
    deal,
    hands_with,
    make_table,
    play_out,
    play_round,
    set_all_house_way,
    settle_all,
    start_and_act,
    take_bank,
)

P = Phase
EXPECTED_PHASES = {
    # Face Up, house banked: no bank offer; banker's hand set before the players'.
    "washington-face-up": [P.BETTING, P.ACTION, P.DEALING, P.DEAL_CHECK, P.BANKER_SET,
                           P.PLAYERS_SET, P.SETTLEMENT, P.END, P.COMPLETE],
    "california-face-up": [P.BANKER, P.BETTING, P.ACTION, P.DEALING, P.DEAL_CHECK,
                           P.BANKER_SET, P.PLAYERS_SET, P.SETTLEMENT, P.END, P.COMPLETE],
    "oxford-downs-face-up": [P.BANKER, P.BETTING, P.ACTION, P.DEALING, P.DEAL_CHECK,
                             P.BANKER_SET, P.PLAYERS_SET, P.SETTLEMENT, P.END, P.COMPLETE],
    # Fortune Pai Gow is not face up: players set first, then the banker's hand is exposed.
    "catfish-bend-fortune": [P.BETTING, P.ACTION, P.DEALING, P.DEAL_CHECK, P.PLAYERS_SET,
                             P.BANKER_SET, P.SETTLEMENT, P.END, P.COMPLETE],
}


def _phases_of_round(table: Table) -> list[Phase]:
    seen = [table.state.phase]
    original = table.handle
    round_id = table.state.round_id

    def spy(cmd: c.Command, **kw: object) -> object:
        out = original(cmd, **kw)  # type: ignore[arg-type]
        phase = Phase.COMPLETE if table.state.round_id != round_id else table.state.phase
        if phase != seen[-1]:
            seen.append(phase)
        return out

    table.handle = spy  # type: ignore[method-assign]
    play_round(table)
    table.handle = original  # type: ignore[method-assign]
    return seen


@pytest.mark.parametrize("profile", PROFILES)
def test_round_walks_the_profiles_phases(tmp_path: Path, profile: str) -> None:
    table = make_table(tmp_path, profile)
    assert _phases_of_round(table) == EXPECTED_PHASES[profile]
    row = table.db.execute("SELECT status, phase FROM rounds WHERE round_id = 1").fetchone()
    assert tuple(row) == ("complete", "complete")
    assert table.state.round_id == 2


@pytest.mark.parametrize("profile", PROFILES)
def test_every_settled_line_conserves_money(tmp_path: Path, profile: str) -> None:
    table = make_table(tmp_path, profile)
    for seed in range(6):
        play_round(table, seed=seed, number=3 + seed)
    rows = table.db.execute(
        "SELECT staked_cents, returned_cents, banker_delta_cents, house_delta_cents"
        " FROM settlement_lines").fetchall()
    assert rows
    for staked, returned, banker, house in rows:
        assert staked == returned + banker + house


def _snapshot(table: Table) -> tuple[object, ...]:
    count = table.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    rows = table.db.execute("SELECT * FROM rounds").fetchall()
    return count, [tuple(r) for r in rows], repr(table.state)


def _refused(table: Table, cmd: c.Command, match: str) -> None:
    before = _snapshot(table)
    with pytest.raises(Refused, match=match):
        table.handle(cmd)
    assert _snapshot(table) == before


def test_invalid_transitions_are_refused_and_change_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    _refused(table, c.StartGame(), "at least one base wager")
    _refused(table, c.PlaceWager(1, "fortune", 500), "needs a base wager")
    _refused(table, c.PlaceWager(1, "base", 500), "below the minimum")
    _refused(table, c.PlaceWager(1, "base", 50_100), "above the maximum")
    _refused(table, c.PlaceWager(9, "base", 2000), "not a player seat")
    _refused(table, c.PlaceWager(1, "base", 20.0), "whole cents")  # type: ignore[arg-type]
    _refused(table, c.PlaceWager(1, "backline:Ann", 2000), "takes no 'backline:Ann'")
    _refused(table, c.PlaceWager(1, "tips", 100), "takes no 'tips'")
    table.handle(c.PlaceWager(1, "base", 2000))
    _refused(table, c.PlaceWager(1, "jackpot", 500), r"fixed at \$1\.00, not \$5\.00")
    _refused(table, c.PlaceWager(1, "base", 2000), "already has")
    _refused(table, c.EndGame(), "settle every seat first")
    _refused(table, c.SetActionNumber(4), "not allowed in phase betting")
    table.handle(c.PlaceWager(2, "base", 2000))
    table.handle(c.StartGame())
    _refused(table, c.PlaceWager(3, "base", 2000), "after START GAME")
    _refused(table, c.RemoveWager(1, "base"), "locked")
    _refused(table, c.DealHand(hands_with({})[0]), "not allowed in phase action")
    table.handle(c.SetActionNumber(9))
    hands = hands_with({})
    table.handle(c.DealHand(hands[0]))
    _refused(table, c.DealHand(hands[1], seat=1), "already has a hand")
    _refused(table, c.SettleNext(), "not allowed in phase dealing")
    _refused(table, c.EndGame(), "settle every seat first")


def test_ace_high_pai_gow_pushes_every_base_wager(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    bet_all(table, ace_high=500)
    start_and_act(table, 9)  # first hand to seat 1, the dealer's spot 0 receives the last
    banker_hand = "As Kd 9c 7h 5s 3d 2c"
    deal(table, hands_with({6: banker_hand}))
    table.handle(c.RemainingCards(4))
    table.handle(c.SetBankerHand())
    assert table.state.ace_high_push
    assert table.state.phase is Phase.SETTLEMENT  # nobody sets a hand
    settle_all(table)
    outcomes = {(ln.seat, ln.kind): ln.outcome for ln in table.state.lines}
    assert all(outcomes[(s, "base")] == "push" for s in range(1, 7))
    assert all(outcomes[(s, "ace_high")] == "win" for s in range(1, 7))


def _to_players_set(tmp_path: Path, profile: str, fixed: dict[int, str]) -> Table:
    table = make_table(tmp_path, profile)
    take_bank(table)
    bet_all(table)
    start_and_act(table, 9)
    deal(table, hands_with(fixed))
    table.handle(c.RemainingCards(4))
    if table.state.phase is Phase.BANKER_SET:
        table.handle(c.SetBankerHand())
    return table


FOUL_HAND = "Ah Ad Kc 9s 7d 4c 2h"  # Aces in front is a foul


def _foul_setting(cards: str) -> object:
    from dealer_console.cards import parse_cards

    x = parse_cards(cards)
    setting = make_setting(x[:2], x[2:])
    assert is_foul(setting)
    return setting


def _seat_of_delivery(table: Table, index: int) -> int:
    return table.state.order[index]


@pytest.mark.parametrize(("profile", "how", "dead"), [
    ("california-face-up", "foul", True),
    ("oxford-downs-face-up", "foul_reset_house_way", False),
    ("catfish-bend-fortune", "foul_reset_house_way", False),
])
def test_foul_handling_per_profile(tmp_path: Path, profile: str, how: str, dead: bool) -> None:
    table = _to_players_set(tmp_path, profile, {2: FOUL_HAND})
    seat = _seat_of_delivery(table, 2)
    assert seat != table.state.banker_seat
    table.handle(c.SetPlayerHand(seat, _foul_setting(FOUL_HAND)))  # type: ignore[arg-type]
    assert table.state.set_how[seat] == how
    assert (seat in table.state.dead) is dead
    row = table.db.execute("SELECT set_how, foul_count, dead FROM hands WHERE seat = ?",
                           [seat]).fetchone()
    assert tuple(row) == (how, 1, int(dead))


def test_catfish_second_foul_is_a_dead_hand_that_loses(tmp_path: Path) -> None:
    table = _to_players_set(tmp_path, "catfish-bend-fortune", {2: FOUL_HAND})
    seat = _seat_of_delivery(table, 2)
    foul = _foul_setting(FOUL_HAND)
    table.handle(c.SetPlayerHand(seat, foul))  # type: ignore[arg-type]
    table.handle(c.SetPlayerHand(seat, foul))  # type: ignore[arg-type]
    assert seat in table.state.dead
    set_all_house_way(table)
    settle_all(table)
    base = next(ln for ln in table.state.lines if ln.seat == seat and ln.kind == "base")
    assert base.outcome == "loss"
    assert "second foul" in base.note


@pytest.mark.parametrize("fouls_first", [True, False])
def test_catfish_second_chance_whatever_the_order_the_hands_are_set(
        tmp_path: Path, fouls_first: bool) -> None:
    """Catfish Bend, "Irregularities": a first foul is reset the House Way and the player
    gets one more try. An outside review found the try given only while another hand was
    still unset: a foul by the last hand set closed the players' step at once."""
    table = _to_players_set(tmp_path, "catfish-bend-fortune", {2: FOUL_HAND})
    seat = _seat_of_delivery(table, 2)
    others = [s for s in players_to_set(table.state, table.rules) if s != seat]
    if not fouls_first:
        for other in others:
            table.handle(c.SetPlayerHand(other))
    table.handle(c.SetPlayerHand(seat, _foul_setting(FOUL_HAND)))  # type: ignore[arg-type]
    assert table.state.set_how[seat] == "foul_reset_house_way"
    if fouls_first:
        for other in others:
            table.handle(c.SetPlayerHand(other))
    assert table.state.phase is Phase.PLAYERS_SET  # the one more try waits
    assert seat in players_to_set(table.state, table.rules)
    hand = table.state.hands[seat]
    fair = make_setting(hand[2:4], hand[:2] + hand[4:])
    assert not is_foul(fair)
    table.handle(c.SetPlayerHand(seat, fair))
    assert table.state.set_how[seat] == "player" and table.state.settings[seat] == fair
    assert table.state.phase is not Phase.PLAYERS_SET
    set_all_house_way(table)  # the banker's hand, where it comes after the players'
    settle_all(table)
    base = next(ln for ln in table.state.lines if ln.seat == seat and ln.kind == "base")
    assert "foul" not in base.note


def test_catfish_a_hand_kept_the_house_way_after_its_foul_closes_the_step(
        tmp_path: Path) -> None:
    """The player who does not take the one more try keeps the House Way it was reset to:
    the dealer's House Way for that seat, or the one touch for every hand left."""
    table = _to_players_set(tmp_path, "catfish-bend-fortune", {2: FOUL_HAND})
    seat = _seat_of_delivery(table, 2)
    table.handle(c.SetPlayerHand(seat, _foul_setting(FOUL_HAND)))  # type: ignore[arg-type]
    reset = table.state.settings[seat]
    events = table.handle(c.SetHandsHouseWay())
    assert [e.payload["seat"] for e in events if e.kind == "player_set"][-1] == seat
    assert table.state.settings[seat] == reset and seat not in table.state.dead
    assert table.state.phase is not Phase.PLAYERS_SET
    assert (table.state.fouls[seat], table.state.set_how[seat]) == (1, "house_way")


def test_a_player_cannot_set_twice_where_no_second_chance(tmp_path: Path) -> None:
    table = _to_players_set(tmp_path, "washington-face-up", {})
    table.handle(c.SetPlayerHand(1))
    _refused(table, c.SetPlayerHand(1), "already set")
    _refused(table, c.SetPlayerHand(0), "is the banker")


def test_house_hand_is_always_the_house_way(tmp_path: Path) -> None:
    table = _to_players_set(tmp_path, "washington-face-up", {})
    assert table.state.banker_setting is not None
    assert table.db.execute("SELECT set_how FROM hands WHERE seat = 0").fetchone()[0] == \
        "house_way"


def _bankers(table: Table, rounds: int) -> list[tuple[int, str]]:
    out = []
    for seed in range(rounds):
        play_round(table, seed=seed)
        row = table.db.execute("SELECT banker_seat, banker_kind FROM rounds WHERE round_id = ?",
                               [seed + 1]).fetchone()
        out.append((row[0], row[1]))
    return out


def test_california_player_dealer_banks_two_rounds_then_it_moves_clockwise(
        tmp_path: Path) -> None:
    table = make_table(tmp_path, "california-face-up")
    assert _bankers(table, 5) == [(1, "player"), (1, "player"), (2, "player"), (2, "player"),
                                  (3, "player")]


def test_california_third_round_in_a_row_is_refused(tmp_path: Path) -> None:
    table = make_table(tmp_path, "california-face-up")
    play_round(table)
    play_round(table, seed=1)
    assert table.state.offer_seat == 2
    _refused(table, c.AcceptBank(1, 100_000), "offered to seat 2")


def test_oxford_designated_player_rotates_every_hand(tmp_path: Path) -> None:
    table = make_table(tmp_path, "oxford-downs-face-up")
    assert [s for s, _k in _bankers(table, 4)] == [1, 2, 3, 4]


def test_catfish_banker_button_counter_clockwise_and_back_to_the_dealer(tmp_path: Path) -> None:
    table = make_table(tmp_path, "catfish-bend-fortune")
    play_round(table)  # the dealer banks the first round
    assert table.state.phase is Phase.BANKER and table.state.offer_seat == 6
    table.handle(c.DeclineBank(6))  # seat 6 declines: the house banks
    assert (table.state.banker_seat, table.state.banker_kind) == (0, "house")
    play_round(table, seed=1)
    assert table.state.offer_seat == 5
    table.handle(c.AcceptBank(5, 200_000))
    play_round(table, seed=2)
    # after a player banked, the button returns to the dealer for one round
    assert (table.state.phase, table.state.banker_seat) == (Phase.BETTING, 0)
    play_round(table, seed=3)
    assert table.state.offer_seat == 4


def test_catfish_player_banker_must_cover_and_house_wagers(tmp_path: Path) -> None:
    table = make_table(tmp_path, "catfish-bend-fortune")
    play_round(table)
    table.handle(c.AcceptBank(6, 5000))
    table.handle(c.PlaceWager(1, "base", 2000))
    table.handle(c.PlaceWager(2, "base", 2000))
    _refused(table, c.StartGame(), "house's wager")
    table.handle(c.PlaceWager(0, "house_wager", 2000))
    _refused(table, c.StartGame(), r"covers \$50\.00 but the standard wagers total \$60\.00")
    _refused(table, c.PlaceWager(6, "base", 2000), "is the banker")
    table.handle(c.PlaceWager(6, "fortune", 500))  # a player banker may play Fortune


def test_catfish_house_wagers_at_most_the_player_banker_s_last_wager(tmp_path: Path) -> None:
    """Catfish Bend, "Player Banker": the player banker may ask the house for a wager up to
    the player's last wager against the house, never more (an outside review had the house
    wager $1,000 against a banker whose last wager was $20)."""
    table = make_table(tmp_path, "catfish-bend-fortune")
    bet_all(table, seats=[1, 2, 3, 4, 5])  # seat 6 sits the dealer's round out
    start_and_act(table)
    deal(table, hands_with({}, 0))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    table.handle(c.EndGame())
    assert table.state.offer_seat == 6
    _refused(table, c.AcceptBank(6, 200_000),
             "seat 6 played no base wager last round: .* cannot bank this round")
    table.handle(c.DeclineBank(6))
    play_round(table, seed=1)  # the house banks; every seat wagers $20 against it
    assert table.state.offer_seat == 5
    table.handle(c.AcceptBank(5, 200_000))
    table.handle(c.PlaceWager(1, "base", 1000))
    _refused(table, c.PlaceWager(0, "house_wager", 100_000),
             r"at most the player banker's last wager against the house \(seat 5: \$20\.00")
    _refused(table, c.PlaceWager(0, "house_wager", 2500), "not \\$25.00")
    table.handle(c.PlaceWager(0, "house_wager", 2000))
    table.handle(c.StartGame())


def test_fees_and_rake_are_taken_at_start_game(tmp_path: Path) -> None:
    ca = make_table(tmp_path, "california-face-up", name="ca.db")
    take_bank(ca, 100_000)
    ca.handle(c.PlaceWager(2, "base", 10_000))
    ca.handle(c.PlaceWager(3, "base", 60_000))
    ca.handle(c.StartGame())
    fees = ca.db.execute("SELECT seat, kind, amount_cents FROM fees ORDER BY seat").fetchall()
    assert [tuple(f) for f in fees] == [(1, "collection_fee", 300), (2, "collection_fee", 100),
                                        (3, "collection_fee", 300)]
    ox = make_table(tmp_path, "oxford-downs-face-up", name="ox.db")
    take_bank(ox, 40_000)
    ox.handle(c.PlaceWager(2, "base", 2000))
    ox.handle(c.StartGame())
    fees = ox.db.execute("SELECT seat, kind, amount_cents FROM fees").fetchall()
    assert [tuple(f) for f in fees] == [(1, "rake", 100)]


def test_void_round_returns_every_wager_and_names_who(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    bet_all(table, seats=[1, 2])
    _refused(table, c.VoidRound("table closed", " "), "name of who")
    table.handle(c.VoidRound("table closed", "sup 42"))
    rows = table.db.execute("SELECT status FROM rounds ORDER BY round_id").fetchall()
    assert [r[0] for r in rows] == ["voided", "open"]
    lines = table.db.execute("SELECT outcome, staked_cents, returned_cents FROM"
                             " settlement_lines").fetchall()
    assert lines and all(o == "returned" and s == r for o, s, r in lines)
    who = table.db.execute("SELECT who FROM interventions").fetchone()[0]
    assert who == "sup 42"


def test_state_rebuilt_from_log_matches_memory(tmp_path: Path) -> None:
    table = make_table(tmp_path, "california-face-up")
    take_bank(table)
    bet_all(table)
    start_and_act(table, 15)
    deal(table, hands_with({}, 3)[:4])
    rebuilt = load_open_round(table.db, table.rules)
    assert rebuilt is not None
    assert rebuilt == table.state


@pytest.mark.parametrize("edit", [
    "UPDATE rounds SET status = 'complete' WHERE round_id = 1",  # the round in play hidden
    "UPDATE rounds SET status = 'open' WHERE round_id = 1",  # a finished one reopened
])
def test_a_rounds_table_changed_against_the_log_is_refused_at_open(tmp_path: Path,
                                                                  edit: str) -> None:
    """Which round is unfinished is the log's answer; the rounds table, edited with one
    UPDATE, once decided it (an outside probe: round 1's locked wagers never settled)."""
    table = make_table(tmp_path, "washington-face-up")
    if "'open'" in edit:
        play_round(table)  # round 1 complete, round 2 opened
    else:
        bet_all(table)
        start_and_act(table)  # round 1 in play: wagers locked
    path = Path(table.db.execute("PRAGMA database_list").fetchone()[2])
    table.db.close()
    with sqlite3.connect(path) as conn:
        conn.execute(edit)
    conn.close()
    before = path.read_bytes()
    with pytest.raises(RecordsDisagree, match=r"records disagree: .*audit verify"):
        Table.open(open_table_db(path), table.rules)
    report = Report()
    check_database(report, path, get_profile("washington-face-up"))
    (failed,) = report.failures
    assert failed.item == "last round" and "records disagree" in failed.detail
    assert path.read_bytes() == before  # the evidence left as it was


def test_backline_wagers_ride_on_the_seat_and_are_settled_each_once(tmp_path: Path) -> None:
    table = make_table(tmp_path, "california-face-up")
    take_bank(table)
    _refused(table, c.PlaceWager(2, "backline:Ann", 1000), "needs a base wager")
    table.handle(c.PlaceWager(2, "base", 2000))
    _refused(table, c.PlaceWager(2, "backline: ", 1000), "name the backline bettor")
    _refused(table, c.PlaceWager(2, "backline:Ann", 100), "below the minimum")
    table.handle(c.PlaceWager(2, "backline:Ann", 1000))
    table.handle(c.PlaceWager(2, "backline:Bob", 500))
    _refused(table, c.RemoveWager(2, "base"), "remove the bonus wagers")
    start_and_act(table, 9)
    deal(table, hands_with({}, 4))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    lines = {ln.kind: ln for ln in table.state.lines if ln.seat == 2}
    base = lines["base"]
    for bettor, amount in (("Ann", 1000), ("Bob", 500)):
        back = lines[f"backline:{bettor}"]
        assert back.outcome == base.outcome and back.staked == amount
    table.handle(c.EndGame())
    from dealer_console.audit.verify import audit

    assert audit(table.db).ok


def test_dealer_tip_bets_only_where_the_profile_takes_them(tmp_path: Path) -> None:
    ca = make_table(tmp_path, "california-face-up", name="ca.db")
    take_bank(ca)
    ca.handle(c.PlaceWager(2, "base", 2000))
    _refused(ca, c.PlaceWager(2, "tips", 100), "takes no 'tips'")
    wa = make_table(tmp_path, "washington-face-up", name="wa.db")
    wa.handle(c.PlaceWager(2, "base", 2000))
    _refused(wa, c.PlaceWager(2, "backline:Ann", 1000), "takes no 'backline:Ann'")
    ox = make_table(tmp_path, "oxford-downs-face-up", name="ox.db")
    take_bank(ox, 40_000)
    ox.handle(c.PlaceWager(2, "base", 2000))
    ox.handle(c.PlaceWager(2, "tips", 100))
    play_out(ox, seed=2)
    tip = next(ln for ln in ox.state.lines if ln.kind == "tips")
    assert tip.staked == 100 and tip.returned in (0, 100)
    assert tip.staked == tip.returned + tip.banker_delta + tip.house_delta
