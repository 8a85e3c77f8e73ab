"""The pure mapping from a device's fact to the round's command: given the round as it stands
and the table's rules, which command a fact stands for, if any, or :data:`HOLD` when the fact
came before its phase. Nothing here acts; the controller applies what it is told.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from enum import Enum

from dealer_console.devices.bet_sensors import BetsLocked
from dealer_console.devices.events import DeviceEvent
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    FirstPositionDrawn,
    HandDelivered,
)
from dealer_console.round import commands as c
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.rules import ActionSeatMethod, RoundRules
from dealer_console.round.state import Phase, RoundState

HANDS = 7
"""Hands a Pai Gow deal delivers: seven, whatever the number of players."""

DealFact = FirstPositionDrawn | HandDelivered | CardsLeft | CardCountError


class Hold(Enum):
    HOLD = "hold"


HOLD = Hold.HOLD
"""The fact came before its phase: keep it and try it again after the next transition."""


DEALS_PER_BLOCK = 8
"""Deal ids go eight to a round (``deal_id_for``)."""
LATE_DEALS_AHEAD = 0x4000
"""A round's ninth deal and after take ids this far ahead of the round's own eight."""


def deal_id_for(round_id: int, deal_no: int) -> int:
    """The shuffler's deal id (1-65535) for a round's deal: the same after a restart, so a deal
    asked for again reports the same facts and the round applies each once.

    A round's first eight deals (``deal_no`` 0-7) have its eight ids. A ninth took the next
    round's first id, which the shuffler then answered with a status only (it had dealt it),
    and that round was never dealt (an outside review). Later deals take ids in turn far
    ahead of the round's (``LATE_DEALS_AHEAD``: the ids of a round some two thousand rounds
    on), none twice in a round (a round keeps each deal's facts by their id: a repeated id's
    hands would be taken for ones already applied), and none among the deals a shuffler and
    its driver remember (``drivers/shuffler/framer.DEALS_REMEMBERED``)."""
    slot = (round_id - 1) * DEALS_PER_BLOCK + deal_no
    if deal_no >= DEALS_PER_BLOCK:
        slot += LATE_DEALS_AHEAD - DEALS_PER_BLOCK
    return slot % 0xFFFF + 1


def lock_id_for(round_id: int) -> int:
    """The bet sensors' lock id (1-65535) for a round, for the same reason."""
    return (round_id - 1) % 0xFFFF + 1


def deal_command(event: DealFact, st: RoundState, rules: RoundRules,
                 first_seat: int | None) -> c.Command | Hold | None:
    """The command a fact of the current deal stands for now; ``first_seat`` is where the
    dealer said the first hand went (None: the first position)."""
    if isinstance(event, FirstPositionDrawn):
        if rules.action_method is ActionSeatMethod.SHUFFLER and st.phase is Phase.ACTION:
            return c.SetActionNumber(event.number)
        return None
    if isinstance(event, CardCountError):
        if st.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK):
            return c.ShufflerCountError(f"the shuffler counted {event.counted} cards")
        return None
    if st.phase is Phase.ACTION:
        return HOLD
    if isinstance(event, HandDelivered):
        if st.phase is Phase.DEALING:
            return c.DealHand(event.cards, first_seat if not st.delivered else None, event.index)
        return None
    if st.phase is Phase.DEALING or (st.phase is Phase.DEAL_CHECK and st.wrong_start is None):
        return c.RemainingCards(event.count, event.cards)
    if st.phase is Phase.DEAL_CHECK:
        return HOLD  # counted once the dealer has moved the hands
    return None


def deal_came_short(st: RoundState, held: Sequence[DeviceEvent]) -> bool:
    """Whether the round still lacks facts of its deal that the shuffler, done with the deal,
    will never send: hands (or the cards left) the driver took that never reached the round
    (a console restart while they waited for the dice, a jam). ``held``: the deal's facts
    the controller holds for a later phase."""
    hands = len(st.delivered) + sum(isinstance(e, HandDelivered) for e in held)
    if st.phase in (Phase.ACTION, Phase.DEALING):
        return hands < (len(st.order) or HANDS)
    if st.phase is Phase.DEAL_CHECK:
        return not any(isinstance(e, CardsLeft) for e in held)
    return False


def wager_commands(event: BetsLocked, st: RoundState, rules: RoundRules
                   ) -> list[tuple[c.PlaceWager, Hashable]]:
    """The jackpot wagers the sensors' lock holds, each with its fact key, in spot order: a
    spot of no jackpot game of this table, or a wager already placed, is left out."""
    out: list[tuple[c.PlaceWager, Hashable]] = []
    for spot in sorted(event.wagered):
        kind = JACKPOT_KINDS.get(spot.spot)
        fixed = rules.jackpot_wager(kind) if kind else None
        if kind is None or fixed is None or (spot.seat, kind) in st.wagers:
            continue
        out.append((c.PlaceWager(spot.seat, kind, fixed),
                    (*_tuple(event.key), spot.seat, spot.spot)))
    return out


def stale_jackpot_wagers(event: BetsLocked, st: RoundState
                         ) -> list[tuple[c.RemoveWager, Hashable]]:
    """Jackpot wagers the round holds before START GAME whose chip is not in the lock (left
    by a console that saved each chip's wager before START GAME: a power cut or a refused
    START GAME between them), each with its fact key: taken back in the lock's transaction."""
    held = {(spot.seat, JACKPOT_KINDS.get(spot.spot)) for spot in event.wagered}
    kinds = set(JACKPOT_KINDS.values())
    return [(c.RemoveWager(seat, kind), (*_tuple(event.key), seat, kind, "gone"))
            for seat, kind in sorted(st.wagers) if kind in kinds and (seat, kind) not in held]


def _tuple(key: Hashable) -> tuple[Hashable, ...]:
    return key if isinstance(key, tuple) else (key,)
