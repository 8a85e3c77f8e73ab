"""What the round's events carry and how a refusal is said: the payload types, the
services a decision may call, the (de)serialising of settings and lines, and :class:`Refused`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dealer_console.cards import Card, CardError, format_cards, parse_cards
from dealer_console.errors import Refusal
from dealer_console.round import commands as c
from dealer_console.round.phases import not_accepted
from dealer_console.round.rules import (
    RoundRules,
)
from dealer_console.round.state import Line, RoundState
from dealer_console.setting import Setting, make_setting, parse_setting

Payload = dict[str, Any]
EventTuple = tuple[str, Payload]
DECK_SIZE = 53
DICE_RANGE = (3, 18)


Refused = Refusal
"""A command that is not allowed now (the one :class:`~dealer_console.errors.Refusal`, under
the name the round's code has always used)."""


class Planner(Protocol):
    """Computes every settlement line of a round once its hands are set (the settlement engine
    behind an adapter)."""

    def __call__(self, state: RoundState, rules: RoundRules) -> list[Line]: ...


HouseWay = Callable[[Sequence[Card]], Setting]


@dataclass(frozen=True)
class Services:
    house_way: HouseWay
    planner: Planner


# -- serialising values inside events ---------------------------------------------------------


def setting_json(setting: Setting) -> Payload:
    return {"low": format_cards(setting.low), "high": format_cards(setting.high),
            "rule": setting.rule}


def setting_from(data: Payload) -> Setting:
    return make_setting(parse_cards(data["low"]), parse_cards(data["high"]), data.get("rule", ""))


def line_json(line: Line) -> Payload:
    return {"seat": line.seat, "kind": line.kind, "outcome": line.outcome,
            "staked": line.staked, "returned": line.returned,
            "banker_delta": line.banker_delta, "house_delta": line.house_delta,
            "note": line.note}


def line_from(data: Payload) -> Line:
    return Line(int(data["seat"]), str(data["kind"]), str(data["outcome"]), int(data["staked"]),
                int(data["returned"]), int(data["banker_delta"]), int(data["house_delta"]),
                str(data.get("note", "")))




def need_phase(state: RoundState, cmd: c.Command) -> None:
    """Refuse ``cmd`` unless the phase table (:mod:`dealer_console.round.phases`) accepts it."""
    problem = not_accepted(state.phase, type(cmd))
    if problem:
        raise Refused(problem)




def parse_setting_text(text: str) -> Setting:
    """Read a setting typed by a dealer, as a Refused on bad text (for commands from a UI)."""
    try:
        return parse_setting(text)
    except CardError as exc:
        raise Refused(str(exc)) from None


Handler = Callable[[RoundState, RoundRules, c.Command, Services], list[EventTuple]]
"""One command's decision: the events it causes, or :class:`Refused`."""
