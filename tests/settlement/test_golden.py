"""Golden rounds: each ``*.round.json`` (ROUND.json format) settled under its profile must give
the hand-worked lines and totals of its ``*.expected.json``.

An expected line is ``"<kind> <party> <outcome> <cents moved>"`` plus ``uncovered=``,
``reduced=`` and ``commission=`` when not zero, in settlement order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_console.profiles.loader import get_profile
from dealer_console.settlement import settle
from dealer_console.settlement.model import SheetLine
from dealer_console.settlement.round_json import read_round

GOLDEN = Path(__file__).parent / "golden"
ROUNDS = sorted(p.name.removesuffix(".round.json") for p in GOLDEN.glob("*.round.json"))


def compact(line: SheetLine) -> str:
    text = f"{line.kind.value} {line.party} {line.outcome.value} {line.moved}"
    for name in ("uncovered", "reduced", "commission"):
        value = getattr(line, name)
        if value:
            text += f" {name}={value}"
    return text


def test_enough_golden_rounds_for_every_profile() -> None:
    profiles = [json.loads((GOLDEN / f"{n}.expected.json").read_text())["profile"]
                for n in ROUNDS]
    assert len(ROUNDS) >= 40
    assert {p: profiles.count(p) >= 5 for p in set(profiles)} == {
        "california-face-up": True, "oxford-downs-face-up": True,
        "washington-face-up": True, "catfish-bend-fortune": True}


@pytest.mark.parametrize("name", ROUNDS)
def test_golden_round(name: str) -> None:
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    rnd = read_round((GOLDEN / f"{name}.round.json").read_text())
    sheet = settle(get_profile(expected["profile"]), rnd)
    assert [compact(line) for line in sheet.lines] == expected["lines"]
    assert sheet.totals == expected["totals"]
