"""The jackpot set-up in a profile: one game or two (one per sensor spot), their meters, and
the table database that must keep the set-up it was started with."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.audit.verify import audit
from dealer_console.config_file import ConfigError
from dealer_console.jackpot import games
from dealer_console.jackpot.setup import (
    JackpotSetupMismatch,
    differences_from,
    install_from_profile,
)
from dealer_console.jackpot_values.config import JackpotMode, TableJackpots
from dealer_console.profiles.loader import PROFILE_DIR, get_profile, load_profile
from dealer_console.table_db import open_table_db

WASHINGTON = (PROFILE_DIR / "washington-face-up.toml").read_text()
ONE_GAME = WASHINGTON[WASHINGTON.index("\n[jackpot]\n") + 1:]
TWO_GAMES = """[[jackpot]]
spot = 1
paytable = "fupgpp-wa01"
wager = "$1"
mode = "progressive"
executive_above = "$5,000"

[jackpot.meters.main]
seed = "$2,500"
contribution = "70%"
reserve = "1.5%"

[[jackpot]]
spot = 2
paytable = "fupgpp-ml02"
wager = "$5"
mode = "progressive"
fixed_from_meter = true

[jackpot.meters.mega]
seed = "$50,000"
contribution = "5%"

[jackpot.meters.major]
seed = "$5,000"
contribution = "3%"

