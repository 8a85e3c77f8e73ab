"""What the round procedure needs to know about a table: its profile plus the two choices a
table makes among what the profile allows (how the action seat is found, how hands are dealt).

Every difference between the casinos' procedures is read from the profile here, never from a
casino's name.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_console.errors import ConsoleError
from dealer_console.hands import HandRules
from dealer_console.profiles.model import (
    ActionSeatMethod,
    Area,
    BankerRotation,
    Banking,
    DealMethod,
    Direction,
    FeePayer,
    Foul,
    Game,
    Limit,
    Profile,
    SettleFrom,
)
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS, SPOT_OF_KIND

__all__ = [
    "ActionSeatMethod",
    "BankerRotation",
    "Banking",
    "DealMethod",
    "Direction",
    "Foul",
    "RoundRules",
    "SettleFrom",
    "round_rules",
]

WAGER_AREAS = {
    "base": Area.BASE,
    "fortune": Area.FORTUNE,
    "ace_high": Area.ACE_HIGH,
    "house_wager": Area.HOUSE_WAGER,
    "tips": Area.TIPS,
    "backline": Area.BACKLINE,
}
"""Wager kinds the round takes, by the profile's betting area; ``jackpot`` is the fixed
jackpot wager, ``house_wager`` the house's bet against a Catfish Bend player banker, ``tips``
an Oxford Downs dealer tip bet riding on the hand. A backline wager (California) is kind
``backline:<bettor>``: several bettors may stand behind one seat."""

BACKLINE_PREFIX = "backline:"


def base_kind(kind: str) -> str:
    """``backline:Ann`` -> ``backline``; other kinds unchanged."""
    return "backline" if kind.startswith(BACKLINE_PREFIX) else kind


class RulesError(ConsoleError, ValueError):
    """A table choice the profile does not allow."""


@dataclass(frozen=True, slots=True)
class RoundRules:
    profile: Profile
    action_method: ActionSeatMethod
    deal_method: DealMethod

    @property
    def name(self) -> str:
        return self.profile.name

    @property
    def banking(self) -> Banking:
        return self.profile.banking

    @property
    def direction(self) -> Direction:
        return self.profile.direction

    @property
    def foul(self) -> Foul:
        return self.profile.foul

    @property
    def hand_rules(self) -> HandRules:
        return self.profile.hand_rules

    @property
    def face_up(self) -> bool:
        """Face Up: the banker's hand is exposed and set first, and its ace-high pai gow
        pushes every base wager (rules README, "Face Up")."""
        return self.profile.game is Game.FACE_UP

    @property
    def house_hand(self) -> bool:
        """Whether the house plays a hand at the dealer's spot (seat 0)."""
        return self.banking in (Banking.HOUSE, Banking.HOUSE_OR_PLAYER_BANKER)

    @property
    def player_banked(self) -> bool:
        return self.banking in (Banking.PLAYER_DEALER, Banking.DESIGNATED_PLAYER)

    @property
    def seats(self) -> tuple[int, ...]:
        """The positions in clockwise order: the dealer's spot 0 and then the player seats, or
        only player seats when players bank among themselves. Seat numbers rise clockwise from
        the dealer's left."""
        n = self.profile.positions
        return tuple(range(n)) if self.house_hand else tuple(range(1, n + 1))

    @property
    def player_seats(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s != 0)

    def limit(self, kind: str) -> Limit | None:
        area = WAGER_AREAS.get(base_kind(kind))
        return self.profile.limit(area) if area is not None else None

    @property
    def banker_limit(self) -> Limit | None:
        return self.profile.limit(Area.BANKER)

    @property
    def wager_kinds(self) -> tuple[str, ...]:
        kinds = [k for k, area in WAGER_AREAS.items() if area in self.profile.limits
                 and (k != "tips" or self.profile.tip_bets)
                 and (k != "backline" or self.profile.backline)]

        if self.profile.jackpots is not None:
            kinds += [JACKPOT_KINDS[g.spot] for g in self.profile.jackpots.games]
        elif self.profile.jackpot is not None:
            kinds.append(JACKPOT_KINDS[1])
        return tuple(kinds)

    def jackpot_wager(self, kind: str) -> int | None:
        """The fixed wager of the jackpot game taking ``kind``, or None for other kinds."""

        spot = SPOT_OF_KIND.get(kind)
        if spot is None:
            return None
        if self.profile.jackpots is not None:
            games = {g.spot: g.wager_cents for g in self.profile.jackpots.games}
            return games.get(spot)
        if spot == 1 and self.profile.jackpot is not None:
            return self.profile.jackpot.wager
        return None

    @property
    def envy_threshold(self) -> int | None:
        return self.profile.envy.threshold if self.profile.envy else None

    @property
    def max_consecutive_bank(self) -> int:
        """California: two rounds running at most ("Type of game")."""
        return 2 if self.profile.banker_rotation is BankerRotation.TWO_ROUNDS_THEN_CLOCKWISE else 0

    @property
    def banker_must_cover(self) -> bool:
        """Catfish Bend ("Player Banker"): a player banks only when they cover every standard
        wager; on covered tables the banker's wager merely bounds the action instead."""
        return self.banking is Banking.HOUSE_OR_PLAYER_BANKER

    @property
    def rake_payer(self) -> bool:
        """Oxford Downs: the fee is the designated player's rake, not a per-hand fee."""
        return self.profile.fees is not None and self.profile.fees.payer is FeePayer.BANKER

    def fee_for(self, seat: int, banker_seat: int, wagers: dict[tuple[int, str], int],
                banker_wager: int) -> int:
        """The collection fee or rake ``seat`` pays before the deal, 0 if none (California:
        each hand by the size of its wager; Oxford Downs: the designated player's rake)."""
        fees = self.profile.fees
        if fees is None:
            return 0
        if seat == banker_seat:
            return fees.fee_for(banker_wager) if self.player_banked else 0
        if fees.payer is FeePayer.BANKER:
            return 0
        base = wagers.get((seat, "base"), 0)
        return fees.fee_for(base) if base else 0


def round_rules(profile: Profile, action_method: str | None = None,
                deal_method: str | None = None) -> RoundRules:
    """The profile with the table's choices; the first the profile lists is the default."""
    try:
        action = (ActionSeatMethod(action_method) if action_method
                  else profile.action_seat_methods[0])
        deal = DealMethod(deal_method) if deal_method else profile.deal_methods[0]
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    if action not in profile.action_seat_methods:
        allowed = ", ".join(m.value for m in profile.action_seat_methods)
        raise RulesError(f"{profile.name}: the action seat is found by {allowed}, "
                         f"not {action.value}")
    if deal not in profile.deal_methods:
        allowed = ", ".join(m.value for m in profile.deal_methods)
        raise RulesError(f"{profile.name}: hands are dealt by {allowed}, not {deal.value}")
    return RoundRules(profile, action, deal)

