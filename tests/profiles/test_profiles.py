"""The shipped profiles load with the values their documents imply, and a bad profile is
refused with an error an operator can act on (file, key, what is allowed)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from dealer_console.config_file import ConfigError
from dealer_console.hands import Wheel
from dealer_console.profiles.loader import PROFILE_DIR, get_profile, load_profile, profile_names
from dealer_console.profiles.model import Area, Banking, Foul, Game

SHIPPED = ("california-face-up", "catfish-bend-fortune", "oxford-downs-face-up",
           "washington-face-up")


def test_one_profile_per_rule_document() -> None:
    assert profile_names() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_profile_loads(name: str) -> None:
    profile = get_profile(name)
    assert profile.name == name
    assert Area.BASE in profile.limits


def test_document_values() -> None:
    ca, cb = get_profile("california-face-up"), get_profile("catfish-bend-fortune")
    od, wa = get_profile("oxford-downs-face-up"), get_profile("washington-face-up")
    assert (ca.banking, od.banking, wa.banking, cb.banking) == (
        Banking.PLAYER_DEALER, Banking.DESIGNATED_PLAYER, Banking.HOUSE,
        Banking.HOUSE_OR_PLAYER_BANKER)
    assert (ca.foul, od.foul, cb.foul) == (Foul.LOSES, Foul.RESET_HOUSE_WAY,
                                           Foul.RESET_ONCE_THEN_DEAD)
    assert cb.wheel is Wheel.SECOND_HIGHEST and ca.wheel is Wheel.LOWEST
    assert cb.game is Game.CLASSIC and cb.ace_high is None
    assert cb.commission is not None and cb.commission.basis_points == 500
    assert cb.commission.waived_by_fortune == 500
    assert cb.aggregate_limit is not None and cb.aggregate_limit.cents == 2_500_000
    assert cb.limits[Area.FORTUNE].maximum == 2500 and cb.limits[Area.BASE].increment == 500
    assert wa.jackpot is not None and wa.jackpot.paytable.name == "fupgpp-wa01"
    assert wa.jackpot.wager == 100
    assert od.envy is None and od.tip_bets
    assert ca.backline and ca.envy is not None and ca.envy.threshold == 500


def _base_text() -> str:
    return (PROFILE_DIR / "california-face-up.toml").read_text()


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "casino.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("change", "key", "says"),
    [
        (lambda t: "smoking = true\n" + t, "smoking", "unknown key; allowed here: name"),
        (lambda t: t.replace('positions = 7', 'positions = "seven"'), "positions",
         "expected a whole number from 2 to 8"),
        (lambda t: t.replace('"california-fortune"', '"california-fortunes"'),
         "fortune.paytable", "unknown paytable 'california-fortunes'; known:"),
        (lambda t: t.replace('"california-ace-high"', '"california-fortune"'),
         "ace_high.paytable", "expected a ace_high paytable"),
        (lambda t: t.replace('maximum = "$1,000"', 'maximum = "$2"', 1), "limits.base.maximum",
         "below the minimum $5.00"),
        (lambda t: t.replace('minimum = "$5"', 'minimum = 5', 1), "limits.base.minimum",
         "bare number"),
        (lambda t: re.sub(r'\[fortune\]\npaytable = "california-fortune"\n', "", t),
         "envy.threshold", "add a [fortune] table"),
        (lambda t: t.replace('foul = "loses"', 'foul = "forgiven"'), "foul",
         "'loses', 'reset_house_way', 'reset_once_then_dead'"),
        (lambda t: t.replace('house_way = "california"', 'house_way = "vegas"'), "house_way",
         "'california', 'oxford_downs', 'catfish_bend'"),
        (lambda t: t.replace('[limits.banker]', '[limits.bankers]'), "limits.bankers",
         "unknown key"),
        (lambda t: t + '\n[[fees.rate]]\nfee = "$4"\n', "fees.rate[3].up_to", "only the last"),
        (lambda t: t.replace('game = "face_up"', 'game = "classic"'), "ace_high.paytable",
         "face up"),
        # A limit for an area the table does not offer would let a wager through that
        # settlement has no paytable or rule for.
        (lambda t: t.replace('[ace_high]\npaytable = "california-ace-high"\n', ""),
         "limits.ace_high", "does not offer the ace_high area"),
        (lambda t: t.replace("backline = true", "backline = false"), "limits.backline",
         "set backline = true, or remove this limit"),
        (lambda t: t + '\n[limits.house_wager]\nminimum = "$5"\nmaximum = "$10"\n',
         "limits.house_wager", "only banking house_or_player_banker"),
        (lambda t: t.replace("tip_bets = false", "tip_bets = true"), "limits.tips",
         "missing; the table takes dealer tip bets"),
        (lambda t: t.replace('[envy]\nthreshold = "$5"', '[envy]\nthreshold = "$500"'),
         "envy.threshold", "no wager could earn envy"),
    ],
)
def test_bad_profile_is_refused_with_place(
    tmp_path: Path, change: Callable[[str], str], key: str, says: str
) -> None:
    path = _write(tmp_path, change(_base_text()))
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    assert info.value.key == key
    assert str(info.value).startswith(f"{path}: {key}: ")
    assert says in str(info.value)


def test_too_many_fee_rates(tmp_path: Path) -> None:
    text = _base_text().replace('[[fees.rate]]\nfee = "$3"\n', "".join(
        f'[[fees.rate]]\nup_to = "${n}000"\nfee = "${n}"\n\n' for n in range(1, 6)
    ) + '[[fees.rate]]\nfee = "$9"\n')
    with pytest.raises(ConfigError, match="at most 5"):
        load_profile(_write(tmp_path, text))


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_profile(tmp_path / "absent.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_profile(_write(tmp_path, "name = \n"))


def test_unknown_profile_lists_the_shipped() -> None:
    with pytest.raises(KeyError, match="washington-face-up"):
        get_profile("nevada")


def test_the_self_test_reads_a_profile_file_as_the_console_does(tmp_path: Path) -> None:
    """An outside review: the console takes any path (a '/' in it) as a casino's profile
    file, the self-test only one ending in .toml, so a table whose profile file had another
    name started but failed its self-test ("unknown profile")."""
    from dealer_console.selftest.configuration import check_profile
    from dealer_console.selftest.report import Report

    copy = tmp_path / "washington-face-up"  # the file's name is the profile's, no .toml
    copy.write_text((PROFILE_DIR / "washington-face-up.toml").read_text())
    report = Report()
    loaded = check_profile(report, str(copy))
    assert loaded is not None and loaded.name == "washington-face-up", report.lines()
    assert report.ok
