"""Two jackpot games on one layout (one per sensor spot; Washington, "House Jackpot and
Progressive Jackpots"): each wager feeds its own game's meters, hits on both games in one round
are confirmed in order, and every meter ends right to the millionth of a cent."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.employees import registry
from dealer_console.jackpot import games
from dealer_console.jackpot.audit import verify_meters
from dealer_console.jackpot.setup import install_from_profile
from dealer_console.jackpot.system import JackpotSystem
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.profiles.loader import load_profile
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_console.round.rules import round_rules
from dealer_console.round.table import Table
from dealer_console.table_db import open_table_db
from tests.jackpot.conftest import CARDS, add_staff
from tests.jackpot.swipes import swipe
from tests.profiles.test_jackpot_setup import ONE_GAME, TWO_GAMES, WASHINGTON
from tests.round.helpers import deal, hands_with, set_all_house_way, settle_all

SEVEN_SF = "2c 3c 4c 5c 6c 7c 8c"
FIVE_ACES = "As Ad Ah Ac JK 2d 7h"
FOUR_KINGS = "Ks Kd Kh Kc 3d 9h Jc"


def _table(tmp_path: Path, system: bool = True) -> tuple[Table, JackpotSystem]:
    """Game 1: WA01 progressive, $1, seed $2,500, 70% + 1.5% reserve. Game 2: ML02, $5, fixed
    pays off the meter, mega/major/minor seeded $50,000/$5,000/$500 at 5%/3%/2% (+0.25%)."""
    path = tmp_path / "two.toml"
    path.write_text(WASHINGTON.replace(ONE_GAME, TWO_GAMES))
    profile = load_profile(path)
    db = open_table_db(tmp_path / "table.db")
    add_staff(db)
    install_from_profile(db, profile.jackpots, actor="test")
    jackpot = JackpotSystem(db)
    return Table.open(db, round_rules(profile, None, None),
                      jackpot=jackpot if system else None), jackpot


def _micro(db: object, spot: int) -> dict[str, tuple[int, int]]:
    return {name: (m.meter_micro, m.reserve_micro)
            for name, m in games.meter_states(db, spot).items()}  # type: ignore[arg-type]


def test_hits_on_both_games_in_one_round_to_the_millionth(tmp_path: Path) -> None:
    table, system = _table(tmp_path)
    for seat in (1, 2, 3):
        table.handle(c.PlaceWager(seat, "base", 2000))
        table.handle(c.PlaceWager(seat, "jackpot", 100))
        table.handle(c.PlaceWager(seat, "jackpot_2", 500))
    table.handle(c.StartGame())
    # Three wagers per game. Game 1: 70% of $1 = 70 cents each to the meter, 1.5 cents each
    # to the reserve. Game 2 ($5): mega 5% = 25c, major 3% = 15c, minor 2% = 10c and its
    # reserve 0.25% = 1.25c, each.
    assert _micro(table.db, 1) == {"main": ((250_000 + 210) * MICRO, 4_500_000)}
    assert _micro(table.db, 2) == {"mega": ((5_000_000 + 75) * MICRO, 0),
                                   "major": ((500_000 + 45) * MICRO, 0),
                                   "minor": ((50_000 + 30) * MICRO, 3_750_000)}
    table.handle(c.SetActionNumber(2))  # delivery 0 to seat 1, 1 to seat 2, 2 to seat 3
    deal(table, hands_with({0: SEVEN_SF, 1: FIVE_ACES, 2: FOUR_KINGS}))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    order = [(p.spot, p.mark.seat, p.mark.line.label) for p in system.marks(table.state)]
    assert {(spot, seat) for spot, seat, _ in order} == {(1, 1), (1, 2), (1, 3), (2, 1),
                                                         (2, 2), (2, 3)}
    # within a game, meter pays are confirmed from the highest seat down
    meter_seats = {1: [1], 2: [2, 1]}
    for spot, seats in meter_seats.items():
        assert [s for g, s, label in order if g == spot and s in seats][:len(seats)] == seats
    paid: dict[tuple[int, int], tuple[int, int, int]] = {}
    while system.marks(table.state):
        hit = swipe(system, table, CARDS[system.required(system.marks(table.state)[0])])
        paid[(hit.spot, hit.seat)] = (hit.amount_cents, hit.from_meter_cents,
                                      hit.from_tray_cents)
    assert paid == {
        (1, 1): (250_210, 250_210, 0),      # 100% of main
        (1, 2): (250_000, 0, 250_000),      # 5 aces, 2,500 for 1, from the tray
        (1, 3): (7_500, 0, 7_500),          # 4 of a kind, 75 for 1
        (2, 1): (5_000_075, 5_000_075, 0),  # 100% of mega
        (2, 2): (500_045, 500_045, 0),      # 100% of major
        (2, 3): (37_500, 37_500, 0),        # 75 for 1 at $5, off the minor meter
    }
    # 100% awards restart at seed + reserve; the fixed pay came off the minor meter
    assert _micro(table.db, 1) == {"main": (250_000 * MICRO + 4_500_000, 0)}
    assert _micro(table.db, 2) == {"mega": (5_000_000 * MICRO, 0),
                                   "major": (500_000 * MICRO, 0),
                                   "minor": ((50_030 - 37_500) * MICRO, 3_750_000)}
    table.handle(c.EndGame())
    lines = dict(table.db.execute(
        "SELECT kind, SUM(returned_cents) FROM settlement_lines WHERE kind LIKE 'jackpot%'"
        " GROUP BY kind").fetchall())
    assert lines["jackpot"] == 0 and lines["jackpot_2"] == 0  # wagers taken
    assert lines["jackpot_award_1"] == 250_210 and lines["jackpot_2_award_1"] == 5_000_075
    assert lines["jackpot_2_award_5"] == 37_500
    report = audit(table.db)
    assert report.ok, report.problems
    assert verify_meters(table.db) == []


def test_second_game_wagers_and_hits_are_checked(tmp_path: Path) -> None:
    table, system = _table(tmp_path)
    with pytest.raises(Refused, match="needs a base wager first"):
        table.handle(c.PlaceWager(1, "jackpot_2", 500))
    table.handle(c.PlaceWager(1, "base", 2000))
    with pytest.raises(Refused, match=r"jackpot_2 wager is fixed at \$5\.00, not \$1\.00"):
        table.handle(c.PlaceWager(1, "jackpot_2", 100))
    table.handle(c.PlaceWager(1, "jackpot_2", 500))
    table.handle(c.PlaceWager(2, "base", 2000))
    table.handle(c.PlaceWager(2, "jackpot", 100))
    table.handle(c.StartGame())
    assert games.wagered_seats(table.db, table.state.round_id, 2) == {1}
    assert games.wagered_seats(table.db, table.state.round_id, 1) == {2}
    table.handle(c.SetActionNumber(2))
    deal(table, hands_with({0: FOUR_KINGS, 1: "Qs Qd Qh Qc 4d 8h Tc"}))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    supervisor = registry.get(table.db, "S1")  # authorised already: the round sees no card
    # seat 1 wagered on game 2 only, seat 2 on game 1 only: one mark each, on its own game
    assert sorted((p.spot, p.mark.seat) for p in system.marks(table.state)) == [(1, 2), (2, 1)]
    for refused, says in (
            (c.JackpotHit(1, 5, supervisor, 1), "no jackpot wager on spot 1"),
            (c.JackpotHit(2, 5, supervisor, 3), "no jackpot game on sensor spot 3")):
        with pytest.raises(Refused, match=says):
            table.handle(refused)
    while system.marks(table.state):
        swipe(system, table, CARDS["supervisor"])
    with pytest.raises(Refused, match="already has a jackpot hit on spot 2"):
        table.handle(c.JackpotHit(1, 5, supervisor, 2))
    table.handle(c.EndGame())
    assert audit(table.db).ok


def test_a_second_game_needs_the_jackpot_system(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="second jackpot game"):
        _table(tmp_path, system=False)
