"""Reading ROUND.json (``docs/round-format.md``) into a :class:`RoundInput`.

Strict like the profile reader: an unknown key, a wrong type, a bad card or a bad setting is a
:class:`RoundError` naming the place (``positions[2].wagers.fortune``). Amounts are integer
cents; a float or a string amount is refused rather than guessed at.
"""

from __future__ import annotations

import json
from typing import Any

from dealer_console.cards import Card, CardError, parse_cards
from dealer_console.setting import parse_setting
from dealer_console.settlement.model import (
    Backline,
    BankedBy,
    BankerInput,
    HandChoice,
    HouseHand,
    PositionInput,
    RoundError,
    RoundInput,
    SetBy,
    Wagers,
)


def _obj(value: Any, place: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
         ) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RoundError(place, f"expected an object with {', '.join(allowed)}")
    for key in value:
        if key not in allowed:
            where = f"{place}.{key}" if place else key
            raise RoundError(where, f"unknown key; allowed: {', '.join(allowed)}")
    for key in required:
        if key not in value:
            where = f"{place}.{key}" if place else key
            raise RoundError(where, "missing")
    return value


def _cents(value: Any, place: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoundError(place, f"expected whole cents (1000 is $10.00), got {value!r}")
    if value < 0:
        raise RoundError(place, f"{value} is negative")
    return value


def _int(value: Any, place: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoundError(place, f"expected a whole number, got {value!r}")
    return value


def _cards(value: Any, place: str) -> tuple[Card, ...]:
    if not isinstance(value, str | list) or (
        isinstance(value, list) and not all(isinstance(v, str) for v in value)
    ):
        raise RoundError(place, "expected cards as a string (\"As Kd JK ...\") or a list of "
                                "strings")
    try:
        return parse_cards(value, 7)
    except CardError as exc:
        raise RoundError(place, str(exc)) from None


def _setting(value: Any, place: str) -> HandChoice:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RoundError(place, "expected \"house way\" or a setting like \"Kd 9c | As 7h 5s 3d "
                                "2c\" (low, a bar, high)")
    if value.strip().lower() in ("house way", "house_way"):
        return SetBy.HOUSE_WAY
    try:
        return parse_setting(value)
    except CardError as exc:
        raise RoundError(place, str(exc)) from None


_WAGER_KEYS = ("base", "fortune", "ace_high", "jackpot", "tips", "backline")


def _wagers(value: Any, place: str) -> Wagers:
    data = _obj(value, place, _WAGER_KEYS)
    amounts = {k: _cents(data.get(k, 0), f"{place}.{k}") for k in _WAGER_KEYS[:-1]}
    backs_raw = data.get("backline", [])
    if not isinstance(backs_raw, list):
        raise RoundError(f"{place}.backline", "expected a list of {\"bettor\", \"amount\"}")
    backs = []
    for j, item in enumerate(backs_raw):
        bp = f"{place}.backline[{j}]"
        back = _obj(item, bp, ("bettor", "amount"), ("bettor", "amount"))
        if not isinstance(back["bettor"], str):
            raise RoundError(f"{bp}.bettor", "expected the bettor's name as a string")
        backs.append(Backline(back["bettor"], _cents(back["amount"], f"{bp}.amount")))
    return Wagers(backline=tuple(backs), **amounts)


def round_from_data(data: Any) -> RoundInput:
    top = _obj(data, "", ("note", "action_seat", "banker", "house", "positions"),
               ("banker", "positions"))
    b = _obj(top["banker"], "banker", ("by", "cards", "setting", "wager", "fortune"),
             ("by", "cards"))
    by_values = [e.value for e in BankedBy]
    if b["by"] not in by_values:
        raise RoundError("banker.by", f"{b['by']!r} is not allowed; expected "
                                      f"{' or '.join(repr(v) for v in by_values)}")
    banker = BankerInput(
        by=BankedBy(b["by"]),
        cards=_cards(b["cards"], "banker.cards"),
        setting=_setting(b.get("setting", "house way"), "banker.setting"),
        wager=_cents(b.get("wager", 0), "banker.wager"),
        fortune=_cents(b.get("fortune", 0), "banker.fortune"),
    )
    house = None
    if "house" in top:
        h = _obj(top["house"], "house", ("cards", "wager", "setting"), ("cards", "wager"))
        house = HouseHand(_cards(h["cards"], "house.cards"), _cents(h["wager"], "house.wager"),
                          _setting(h.get("setting", "house way"), "house.setting"))
    if not isinstance(top["positions"], list):
        raise RoundError("positions", "expected a list of positions")
    positions = []
    for i, raw in enumerate(top["positions"]):
        place = f"positions[{i}]"
        p = _obj(raw, place, ("position", "cards", "setting", "wagers", "prior_fouls"),
                 ("position", "cards"))
        positions.append(PositionInput(
            position=_int(p["position"], f"{place}.position"),
            cards=_cards(p["cards"], f"{place}.cards"),
            setting=_setting(p.get("setting"), f"{place}.setting"),
            wagers=_wagers(p.get("wagers", {}), f"{place}.wagers"),
            prior_fouls=_int(p.get("prior_fouls", 0), f"{place}.prior_fouls"),
        ))
    action = _int(top["action_seat"], "action_seat") if "action_seat" in top else None
    return RoundInput(action, banker, tuple(positions), house)


def read_round(text: str) -> RoundInput:
    """Parse ROUND.json text; a JSON syntax error names the line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RoundError(f"line {exc.lineno} column {exc.colno}", f"not valid JSON: {exc.msg}"
                         ) from None
    return round_from_data(data)
