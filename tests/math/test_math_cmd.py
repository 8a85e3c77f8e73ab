"""The ``math`` command: figures in words and JSON, clean errors, interruption."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer_console.cli import main

GOLDEN = json.loads((Path(__file__).parent / "golden" / "fortune_counts_53.json").read_text())
ROOT = Path(__file__).resolve().parents[2]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(["math", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_fortune_json_counts_and_edge(capsys: pytest.CaptureFixture[str]) -> None:
    answer = run_json(capsys, "fortune", "--paytable", "wa-fortune-2")
    assert answer["counts"] == GOLDEN["counts"]
    (table,) = answer["paytables"]
    assert table["house_edge"]["percent"] == "7.7656%"
    num, den = map(int, table["return"]["fraction"].split("/"))
    assert abs(num / den - 0.922344) < 1e-6


def test_fortune_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["math", "fortune", "--paytable", "catfish-bend-fortune"]) == 0
    out = capsys.readouterr().out
    assert "121,694,196" in out and "house edge 7.7656%" in out


def test_envy_json(capsys: pytest.CaptureFixture[str]) -> None:
    answer = run_json(capsys, "envy", "--players", "6", "--paytable", "wa-fortune-2")
    assert answer["envy_hand_probability"]["percent"] == "0.33707%"
    (table,) = answer["paytables"]
    assert table["per_other_player_dollars"]["dollars"] == "0.046342"
    assert table["per_holder_dollars"]["dollars"] == "0.231708"


def test_ace_high_flags_a_table_above_100_percent(capsys: pytest.CaptureFixture[str]) -> None:
    answer = run_json(capsys, "ace-high")
    flagged = {t["name"] for t in answer["paytables"] if t["return_above_100"]}
    assert flagged == {"wa-ace-high-20-15-8"}
    assert answer["pairs"] == 154_143_080 * 53_524_680
    assert main(["math", "ace-high", "--paytable", "wa-ace-high-20-15-8", "--color", "always"]) == 0
    out = capsys.readouterr().out
    assert "\033[31m" in out and "must not offer" in out
    assert main(["math", "ace-high", "--paytable", "wa-ace-high-20-15-8", "--color", "never"]) == 0
    assert "\033[" not in capsys.readouterr().out


def test_jackpot_json(capsys: pytest.CaptureFixture[str]) -> None:
    answer = run_json(capsys, "jackpot", "--paytable", "WA01", "--meter", "25000",
                      "--contribution", "0.7")
    assert answer["paytable"] == "fupgpp-wa01"
    assert answer["meters_cents"] == {"main": 2_500_000}
    assert answer["break_even_meter"]["main"]["dollars"] == "$679,171.90"
    assert answer["long_run_return"]["percent"] == "118.4485%"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["jackpot", "--paytable", "WA99", "--meter", "1"], "unknown jackpot paytable"),
        (["jackpot", "--paytable", "WA01", "--meter", "-5"], "--meter -5"),
        (["jackpot", "--paytable", "ML02", "--meter", "100"], "write LEVEL=VALUE"),
        (["jackpot", "--paytable", "WA01", "--meter", "1", "--contribution", "1.5"], "0% and 100%"),
        (["jackpot", "--paytable", "WA01", "--meter", "main=1", "--meter", "mega=2"], "no meter"),
        (["fortune", "--paytable", "wa-ace-high-1"], "not a fortune table"),
        (["fortune", "--paytable", "nope"], "unknown paytable"),
        (["envy", "--players", "0"], "--players"),
        (["base", "--profile", "nowhere"], "unknown profile"),
        (["base", "--profile", "california-face-up", "--rounds", "0"], "--rounds"),
    ],
)
def test_bad_input_is_a_clean_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["math", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dealer-console math:") and message in err


def test_base_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("base", "--profile", "california-face-up", "--rounds", "400", "--seed", "7")
    first = run_json(capsys, *argv)
    second = run_json(capsys, *argv)
    assert first == second
    counts = first["counts"]
    assert counts["win"] + counts["push"] + counts["loss"] == first["rounds"] == 400
    low, high = (float(x.rstrip("%")) for x in first["confidence_95"])
    assert low < float(first["house_edge"].rstrip("%")) < high


def test_ctrl_c_stops_cleanly_with_status_130() -> None:
    """A real SIGINT to a real long run: status 130, the rounds played so far reported."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "dealer_console.cli", "math", "base", "--profile",
         "california-face-up", "--rounds", "10000000", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    answer = json.loads(out)
    assert answer["interrupted"] is True and 0 < answer["rounds"] < 10_000_000
    assert "Traceback" not in err
