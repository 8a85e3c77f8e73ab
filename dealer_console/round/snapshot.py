"""A frozen picture of a round for screens to draw: they never hold the mutable
:class:`~dealer_console.round.state.RoundState`, so nothing a widget does can change a round,
and a picture taken before a command still shows what was true then."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from dealer_console.cards import Card
from dealer_console.round.decide_setting import reconstruct_problem, second_chances
from dealer_console.round.rotation import copied_wagers, last_wagers, own_bank
from dealer_console.round.rules import RoundRules
from dealer_console.round.state import Line, Phase, RoundState, seats_with_base
from dealer_console.setting import Setting


@dataclass(frozen=True, slots=True)
class JackpotHitView:
    seat: int
    hand_line: int
    award_cents: int
    who: str
    spot: int


@dataclass(frozen=True, slots=True)
class RoundSnapshot:
    round_id: int
    profile: str
    phase: Phase
    banker_seat: int
    banker_kind: str
    offer_seat: int
    consecutive: int
    banker_wager: int
    wagers: Mapping[tuple[int, str], int]
    fees: Mapping[tuple[int, str], int]
    locked: bool
    action_number: int | None
    first_seat: int | None
    action_seat: int | None
    deal_no: int
    order: tuple[int, ...]
    wrong_start: int | None
    hands: Mapping[int, tuple[Card, ...]]
    delivered: tuple[int, ...]
    exposed: int
    deck_count_due: bool
    misdeal_reason: str | None
    banker_setting: Setting | None
    ace_high_push: bool
    settings: Mapping[int, Setting]
    set_how: Mapping[int, str]
    fouls: Mapping[int, int]
    dead: frozenset[int]
    plan: tuple[Line, ...]
    plan_seats: tuple[int, ...]
    settled_seats: tuple[int, ...]
    lines: tuple[Line, ...]
    jackpot_hits: tuple[JackpotHitView, ...]
    banker_first: bool
    last_wagers: tuple[tuple[int, str, int], ...] = ()
    """Each seat's wagers as it last played (``rotation.last_wagers``)."""
    own_bank: int | None = None
    """The amount the seat offered the bank may bank again (``rotation.own_bank``)."""
    last_count: int | None = None
    """The last deck count after this misdeal (the shuffler's or by hand), None before one."""
    second_chances: tuple[int, ...] = ()
    """Hands reset the House Way after a first foul, waiting for the player's one more try
    (``decide_setting.second_chances``)."""
    reconstruct_problem: str | None = None
    """Why the banker's hand may not be reconstructed now, whatever the setting, or None
    (``decide_setting.reconstruct_problem``)."""

    @classmethod
    def of(cls, state: RoundState, rules: RoundRules) -> RoundSnapshot:
        return cls(
            round_id=state.round_id, profile=state.profile, phase=state.phase,
            banker_seat=state.banker_seat, banker_kind=state.banker_kind,
            offer_seat=state.offer_seat, consecutive=state.consecutive,
            banker_wager=state.banker_wager,
            wagers=MappingProxyType(dict(state.wagers)),
            fees=MappingProxyType(dict(state.fees)), locked=state.locked,
            action_number=state.action_number, first_seat=state.first_seat,
            action_seat=state.action_seat, deal_no=state.deal_no, order=tuple(state.order),
            wrong_start=state.wrong_start, hands=MappingProxyType(dict(state.hands)),
            delivered=tuple(state.delivered), exposed=state.exposed,
            deck_count_due=state.deck_count_due, misdeal_reason=state.misdeal_reason,
            banker_setting=state.banker_setting, ace_high_push=state.ace_high_push,
            settings=MappingProxyType(dict(state.settings)),
            set_how=MappingProxyType(dict(state.set_how)),
            fouls=MappingProxyType(dict(state.fouls)), dead=frozenset(state.dead),
            plan=tuple(state.plan),
            plan_seats=tuple(int(s) for s in state.opening.get("plan_seats", ())),
            settled_seats=tuple(state.settled_seats), lines=tuple(state.lines),
            jackpot_hits=tuple(JackpotHitView(*hit) for hit in state.jackpot_hits),
            banker_first=state.banker_first,
            last_wagers=tuple(last_wagers(state)), own_bank=own_bank(state),
            last_count=state.opening.get("last_count"),
            second_chances=tuple(second_chances(state, rules)),
            reconstruct_problem=reconstruct_problem(state, rules),
        )

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.COMPLETE, Phase.VOIDED)

    def wager(self, seat: int, kind: str) -> int:
        return self.wagers.get((seat, kind), 0)

    def seats_with_base(self) -> list[int]:
        return seats_with_base(self.wagers)

    def copied_wagers(self, seat: int) -> list[tuple[str, int]]:
        """The wagers of ``seat`` that a copy to another seat places (``CopyWagers``), the
        base first: ``(kind, cents)``."""
        return copied_wagers(self.wagers, seat)

    @property
    def banker_coverage_left(self) -> int | None:
        """What a player banker's wager still covers, in cents, after the seats settled so
        far (None when the house banks)."""
        if self.banker_kind != "player":
            return None
        return self.banker_wager + sum(x.banker_delta for x in self.lines)

    def next_to_settle(self) -> int | None:
        """The seat the dealer pays or takes next, in the settlement order."""
        todo = [s for s in self.plan_seats if s not in self.settled_seats]
        return todo[0] if todo else None

    def lines_of(self, seat: int) -> tuple[Line, ...]:
        return tuple(x for x in self.plan if x.seat == seat)

    @property
    def house_hand_last(self) -> bool:
        """The house's hand stays face down until a player banker has set theirs (Catfish
        Bend, "Player Banker"; ``decide_setting.house_hand_last``)."""
        return (not self.banker_first and self.banker_kind == "player"
                and 0 in self.seats_with_base())

    def players_to_set(self) -> list[int]:
        """Seats holding a base wager whose hand is not set yet (the banker's excepted, and
        the house's while it waits for a player banker's), then the hands waiting for their
        second chance (``decide_setting.players_to_set``)."""
        later = {0} if self.house_hand_last else set()
        return [s for s in self.seats_with_base()
                if s != self.banker_seat and s not in self.settings
                and s not in later] + list(self.second_chances)
