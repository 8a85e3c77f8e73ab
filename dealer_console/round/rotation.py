"""Who banks: the opening of a round and the banker rotation that closes it (rules README,
"Banker rotation")."""

from __future__ import annotations

from collections.abc import Mapping

from dealer_console.round.events import EventKind as E
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.rules import (
    Banking,
    RoundRules,
)
from dealer_console.round.seats import (
    next_seat,
)
from dealer_console.round.state import Phase, RoundState
from dealer_console.round.values import (
    EventTuple,
    Payload,
)


def opening(rules: RoundRules, round_id: int, previous: Payload | None) -> EventTuple:
    """The ``round_opened`` event: who banks or is offered the bank (rules README, "Banker
    rotation"). ``previous`` is the last round's ``next`` block, None for the first round."""
    if previous is not None:
        return E.ROUND_OPENED, {"round_id": round_id, "profile": rules.name, **previous}
    if rules.banking is Banking.HOUSE:
        block = house_banks(rotation=0)
    elif rules.banking is Banking.HOUSE_OR_PLAYER_BANKER:
        block = house_banks(rotation=0)  # Catfish Bend: "The dealer will be the first banker."
    else:
        first = rules.player_seats[0]
        block = {"phase": Phase.BANKER.value, "banker_seat": first, "banker_kind": "player",
                 "offer_seat": first, "offer_start": first, "rotation_seat": first,
                 "prev_banker": None, "prev_consecutive": 0, "consecutive": 1}
    return E.ROUND_OPENED, {"round_id": round_id, "profile": rules.name, **block}


def house_banks(rotation: int) -> Payload:
    return {"phase": Phase.BETTING.value, "banker_seat": 0, "banker_kind": "house",
            "offer_seat": 0, "offer_start": 0, "rotation_seat": rotation, "prev_banker": None,
            "prev_consecutive": 0, "consecutive": 1}


def new_state(payload: Payload, seq: int = 0, banker_first: bool = True) -> RoundState:
    state = RoundState(
        round_id=int(payload["round_id"]),
        profile=str(payload["profile"]),
        phase=Phase(payload["phase"]),
        banker_seat=int(payload["banker_seat"]),
        banker_kind=str(payload["banker_kind"]),
        offer_seat=int(payload["offer_seat"]),
        consecutive=int(payload["consecutive"]),
    )
    state.opening = dict(payload)
    state.last_seq = seq
    state.banker_first = banker_first
    return state




def next_banker(state: RoundState, rules: RoundRules) -> Payload:
    """Banker rotation per profile (rules README, "Banker rotation"), and where this round's
    action button was (it moves on from there at high-card tables)."""
    return {**_next_banker(state, rules), "prev_action_seat": state.action_seat,
            "last_wagers": [list(w) for w in _wagers_after(state)],
            "last_banks": [list(b) for b in _banks_after(state)]}


UNREPEATED = (*JACKPOT_KINDS.values(), "house_wager")


def repeatable(kind: str) -> bool:
    """Whether a wager of ``kind`` is one the dealer's "same as" touches place again: never a
    jackpot chip (read from the chip or the sensors), the house's wager or a backline (each
    named at the table)."""
    return kind not in UNREPEATED and not kind.startswith("backline")


def copied_wagers(wagers: Mapping[tuple[int, str], int], seat: int) -> list[tuple[str, int]]:
    """The wagers of ``seat`` that a copy to another seat places (``CopyWagers``), the base
    first, as a bonus wager rides on it: ``(kind, cents)``."""
    return sorted(((k, a) for (s, k), a in wagers.items() if s == seat and repeatable(k)),
                  key=lambda w: w[0] != "base")
"""Wagers never placed again from last round: a jackpot chip is read from its sensor each
round, the house's wager is the dealer's own."""


def last_wagers(state: RoundState) -> list[tuple[int, str, int]]:
    """Each seat's wagers as it last played (``seat, kind, cents``): last round's, and for
    last round's player banker the ones it played before it banked."""
    return [(int(s), str(k), int(a)) for s, k, a in state.opening.get("last_wagers", [])]


def last_base(state: RoundState, seat: int) -> int | None:
    """Seat ``seat``'s base wager as it last played (None: it has not played one)."""
    return next((a for s, k, a in last_wagers(state) if s == seat and k == "base"), None)


def own_bank(state: RoundState) -> int | None:
    """The bank the seat offered the bank put up the last time it banked, else its own base
    wager as it last played: never an amount of another player's."""
    seat = state.offer_seat
    banks = {int(s): int(a) for s, a in state.opening.get("last_banks", [])}
    if seat in banks:
        return banks[seat]
    return last_base(state, seat)


def _wagers_after(state: RoundState) -> list[tuple[int, str, int]]:
    """What each seat played this round; a player banker's seat keeps what it played before
    it banked. A banker's own wager while banking (Catfish Bend lets it play the Fortune)
    is no player's wager: an outside review found the banker's Fortune recorded alone, so
    "same wagers" next round placed a Fortune with no base under it and was refused for the
    whole table."""
    banker = state.banker_seat if state.banker_kind == "player" else None
    played = [(s, k, a) for (s, k), a in state.wagers.items()
              if s not in (0, banker) and repeatable(k)]
    kept = [w for w in last_wagers(state) if w[0] == banker]
    return sorted(played + kept)


def _banks_after(state: RoundState) -> list[tuple[int, int]]:
    banks = {int(s): int(a) for s, a in state.opening.get("last_banks", [])}
    if state.banker_kind == "player" and state.banker_wager:
        banks[state.banker_seat] = state.banker_wager
    return sorted(banks.items())


def _next_banker(state: RoundState, rules: RoundRules) -> Payload:
    if rules.banking is Banking.HOUSE:
        return house_banks(rotation=0)
    if rules.banking is Banking.HOUSE_OR_PLAYER_BANKER:
        pointer = int(state.opening.get("rotation_seat", 0))
        if state.banker_kind == "player":
            return house_banks(rotation=pointer)  # back to the dealer for one round
        spot = next_seat(rules, pointer)
        if spot == 0:
            return house_banks(rotation=0)
        return {"phase": Phase.BANKER.value, "banker_seat": 0, "banker_kind": "house",
                "offer_seat": spot, "offer_start": spot, "rotation_seat": spot,
                "prev_banker": None, "prev_consecutive": 0, "consecutive": 1}
    keep = (rules.banking is Banking.PLAYER_DEALER and rules.max_consecutive_bank
            and state.consecutive < rules.max_consecutive_bank)
    offer = state.banker_seat if keep else next_seat(rules, state.banker_seat, rules.direction)
    return {"phase": Phase.BANKER.value, "banker_seat": offer, "banker_kind": "player",
            "offer_seat": offer, "offer_start": offer, "rotation_seat": offer,
            "prev_banker": state.banker_seat, "prev_consecutive": state.consecutive,
            "consecutive": 1}
