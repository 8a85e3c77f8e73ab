"""``dealer-console profile check FILE`` and ``profile show NAME``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.profiles.loader import PROFILE_DIR, profile_names


@pytest.mark.parametrize("name", profile_names())
def test_check_accepts_every_shipped_profile(name: str, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    assert main(["profile", "check", str(PROFILE_DIR / f"{name}.toml")]) == 0
    assert f"ok ({name}:" in capsys.readouterr().out


def test_check_names_file_key_and_what_is_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (PROFILE_DIR / "washington-face-up.toml").read_text()
    path = tmp_path / "casino.toml"
    path.write_text(text.replace('paytable = "wa-fortune-1"', 'paytable = "wa-fortune-5"'))
    assert main(["profile", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: fortune.paytable: unknown paytable 'wa-fortune-5'; known:" in err
    assert "wa-fortune-6" in err


def test_show_resolves_paytables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", "washington-face-up", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fortune"]["name"] == "wa-fortune-1"
    three_pair = [ln for ln in data["fortune"]["lines"] if ln["id"] == "three_pair"]
    assert three_pair == [{"id": "three_pair", "label": "Three pair", "pays": "push"}]
    assert data["jackpot"]["paytable"]["lines"][0]["meter_percent"] == 100
    assert data["aggregate_limit"] == {"cents": 1_000_000, "scope": "table"}


def test_show_text_and_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show", "catfish-bend-fortune"]) == 0
    out = capsys.readouterr().out
    assert "banking: house_or_player_banker" in out
    assert "id: four_of_a_kind, label: Four of a kind, pays: 25 to 1" in out
    assert main(["profile", "show", "nevada"]) == 2
    assert "unknown profile 'nevada'" in capsys.readouterr().err


def test_check_refuses_an_ace_high_table_returning_over_100(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (PROFILE_DIR / "washington-face-up.toml").read_text()
    assert 'paytable = "wa-ace-high-1"' in text
    path = tmp_path / "generous.toml"
    path.write_text(text.replace('paytable = "wa-ace-high-1"', 'paytable = "wa-ace-high-20-15-8"'))
    assert main(["profile", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "ace_high.paytable: wa-ace-high-20-15-8 returns 100.7209%" in err
    assert "must not offer" in err