[jackpot.meters.minor]
seed = "$500"
contribution = "2%"
reserve = "0.25%"
"""


def _profile(tmp_path: Path, jackpot: str) -> Path:
    path = tmp_path / "casino.toml"
    path.write_text(WASHINGTON.replace(ONE_GAME, jackpot))
    return path


def test_the_shipped_washington_game_is_fully_set_up() -> None:
    setup = get_profile("washington-face-up").jackpots
    assert setup is not None and [g.spot for g in setup.games] == [1]
    game = setup.game(1)
    assert (game.paytable.name, game.mode, game.wager_cents, game.fixed_from_meter,
            game.executive_threshold_cents) == ("fupgpp-wa01", JackpotMode.HOUSE, 100, False,
                                                100_000)
    assert [(lv.name, lv.seed_cents, lv.contribution_ppm, lv.reserve_ppm)
            for lv in game.levels] == [("main", 250_000, 150_000, 20_000)]


def test_two_games_one_per_sensor_spot(tmp_path: Path) -> None:
    profile = load_profile(_profile(tmp_path, TWO_GAMES))
    assert profile.jackpots is not None
    first, second = profile.jackpots.games
    assert (first.spot, first.wager_cents, first.executive_threshold_cents) == (1, 100, 500_000)
    assert [(lv.contribution_ppm, lv.reserve_ppm) for lv in first.levels] == [(700_000, 15_000)]
    assert (second.spot, second.paytable.name, second.wager_cents) == (2, "fupgpp-ml02", 500)
    assert second.fixed_from_meter
    assert [(lv.name, lv.seed_cents, lv.reserve_ppm) for lv in second.levels] == [
        ("mega", 5_000_000, 0), ("major", 500_000, 0), ("minor", 50_000, 2_500)]
    # the round and settlement still see the spot-1 game as the profile's jackpot
    assert profile.jackpot is not None and profile.jackpot.wager == 100


SECOND = TWO_GAMES[TWO_GAMES.index("[[jackpot]]\nspot = 2"):]


def test_the_two_person_level_is_read_and_held_to_the_installed_game(tmp_path: Path) -> None:
    """issue 15: where a profile asks for it, an award above a level needs two people."""
    path = _profile(tmp_path, TWO_GAMES.replace(
        'executive_above = "$5,000"', 'executive_above = "$5,000"\ntwo_person_above = "$7,500"'))
    setup = load_profile(path).jackpots
    assert setup is not None
    first, second = setup.games
    assert (first.two_person_above_cents, second.two_person_above_cents) == (750_000, None)
    assert first.needs_two(750_001) and not first.needs_two(750_000)
    db = open_table_db(tmp_path / "t.db")
    install_from_profile(db, setup, actor="test")
    assert games.game_config(db, 1).two_person_above_cents == 750_000
    changed = load_profile(_profile(tmp_path, TWO_GAMES)).jackpots
    assert changed is not None
    assert any("two_person_above" in d for d in differences_from(db, changed.games))
    db.close()


def test_pin_required_is_read_per_game(tmp_path: Path) -> None:
    """issue 13: a PIN after the card where the profile asks for one (``docs/jackpot.md``)."""
    path = _profile(tmp_path, TWO_GAMES.replace(
        'executive_above = "$5,000"', 'executive_above = "$5,000"\npin_required = true'))
    setup = load_profile(path).jackpots
    assert setup is not None
    assert [g.pin_required for g in setup.games] == [True, False]


@pytest.mark.parametrize(
    ("change", "key", "says"),
    [
        (lambda t: t.replace("spot = 2", "spot = 3"), "jackpot[1].spot",
         "expected a whole number from 1 to 2"),
        (lambda t: t.replace("spot = 2", "spot = 1"), "jackpot",
         "a sensor spot is named twice"),
        (lambda t: t + "\n" + SECOND.replace("spot = 2", "spot = 1"), "jackpot",
         "at most 2 jackpot games"),
        (lambda t: t.replace('mode = "progressive"\nfixed_from_meter', 'mode = "house"\nfixed'
                             '_from_meter'), "jackpot", "house and progressive cannot mix"),
        (lambda t: t.replace('mode = "progressive"\nexecutive', 'mode = "linked"\nexecutive'),
         "jackpot[0].mode", "'house', 'progressive'"),
        (lambda t: t.replace("[jackpot.meters.major]", "[jackpot.meters.majors]"),
         "jackpot[1].meters.major", "has the meters mega, major, minor"),
        (lambda t: t.replace('contribution = "70%"', 'contribution = "70"'),
         "jackpot[0].meters.main.contribution", "between 0% and 100%"),
        (lambda t: t.replace('contribution = "70%"', 'contribution = 0.7'),
         "jackpot[0].meters.main.contribution", "expected a string"),
        (lambda t: t.replace('contribution = "70%"', 'contribution = "70.00001%"'),
         "jackpot[0].meters.main.contribution", "finer than one millionth"),
        (lambda t: t.replace('contribution = "70%"', 'contribution = "99%"'),
         "jackpot[0].meters.main", "add up to more than the wager"),
        (lambda t: t.replace('seed = "$2,500"', 'seed = 2500'),
         "jackpot[0].meters.main.seed", "bare number"),
        (lambda t: t.replace('reserve = "1.5%"', 'reserve = "1.5%"\ncolour = "gold"'),
         "jackpot[0].meters.main.colour", "unknown key"),
        (lambda t: t.replace('paytable = "fupgpp-ml02"', 'paytable = "wa-fortune-1"'),
         "jackpot[1].paytable", "expected a jackpot paytable"),
        (lambda t: t[:t.index("[[jackpot]]\nspot = 2")].replace("spot = 1", "spot = 2"),
         "jackpot", "the first jackpot game takes sensor spot 1"),
        (lambda t: t.replace('executive_above = "$5,000"', 'executive_above = "$5,000"\n'
                             'two_person_above = 2000'), "jackpot[0].two_person_above",
         "bare number"),
        (lambda t: t.replace('executive_above = "$5,000"', 'executive_above = "$5,000"\n'
                             'two_person_above = "two grand"'), "jackpot[0].two_person_above",
         "amount"),
        (lambda t: t.replace('executive_above = "$5,000"', 'executive_above = "$5,000"\n'
                             'pin_required = "yes"'), "jackpot[0].pin_required",
         "true or false"),
        (lambda t: t[:t.index("[jackpot.meters.main]")] + SECOND, "jackpot[0].meters",
         "missing; paytable fupgpp-wa01 has the meters main"),
    ],
)
def test_a_bad_jackpot_set_up_is_refused_with_its_place(
        tmp_path: Path, change: Callable[[str], str], key: str, says: str) -> None:
    path = _profile(tmp_path, change(TWO_GAMES))
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    assert info.value.key == key, str(info.value)
    assert says in str(info.value)


def test_profile_check_warns_of_a_seed_below_the_largest_fixed_award(tmp_path: Path) -> None:
    path = _profile(tmp_path, ONE_GAME.replace('seed = "$2,500"', 'seed = "$1,000"'))
    out = subprocess.run([sys.executable, "-m", "dealer_console.cli", "profile", "check",
                          str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert ("jackpot game 1, meter main: the seed $1,000.00 is below the largest fixed award "
            "$2,500.00") in out.stderr
    fine = subprocess.run([sys.executable, "-m", "dealer_console.cli", "profile", "check",
                           str(_profile(tmp_path, ONE_GAME))], capture_output=True, text=True,
                          timeout=60)
    assert fine.returncode == 0 and "warning" not in fine.stderr


def _db(tmp_path: Path) -> Database:
    return open_table_db(tmp_path / "table.db")


def test_the_profile_set_up_is_installed_once_then_held_to(tmp_path: Path) -> None:
    two = load_profile(_profile(tmp_path, TWO_GAMES)).jackpots
    db = _db(tmp_path)
    install_from_profile(db, two, actor="test")
    assert games.spots(db) == [1, 2]
    assert two is not None and games.game_config(db, 2) == two.game(2)
    install_from_profile(db, two, actor="test")  # the same set-up: nothing to do
    one = get_profile("washington-face-up").jackpots
    with pytest.raises(JackpotSetupMismatch) as info:
        install_from_profile(db, one, actor="test")
    said = str(info.value)
    for difference in ("spot 1 mode: installed progressive, profile house",
                       "spot 1 executive_above (cents): installed 500000, profile 100000",
                       "spot 1 meters: installed main seed 250000 contribution 700000 ppm",
                       "spot 2 has a game the profile does not list"):
        assert difference in said
    with pytest.raises(JackpotSetupMismatch, match="spot 1 has a game the profile does not"):
        install_from_profile(db, None, actor="test")
    fresh = open_table_db(tmp_path / "other.db")
    install_from_profile(fresh, one, actor="test")
    with pytest.raises(JackpotSetupMismatch, match="the profile adds a game on spot 2"):
        install_from_profile(fresh, two, actor="test")


def test_the_two_game_example_in_the_docs_loads(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "profiles.md").read_text()
    blocks = [part.split("```", 1)[0] for part in doc.split("```toml\n")[1:]]
    example = next(b for b in blocks if "[[jackpot]]" in b)
    profile = load_profile(_profile(tmp_path, example))
    assert profile.jackpots is not None
    assert [(g.spot, g.paytable.name) for g in profile.jackpots.games] == [
        (1, "fupgpp-wa01"), (2, "fupgpp-ml02")]


def test_the_pin_and_the_link_are_held_to_the_installed_game(tmp_path: Path) -> None:
    """An outside review dropped ``pin_required`` and ``linked`` from a live
    game's profile and the table opened: the PIN gone, a linked game paid off the table's own
    meter. Both are kept with the game now; a game installed before they were kept gets them
    from its profile at the next start, with an event the audit rebuilds."""
    setup = get_profile("washington-face-up").jackpots
    assert setup is not None
    kept = replace(setup.games[0], pin_required=True, linked="pit-1")
    db = open_table_db(tmp_path / "t.db")
    install_from_profile(db, TableJackpots((kept,)), actor="test")
    assert games.pin_and_link(db, 1) == (True, "pit-1")
    dropped = replace(kept, pin_required=False, linked=None)
    assert differences_from(db, (dropped,)) == [
        "spot 1 pin_required: installed True, profile False",
        "spot 1 linked: installed pit-1, profile none (the table's own meters)"]
    with pytest.raises(JackpotSetupMismatch, match="pin_required: installed True"):
        install_from_profile(db, TableJackpots((dropped,)), actor="test")
    db.close()
    # installed by a console that did not keep them: recorded once from the profile
    old = open_table_db(tmp_path / "old.db")
    with old.atomic():
        games.write_game(old, kept, installed_at="2024-01-01T00:00:00+00:00",
                         installed_by="older console", pin_and_link=False)
    assert games.pin_and_link(old, 1) is None
    install_from_profile(old, TableJackpots((kept,)), actor="test")
    assert games.pin_and_link(old, 1) == (True, "pit-1")
    assert differences_from(old, (dropped,)) != []
    old.close()


def test_the_recorded_pin_and_link_are_rebuilt_by_the_audit(tmp_path: Path) -> None:
    setup = get_profile("washington-face-up").jackpots
    assert setup is not None
    kept = replace(setup.games[0], pin_required=True)
    path = tmp_path / "t.db"
    db = open_table_db(path)
    with db.atomic():  # as a console that did not keep them installed it: tables only
        games.write_game(db, kept, installed_at="2024-01-01T00:00:00+00:00",
                         installed_by="console", pin_and_link=False)
        db.execute("DELETE FROM _sqlite_migrations WHERE name = '0002_setup_in_the_event_log'")
    db.close()
    db = open_table_db(path)  # the upgrade writes the set-up to the log, without them
    install_from_profile(db, TableJackpots((kept,)), actor="test")  # recorded, with its event
    assert games.pin_and_link(db, 1) == (True, None)
    assert audit(db).ok, audit(db).problems
    db.execute("UPDATE jackpot_games SET pin_required = 0")  # a PIN dropped in the table
    report = audit(db)
    assert not report.ok and any("pin_required" in p for p in report.problems), report.problems
    db.close()
