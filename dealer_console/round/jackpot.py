"""The round's hook for a jackpot system (Washington profile; issue #6 builds the system).

The round calls the hook inside the transaction of the transition concerned, so a jackpot's
meters can never disagree with the round: START GAME (sensors locked, jackpot wagers taken,
meter and reserve contributions), a confirmed hit (the award, who confirmed it and the meter
before and after are stored in the hit's event, so a replay never recomputes them and the
round's own hash-chained log holds the confirmation), and END GAME (refused while a marked hit
waits for its confirmation; sensors released for the next round).

To plug a jackpot system in, implement :class:`JackpotHook` and pass it to
:class:`dealer_console.round.table.Table`; it gets the open database (the caller's transaction
is open) and must not commit. It refuses by raising :class:`JackpotRefused`.

Who owns which jackpot cent (``docs/jackpot.md``, "Who pays what"): the round owns the wager
(settled as a line the house takes: the paytables' note says the wager is never returned); the
jackpot system owns every award, tray or meter, paid only on a confirmed hit as a
``jackpot_award_N`` line; contributions and reserves move only inside the jackpot's ledger.
A system that owns the awards says so with ``owns_awards``; the settlement engine's own
jackpot pays are then replaced by :func:`wager_only_planner`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sqlite_utils import Database

from dealer_console.cards import Card
from dealer_console.errors import Refusal
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.round.jackpot_kinds import JACKPOT_KIND, JACKPOT_KINDS, SPOT_OF_KIND
from dealer_console.round.rules import RoundRules
from dealer_console.round.state import Line, RoundState

JackpotRefused = Refusal
"""The jackpot system refuses the transition: the one
:class:`~dealer_console.errors.Refusal`, which the round lets through as it is (code and all)."""


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A confirmed hit as the round logs it: the award in cents, who confirmed it, and the
    facts the audit and recall show (hit id, meter before and after...)."""

    award_cents: int
    who: str
    detail: Mapping[str, Any] = field(default_factory=dict)


class JackpotHook(Protocol):
    owns_awards: bool
    """True when the system pays every award itself (then settlement only takes the wager)."""

    def start_game(self, db: Database, round_id: int,
                   wagers: Mapping[int, Mapping[int, int]]) -> None:
        """Lock the sensors and take each wager: ``{spot: {seat: cents}}``."""

    def award(self, db: Database, round_id: int, spot: int, seat: int, hand_line: int,
              cards: tuple[Card, ...], employee_id: str, second_id: str | None = None,
              paid: LinkedHit | None = None, tray_report: bool = False) -> Confirmed:
        """Record a hit confirmed by ``employee_id`` (whose swipe was already authorised), and
        by ``second_id`` too where the award needs two people; adjust the meter; say what is
        paid. ``paid``: a linked hit as its link's server paid it (the command carries it);
        ``tray_report``: a linked tray pay paid here while the link is down."""

    def end_game(self, db: Database, round_id: int) -> None:
        """Reset for the next round (refuse while a marked hit is unconfirmed)."""

    def end_problem(self, db: Database, round_id: int) -> str | None:
        """Why :meth:`end_game` would refuse now, or None; nothing changes (a screen's
        END GAME is live only when the step would be taken)."""


class NoJackpot:
    """The default: a table without a jackpot system. A hit cannot happen here."""

    owns_awards = False

    def start_game(self, db: Database, round_id: int,
                   wagers: Mapping[int, Mapping[int, int]]) -> None:
        return None

    def award(self, db: Database, round_id: int, spot: int, seat: int, hand_line: int,
              cards: tuple[Card, ...], employee_id: str, second_id: str | None = None,
              paid: LinkedHit | None = None, tray_report: bool = False) -> Confirmed:
        raise JackpotRefused("this table has no jackpot system to confirm a hit with")

    def end_game(self, db: Database, round_id: int) -> None:
        return None

    def end_problem(self, db: Database, round_id: int) -> str | None:
        return None


def sensed_wagers(locked: list[list[Any]]) -> dict[int, dict[int, int]]:
    """``{spot: {seat: cents}}`` from the locked wagers of a ``game_started`` event."""
    out: dict[int, dict[int, int]] = {}
    for seat, kind, cents in locked:
        if kind in SPOT_OF_KIND:
            out.setdefault(SPOT_OF_KIND[kind], {})[int(seat)] = int(cents)
    return out


def wager_only(line: Line) -> Line:
    """A jackpot wager line as the house takes it, whatever the cards: the award, if any, is
    the jackpot system's to pay on confirmation."""
    return replace(line, outcome="taken", returned=0, banker_delta=0, house_delta=line.staked,
                   note="jackpot wager taken at START GAME (never returned); an award is paid "
                        "when a supervisor confirms the hit")


class Planner(Protocol):
    def __call__(self, state: RoundState, rules: RoundRules) -> list[Line]: ...


def wager_only_planner(planner: Planner) -> Planner:
    """``planner`` with every jackpot line reduced to the wager taken (see the module doc).

    The settlement engine knows only the first sensor's game; a second game's wagers are
    added here, after their seat's other lines, each taken the same way."""

    def plan(state: RoundState, rules: RoundRules) -> list[Line]:
        lines = [wager_only(x) if x.kind == JACKPOT_KIND else x for x in planner(state, rules)]
        second = JACKPOT_KINDS[2]
        for (seat, kind), cents in sorted(state.wagers.items()):
            if kind == second:
                at = max((i + 1 for i, x in enumerate(lines) if x.seat == seat),
                         default=len(lines))
                lines.insert(at, wager_only(Line(seat, second, "", cents, 0, 0, 0)))
        return lines

    return plan
