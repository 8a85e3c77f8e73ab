"""The evolve step: one event applied to the round's state (no validation: the event is a
fact), and the replay that rebuilds a round from its log."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_console.cards import parse_cards
from dealer_console.round.events import EventKind as E
from dealer_console.round.jackpot_kinds import award_kind
from dealer_console.round.rotation import new_state
from dealer_console.round.state import Line, Phase, RoundState
from dealer_console.round.values import (
    EventTuple,
    Payload,
    line_from,
    setting_from,
)


def clone(state: RoundState) -> RoundState:
    """A copy deep enough that evolving it leaves ``state`` untouched."""
    from copy import copy

    new = copy(state)
    new.opening = dict(state.opening)
    new.wagers = dict(state.wagers)
    new.fees = dict(state.fees)
    new.hands = dict(state.hands)
    new.delivered = list(state.delivered)
    new.settings = dict(state.settings)
    new.set_how = dict(state.set_how)
    new.fouls = dict(state.fouls)
    new.dead = set(state.dead)
    new.plan = list(state.plan)
    new.settled_seats = list(state.settled_seats)
    new.lines = list(state.lines)
    new.jackpot_hits = list(state.jackpot_hits)
    return new


def evolve(state: RoundState, event: EventTuple) -> None:
    """Apply one event to ``state`` in place (no validation: the event is a fact)."""
    kind, p = event
    if kind == E.BANK_ACCEPTED:
        state.banker_seat = p["seat"]
        state.banker_kind = "player"
        state.banker_wager = p["wager_cents"]
        state.consecutive = p["consecutive"]
        state.phase = Phase.BETTING
    elif kind == E.BANK_DECLINED:
        if p["house_banks"]:
            state.banker_seat, state.banker_kind, state.phase = 0, "house", Phase.BETTING
        else:
            state.offer_seat = state.banker_seat = p["next_offer"]
    elif kind == E.WAGER_PLACED:
        state.wagers[(p["seat"], p["kind"])] = p["cents"]
    elif kind == E.WAGER_REMOVED:
        del state.wagers[(p["seat"], p["kind"])]
    elif kind == E.GAME_STARTED:
        state.locked = True
        state.fees = {(seat, k): cents for seat, k, cents in p.get("fees", [])}
        state.phase = Phase.ACTION
    elif kind == E.ROUND_VOIDED:
        state.lines = [line_from(x) for x in p["lines"]]
        state.phase = Phase.VOIDED
    elif kind == E.ACTION_SET:
        state.action_number = p["number"]
        state.first_seat = p["first_seat"]
        state.action_seat = p["action_seat"]
        state.order = tuple(p["order"])
        state.phase = Phase.DEALING
    elif kind == E.HAND_DEALT:
        state.hands[p["seat"]] = parse_cards(p["cards"])
        state.delivered.append(p["seat"])
        if p.get("wrong_start") is not None:
            state.wrong_start = p["wrong_start"]
        if len(state.delivered) == len(state.order):
            state.phase = Phase.DEAL_CHECK
    elif kind == E.FIRST_HAND_CORRECTED:
        moved = {to: state.hands[frm] for frm, to in p["moves"]}
        state.hands = moved
        state.delivered = [to for _frm, to in p["moves"]]
        state.wrong_start = None
    elif kind == E.CARDS_EXPOSED:
        state.exposed = p["total"]
    elif kind == E.DEAL_CHECKED:
        state.phase = Phase.BANKER_SET if state.banker_first else Phase.PLAYERS_SET
    elif kind == E.MISDEAL:
        state.misdeal_reason = p["reason"]
        state.deck_count_due = bool(p["deck_count_due"])
        state.phase = Phase.MISDEAL
    elif kind == E.DECK_COUNTED:
        state.opening["last_count"] = p["count"]  # the screen says what was counted
        if p["ok"]:
            state.deck_count_due = False
    elif kind == E.REDEAL:
        state.deal_no = p["deal_no"]
        state.opening.pop("last_count", None)
        state.hands, state.delivered, state.order = {}, [], ()
        state.wrong_start, state.exposed, state.misdeal_reason = None, 0, None
        if state.action_seat is not None:  # the button stays where this round put it
            state.opening["button_this_round"] = state.action_seat
        state.first_seat = state.action_seat = state.action_number = None
        state.phase = Phase.ACTION
    elif kind == E.BANKER_SET:
        state.banker_setting = setting_from(p)
        state.ace_high_push = p["ace_high_push"]
        if state.banker_first and not state.ace_high_push:
            state.phase = Phase.PLAYERS_SET
    elif kind == E.PLAYER_SET:
        seat = p["seat"]
        state.settings[seat] = setting_from(p)
        state.set_how[seat] = p["how"]
        state.fouls[seat] = p["fouls"]
        if p["dead"]:
            state.dead.add(seat)
    elif kind == E.PLAYERS_DONE:
        state.phase = Phase.BANKER_SET
    elif kind == E.BANKER_RECONSTRUCTED:
        state.banker_setting = setting_from(p)
        state.reconstructed = str(p["who"])
    elif kind == E.SETTLEMENT_PLANNED:
        state.plan = [line_from(x) for x in p["lines"]]
        state.opening["plan_seats"] = list(p["seats"])
        state.phase = Phase.SETTLEMENT if p["seats"] else Phase.END
    elif kind == E.SEAT_SETTLED:
        state.settled_seats.append(p["seat"])
        state.lines.extend(line_from(x) for x in p["lines"])
        if p["last"]:
            state.phase = Phase.END
    elif kind == E.JACKPOT_HIT:
        award = int(p.get("award_cents", 0))
        spot = int(p.get("spot", 1))
        state.jackpot_hits.append((p["seat"], p["hand_line"], award, p["who"], spot))
        state.lines.append(Line(p["seat"], award_kind(spot, p["hand_line"]), "win", 0, award,
                                0, -award, f"confirmed by {p['who']}"))
    elif kind == E.GAME_ENDED:
        state.opening["next"] = p["next"]
        state.phase = Phase.COMPLETE
    elif kind == E.ROUND_OPENED:
        raise ValueError("round_opened starts a new state; use new_state()")
    else:
        raise ValueError(f"unknown event kind {kind!r}")


def replay(events: Sequence[tuple[int, str, Payload]], banker_first: bool) -> RoundState:
    """Rebuild a round from its events ``(seq, kind, payload)``; the first is round_opened."""
    if not events or events[0][1] != E.ROUND_OPENED:
        raise ValueError("a round's events begin with round_opened")
    state = new_state(events[0][2], events[0][0], banker_first)
    for seq, kind, payload in events[1:]:
        evolve(state, (kind, payload))
        state.last_seq = seq
    return state
