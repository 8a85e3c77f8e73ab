"""Golden jackpot rounds (golden/rounds.json): sensors to confirmed awards, to the cent.

Each round takes the sensed wagers at START GAME, lets the console mark the hands it sees,
confirms every mark in the order the rules pay them with the card the amount needs, ends the
round, and checks awards, meters and reserves exactly, and the audit after every round.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

from dealer_console.cards import parse_cards
from dealer_console.jackpot import games
from dealer_console.jackpot.audit import verify_meters
from dealer_console.jackpot.service import JackpotRound
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.jackpot_values.paytable import load
from dealer_console.money import parse_cents
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import swipe_round

GOLDEN = json.loads((Path(__file__).parent / "golden" / "rounds.json").read_text())
CASES = GOLDEN["cases"]


def micro(dollars: str) -> int:
    """``"$1,000.0125"`` -> millionths of a cent, exactly."""
    value = Decimal(dollars.replace("$", "").replace(",", "")) * 100 * MICRO
    assert value == value.to_integral_value()
    return int(value)


def install(db: Database, spec: dict[str, Any]) -> None:
    paytable = load(spec["paytable"])
    games.install_game(db, GameConfig(
        spot=spec["spot"], paytable=paytable, mode=JackpotMode.PROGRESSIVE,
        levels=level_configs(paytable, spec["levels"]),
        wager_cents=parse_cents(spec["wager"]),
        fixed_from_meter=spec.get("fixed_from_meter", False),
        executive_threshold_cents=parse_cents(spec["threshold"]),
    ), actor="test")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_round(db: Database, case: dict[str, Any]) -> None:
    for spec in case["games"]:
        install(db, spec)
    for round_id, rnd in enumerate(case["rounds"], start=1):
        sensed = {int(spot): seats for spot, seats in rnd["wagers"].items()}
        jr = JackpotRound.start(db, round_id, sensed)
        jr.show_hands({int(seat): parse_cards(text, 7) for seat, text in rnd["hands"].items()})
        for want in rnd["hits"]:
            nxt = jr.pending()[0]
            assert (nxt.spot, nxt.mark.seat) == (want["spot"], want["seat"])
            hit = swipe_round(jr, CARDS[want["role"]])
            assert hit.employee_role == want["role"]
            assert hit.line_no == want["line"]
            assert hit.amount_cents == parse_cents(want["amount"])
            assert hit.from_meter_cents == parse_cents(want["from_meter"])
            assert hit.from_tray_cents == parse_cents(want["from_tray"])
        assert jr.pending() == []
        jr.end()
        for spot, levels in rnd["meters"].items():
            states = games.meter_states(db, int(spot))
            for level, (meter, reserve) in levels.items():
                assert states[level].meter_micro == micro(meter), (spot, level)
                assert states[level].reserve_micro == micro(reserve), (spot, level)
        assert verify_meters(db) == []
