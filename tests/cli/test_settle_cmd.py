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
         "positions[0].cards",
         "card 3h is dealt to two hands: positions[0].cards and positions[1].cards"),
        (lambda d: d["positions"][1].update(cards="Jh Tc 5s 5h 8d 6c 2c"),
         "banker.cards", "card 2c is dealt to two hands: banker.cards and positions[1].cards"),
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
        (lambda d: d.pop("action_seat"), "action_seat", "missing: washington-face-up settles "
                                                        "from the action seat"),
        # the house's hand is the House Way (Kh Qc | 9s 9d 7s 4d 2c), whatever the file says
        (lambda d: d["banker"].update(setting="Kh 2c | 9s 9d Qc 7s 4d"), "banker.setting",
         "the house's hand is set the House Way, never otherwise: Kh 2c | 9s 9d Qc 7s 4d is not"
         " the House Way"),
        (lambda d: d["banker"].update(setting="9s 9d | Kh Qc 7s 4d 2c"), "banker.setting",
         "is not the House Way"),
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


def _golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.round.json").read_text())
    return data


@pytest.mark.parametrize(("name", "profile", "edit", "place", "says"), [
    # Catfish Bend with the house banking: the dealer's hand is the House Way
    ("cb01-commission", "catfish-bend-fortune",
     lambda d: d["banker"].update(setting="Kh 2c | 9s 9d Qc 7s 4d"), "banker.setting",
     "the house's hand is set the House Way, never otherwise"),
    # ... and the house's hand against a player banker
    ("cb05-player-banker", "catfish-bend-fortune",
     lambda d: d["house"].update(setting="Jh 3d | Tc 5s 5h 8d 6c"), "house.setting",
     "the house's hand is set the House Way, never otherwise"),
    # Catfish Bend settles from position 2: an action seat would be ignored
    ("cb01-commission", "catfish-bend-fortune", lambda d: d.update(action_seat=4),
     "action_seat", "catfish-bend-fortune settles from position 2, the player farthest to the"
                    " dealer's right, not from an action seat: leave action_seat out"),
])
def test_what_the_rules_do_not_allow_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, profile: str,
    edit: Callable[[Any], None], place: str, says: str,
) -> None:
    data = _golden(name)
    edit(data)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data))
    assert main(["settle", str(path), "--profile", profile]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"round.json: {place}: {says}" in captured.err, captured.err
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize(("name", "profile", "edit"), [
    # the house's hand given as its House Way (cards in any order) is fine
    ("wa01-basic", "washington-face-up",
     lambda d: d["banker"].update(setting="Qc Kh | 2c 4d 7s 9d 9s")),
    # a player banker sets their own hand (Catfish Bend, Player Banker)
    ("cb05-player-banker", "catfish-bend-fortune",
     lambda d: d["banker"].update(setting="Kh 2c | 9s 9d Qc 7s 4d")),
    # so does a player-dealer (California) and a designated player (Oxford Downs)
    ("ca01-basic", "california-face-up",
     lambda d: d["banker"].update(setting="Kh 2c | 9s 9d Qc 7s 4d")),
    ("od01-rake-and-tips", "oxford-downs-face-up",
     lambda d: d["banker"].update(setting="Kh 2c | 9s 9d Qc 7s 4d")),
])
def test_only_a_player_banker_sets_their_own_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, profile: str,
    edit: Callable[[Any], None],
) -> None:
    data = _golden(name)
    edit(data)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data))
    assert main(["settle", str(path), "--profile", profile]) == 0, capsys.readouterr().err


def test_a_reset_house_hand_is_called_the_houses_hand() -> None:
    """The note on a house hand reset the House Way names the house, not the banker."""
    from dealer_console.cards import parse_cards
    from dealer_console.profiles.loader import get_profile
    from dealer_console.setting import parse_setting
    from dealer_console.settlement.resolve import resolve_banker

    profile = get_profile("catfish-bend-fortune")
    cards = parse_cards("Jh Tc 5s 5h 8d 6c 3d")
    foul = parse_setting("5s 5h | Jh Tc 8d 6c 3d")
    _setting, note = resolve_banker(profile, foul, cards, "house.setting", house=True)
    assert note.startswith("the house's hand: foul (") and "banker" not in note
    _setting, note = resolve_banker(profile, foul, cards, "banker.setting")
    assert note.startswith("banker's foul (")

