"""``dealer-console settle``: the examples of ``docs/round-format.md`` print exactly the sheet
shown there, ``--json`` carries the same lines, and a malformed round is refused with the reason
and its place, printing no sheet."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dealer_console.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "round-format.md"
GOLDEN = ROOT / "tests" / "settlement" / "golden"
EXAMPLE = re.compile(
    r"<!-- example profile=(?P<profile>[\w-]+) -->\n```json\n(?P<round>.*?)```.*?"
    r"```text\n(?P<sheet>.*?)```",
    re.S,
)


def examples() -> list[tuple[str, str, str]]:
    found = [(m["profile"], m["round"], m["sheet"]) for m in EXAMPLE.finditer(DOC.read_text())]
    assert len(found) >= 3
    return found


@pytest.mark.parametrize(("profile", "round_text", "sheet"), examples())
def test_doc_examples_print_the_documented_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], profile: str, round_text: str, sheet: str
) -> None:
    path = tmp_path / "round.json"
    path.write_text(round_text)
    assert main(["settle", str(path), "--profile", profile]) == 0
    assert capsys.readouterr().out == sheet


def test_json_output_matches_the_golden_round(capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads((GOLDEN / "cb05-player-banker.expected.json").read_text())
    code = main(["settle", str(GOLDEN / "cb05-player-banker.round.json"), "--profile",
                 "catfish-bend-fortune", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"] == expected["totals"]
    assert [(ln["kind"], ln["outcome"], ln["moved"]) for ln in out["lines"]] == [
        (ln.split()[0], ln.split()[-2] if "=" not in ln else ln.split()[-3],
         int(ln.split()[-1] if "=" not in ln else ln.split()[-2]))
        for ln in expected["lines"]
    ]
    for line in out["lines"]:
        assert line["moved"] == line["due"] - line["reduced"] - line["uncovered"]


def _round(**changes: object) -> dict[str, object]:
    data: dict[str, object] = json.loads((GOLDEN / "wa01-basic.round.json").read_text())
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("edit", "place", "says"),
    [
        (lambda d: d["positions"][1]["wagers"].update(base=0, fortune=500),
         "positions[1].wagers.fortune", "needs a base wager"),
        (lambda d: d["positions"][0]["wagers"].update(fortune=20000),
         "positions[0].wagers.fortune", "above the maximum of $100.00"),
        (lambda d: d["positions"][0]["wagers"].update(base=10.5),
         "positions[0].wagers.base", "whole cents"),
        (lambda d: d["positions"][0].update(cards="Ac Kd 8h 8c 8s 6d Ac"),
         "positions[0].cards", "duplicate card"),
        (lambda d: d["positions"][1].update(cards="Jh Tc 5s 5h 8d 6c 3h"),
         "positions[0].cards", "more than one hand"),
        (lambda d: d["positions"][0].update(setting="Ac Kd | 8h 8c 8s 6d 2h"),
         "positions[0].setting", "does not use exactly the cards"),
        (lambda d: d["positions"][0].update(colour="red"), "positions[0].colour",
         "unknown key"),
        (lambda d: d["positions"][0]["wagers"].update(jackpot=500),
         "positions[0].wagers.jackpot", "fixed at $1.00"),
        (lambda d: d["positions"][0]["wagers"].update(tips=100),
         "positions[0].wagers.tips", "no tip bets"),
        (lambda d: d["banker"].update(by="player"), "banker.by", "banked by house"),
        (lambda d: d.update(action_seat=1), "action_seat", "not a player position"),
        (lambda d: d["positions"][1].update(position=2), "positions[1].position",
         "listed twice"),
    ],
)
def test_malformed_round_is_refused_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Callable[[Any], None], place: str,
    says: str,
) -> None:
    data = _round()
    edit(data)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data))
    assert main(["settle", str(path), "--profile", "washington-face-up"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"round.json: {place}: " in captured.err
    assert says in captured.err


def test_bad_json_names_line_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    path = tmp_path / "round.json"
    path.write_text('{\n  "action_seat": 2\n  "banker": {}\n}\n')
    assert main(["settle", str(path), "--profile", "washington-face-up"]) == 2
    assert "line 3 column 3: not valid JSON" in capsys.readouterr().err


def test_unknown_profile_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    assert main(["settle", str(GOLDEN / "wa01-basic.round.json"), "--profile", "nevada"]) == 2
    assert "unknown profile 'nevada'" in capsys.readouterr().err
    assert main(["settle", str(tmp_path / "absent.json"), "--profile",
                 "washington-face-up"]) == 2
    assert "cannot read" in capsys.readouterr().err
