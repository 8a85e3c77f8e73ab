"""The round procedure as a pure state machine.

``decide(state, rules, command, services)`` checks a command against the phase and the rules and
returns the events it causes, or raises :class:`Refused` with the reason; it never changes
``state``. ``evolve(state, event)`` applies one event. The log of events is the truth: replaying
it through ``evolve`` rebuilds the round exactly, which is how crash recovery works.

Rules are cited from ``../shared/rules/``: the README's "Round procedure" and "Face Up" sections,
the California document's "Dealing procedures", the Catfish Bend document's "Dealing
Procedures", "Card Placement", "Player Banker" and "Irregularities", and the Oxford Downs
document's House Way notes on fouls.
"""

from __future__ import annotations

from dealer_console.round import commands as c
from dealer_console.round import decide_betting, decide_dealing, decide_quick, decide_setting
from dealer_console.round.decide_dealing import button_seat
from dealer_console.round.evolve import clone, evolve, replay
from dealer_console.round.rotation import new_state, next_banker, opening
from dealer_console.round.rules import RoundRules
from dealer_console.round.state import RoundState
from dealer_console.round.values import (
    DECK_SIZE,
    DICE_RANGE,
    EventTuple,
    Handler,
    HouseWay,
    Payload,
    Planner,
    Refused,
    Services,
    line_from,
    line_json,
    parse_setting_text,
    setting_from,
    setting_json,
)

__all__ = ["DECK_SIZE", "DICE_RANGE", "EventTuple", "Handler", "HouseWay", "Payload", "Planner",
           "Refused", "Services", "button_seat", "clone", "decide", "evolve", "line_from",
           "line_json", "new_state", "next_banker", "opening", "parse_setting_text", "replay",
           "setting_from", "setting_json"]

HANDLERS: dict[type[c.Command], Handler] = {
    **decide_betting.HANDLERS, **decide_dealing.HANDLERS, **decide_setting.HANDLERS,
    **decide_quick.HANDLERS}
"""The one decision of each command (each step's module holds its own)."""


def decide(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
           ) -> list[EventTuple]:
    handler = HANDLERS.get(type(cmd))
    if handler is None:
        raise Refused(f"unknown command {type(cmd).__name__}")
    if state.finished:
        raise Refused(f"round {state.round_id} is {state.phase.value}; nothing more happens in it")
    return handler(state, rules, cmd, services)
