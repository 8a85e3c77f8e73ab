"""The view builder: the frozen :class:`~dealer_console.controller.view.TableSnapshot` from
the parts each desk hands it. It reads and never acts (no mark detected, nothing written):
the controller builds it at most once per turn of its event loop, when something changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_console.controller.questions import banker_pai_gow, hidden_seats
from dealer_console.controller.view import (
    BenchView,
    DeviceView,
    Notice,
    TableSnapshot,
    WinPageRequest,
)
from dealer_console.round import commands as c
from dealer_console.round.phases import ACCEPTS
from dealer_console.round.rules import RoundRules
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import RoundState


@dataclass(frozen=True, slots=True)
class ViewParts:
    """What the desks hold that a screen draws, gathered by the controller."""

    title: str
    waiting_for: str | None
    devices: tuple[DeviceView, ...]
    jackpot: Mapping[str, Any]
    """The jackpot panel's fields (:meth:`.jackpot_desk.JackpotDesk.view`); empty without a
    jackpot."""
    jackpot_game: int
    jackpot_armed: bool
    notice: Notice | None
    card_wanted: str | None
    card_pin: bool
    win_page: WinPageRequest | None
    bench: BenchView | None
    has_jackpot: bool = False
    offers: tuple[tuple[c.Command, str | None], ...] = ()
    start_game_problem: str | None = None
    void_problem: str | None = None
    deck_count_problem: str | None = None


def build_view(rules: RoundRules, st: RoundState, parts: ViewParts) -> TableSnapshot:
    jackpot = dict(parts.jackpot)
    pending = jackpot.pop("jackpot_pending", ())
    return TableSnapshot(
        title=parts.title, profile=rules.name,
        round=RoundSnapshot.of(st, rules), accepts=ACCEPTS[st.phase],
        waiting_for=parts.waiting_for, devices=parts.devices,
        jackpot_pending=pending, jackpot_game=parts.jackpot_game,
        jackpot_armed=parts.jackpot_armed, notice=parts.notice,
        card_wanted=parts.card_wanted, card_pin=parts.card_pin, win_page=parts.win_page,
        hidden_seats=hidden_seats(rules, st), banker_pai_gow=banker_pai_gow(rules, st),
        test_mode=parts.bench is not None, bench=parts.bench, has_jackpot=parts.has_jackpot,
        offers=parts.offers, start_game_problem=parts.start_game_problem,
        void_problem=parts.void_problem, deck_count_problem=parts.deck_count_problem,
        **jackpot)
