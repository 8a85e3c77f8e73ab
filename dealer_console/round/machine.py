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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dealer_console.cards import Card, CardError, format_cards, parse_cards
from dealer_console.errors import Refusal
from dealer_console.money import format_cents
from dealer_console.round import commands as c
from dealer_console.round.events import EventKind as E
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS, award_kind
from dealer_console.round.phases import not_accepted
from dealer_console.round.rules import (
    BACKLINE_PREFIX,
    ActionSeatMethod,
    Banking,
    Direction,
    Foul,
    RoundRules,
    base_kind,
)
from dealer_console.round.seats import (
    HAND_SIZE,
    LEFT_OVER,
    action_from_number,
    action_from_seat,
    next_seat,
    order_from,
    settlement_order,
)
from dealer_console.round.state import Line, MisdealReason, Phase, RoundState
from dealer_console.setting import Setting, is_foul, make_setting, parse_setting
from dealer_console.seven import ace_high_status

Payload = dict[str, Any]
EventTuple = tuple[str, Payload]
DECK_SIZE = 53
DICE_RANGE = (3, 18)


class Refused(Refusal):
    """A command that is not allowed now; the message says why. Nothing was changed."""


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


def opening(rules: RoundRules, round_id: int, previous: Payload | None) -> EventTuple:
    """The ``round_opened`` event: who banks or is offered the bank (rules README, "Banker
    rotation"). ``previous`` is the last round's ``next`` block, None for the first round."""
    if previous is not None:
        return E.ROUND_OPENED, {"round_id": round_id, "profile": rules.name, **previous}
    if rules.banking is Banking.HOUSE:
        block = _house_banks(rotation=0)
    elif rules.banking is Banking.HOUSE_OR_PLAYER_BANKER:
        block = _house_banks(rotation=0)  # Catfish Bend: "The dealer will be the first banker."
    else:
        first = rules.player_seats[0]
        block = {"phase": Phase.BANKER.value, "banker_seat": first, "banker_kind": "player",
                 "offer_seat": first, "offer_start": first, "rotation_seat": first,
                 "prev_banker": None, "prev_consecutive": 0, "consecutive": 1}
    return E.ROUND_OPENED, {"round_id": round_id, "profile": rules.name, **block}


def _house_banks(rotation: int) -> Payload:
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


# -- decide ---------------------------------------------------------------------------------


def _need(state: RoundState, cmd: c.Command) -> None:
    """Refuse ``cmd`` unless the phase table (:mod:`dealer_console.round.phases`) accepts it."""
    problem = not_accepted(state.phase, type(cmd))
    if problem:
        raise Refused(problem)


def decide(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
           ) -> list[EventTuple]:
    handler = _HANDLERS.get(type(cmd))
    if handler is None:
        raise Refused(f"unknown command {type(cmd).__name__}")
    if state.finished:
        raise Refused(f"round {state.round_id} is {state.phase.value}; nothing more happens in it")
    return handler(state, rules, cmd, services)


def _accept_bank(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.AcceptBank)
    _need(state, cmd)
    if cmd.seat != state.offer_seat:
        raise Refused(f"the bank is offered to seat {state.offer_seat}, not seat {cmd.seat}")
    if not isinstance(cmd.wager_cents, int) or cmd.wager_cents <= 0:
        raise Refused(f"seat {cmd.seat}: the banker's wager must be a positive amount in cents")
    limit = rules.banker_limit
    problem = limit.check(cmd.wager_cents) if limit is not None else None
    if problem:
        raise Refused(f"seat {cmd.seat}: a banker's wager of {format_cents(cmd.wager_cents)} is "
                      f"{problem}")
    prev = state.opening.get("prev_banker")
    consecutive = int(state.opening.get("prev_consecutive", 0)) + 1 if prev == cmd.seat else 1
    if rules.max_consecutive_bank and consecutive > rules.max_consecutive_bank:
        raise Refused(f"seat {cmd.seat} has banked {consecutive - 1} rounds running; the limit "
                      f"is {rules.max_consecutive_bank}")
    return [(E.BANK_ACCEPTED, {"seat": cmd.seat, "wager_cents": cmd.wager_cents,
                               "consecutive": consecutive})]


def _decline_bank(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                  ) -> list[EventTuple]:
    assert isinstance(cmd, c.DeclineBank)
    _need(state, cmd)
    if cmd.seat != state.offer_seat:
        raise Refused(f"the bank is offered to seat {state.offer_seat}, not seat {cmd.seat}")
    if rules.banking is Banking.HOUSE_OR_PLAYER_BANKER:
        # Catfish Bend: a player who does not bank leaves the house as banker this round.
        return [(E.BANK_DECLINED, {"seat": cmd.seat, "house_banks": True, "next_offer": 0})]
    following = next_seat(rules, cmd.seat, rules.direction)
    if following == state.opening.get("offer_start"):
        raise Refused("every seat has declined the bank; void the round")
    return [(E.BANK_DECLINED, {"seat": cmd.seat, "house_banks": False, "next_offer": following})]


def _check_amount(seat: int, kind: str, cents: object) -> int:
    if not isinstance(cents, int) or isinstance(cents, bool):
        raise Refused(f"seat {seat} {kind}: an amount must be whole cents, got {cents!r}")
    if cents <= 0:
        raise Refused(f"seat {seat} {kind}: an amount must be positive, got {cents}")
    return cents


def _place_wager(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.PlaceWager)
    if state.locked:
        raise Refused(f"seat {cmd.seat}: no wager after START GAME (wagers are locked)")
    _need(state, cmd)
    cents = _check_amount(cmd.seat, cmd.kind, cmd.cents)
    if base_kind(cmd.kind) == "backline" and not cmd.kind[len(BACKLINE_PREFIX):].strip():
        raise Refused(f"seat {cmd.seat}: name the backline bettor (kind 'backline:<name>')")
    if base_kind(cmd.kind) not in rules.wager_kinds:
        raise Refused(f"seat {cmd.seat}: this table takes no {cmd.kind!r} wager "
                      f"(it takes {', '.join(rules.wager_kinds)})")
    if cmd.kind == "house_wager":
        if not (rules.house_hand and state.banker_kind == "player" and cmd.seat == 0):
            raise Refused("the house wagers only at the dealer's spot against a player banker")
    elif cmd.seat not in rules.player_seats:
        raise Refused(f"seat {cmd.seat} is not a player seat here (seats {rules.player_seats})")
    if (cmd.seat, cmd.kind) in state.wagers:
        raise Refused(f"seat {cmd.seat} already has a {cmd.kind} wager; remove it first")
    is_banker = state.banker_kind == "player" and cmd.seat == state.banker_seat
    # Catfish Bend, "Player Banker": a Fortune wager is the one bet open to the banking player.
    banker_fortune = cmd.kind == "fortune" and rules.banking is Banking.HOUSE_OR_PLAYER_BANKER
    if is_banker and not banker_fortune:
        raise Refused(f"seat {cmd.seat} is the banker and cannot place a {cmd.kind} wager")
    rides = ("fortune", "ace_high", "tips", "backline", *JACKPOT_KINDS.values())
    if base_kind(cmd.kind) in rides and not is_banker and (cmd.seat, "base") not in state.wagers:
        raise Refused(f"seat {cmd.seat}: a {cmd.kind} wager needs a base wager first")
    fixed = rules.jackpot_wager(cmd.kind)
    if fixed is not None:
        if cents != fixed:
            raise Refused(f"seat {cmd.seat}: the {cmd.kind} wager is fixed at {fixed} "
                          f"cents, not {cents}")
    else:
        limit = rules.limit(cmd.kind)
        problem = limit.check(cents) if limit is not None else None
        if problem:
            raise Refused(f"seat {cmd.seat} {cmd.kind.replace('_', ' ')}: "
                          f"{format_cents(cents)} is {problem}")
    threshold = rules.envy_threshold
    envy = cmd.kind == "fortune" and threshold is not None and cents >= threshold
    return [(E.WAGER_PLACED, {"seat": cmd.seat, "kind": cmd.kind, "cents": cents,
                              "envy": envy})]


def _remove_wager(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                  ) -> list[EventTuple]:
    assert isinstance(cmd, c.RemoveWager)
    if state.locked:
        raise Refused(f"seat {cmd.seat}: wagers are locked after START GAME")
    _need(state, cmd)
    if (cmd.seat, cmd.kind) not in state.wagers:
        raise Refused(f"seat {cmd.seat} has no {cmd.kind} wager")
    if cmd.kind == "base" and any(s == cmd.seat and k != "base" for (s, k) in state.wagers):
        raise Refused(f"seat {cmd.seat}: remove the bonus wagers before the base wager")
    return [(E.WAGER_REMOVED, {"seat": cmd.seat, "kind": cmd.kind})]


def _start_game(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                ) -> list[EventTuple]:
    """START GAME locks and counts the wagers and takes the collection fees or the rake, which
    both documents have paid before the deal (California "Collection procedures", Oxford Downs
    "House Rake")."""
    _need(state, cmd)
    if not any(k == "base" for (_seat, k) in state.wagers):
        raise Refused("START GAME needs at least one base wager")
    player_banker = state.banker_kind == "player"
    if player_banker and rules.house_hand and (0, "house_wager") not in state.wagers:
        raise Refused("place the house's wager against the player banker first (seat 0)")
    standard = sum(a for (_seat, k), a in state.wagers.items() if k in ("base", "house_wager"))
    if state.banker_kind == "player" and rules.banker_must_cover and standard > state.banker_wager:
        raise Refused(f"the player banker covers {state.banker_wager} cents but the standard "
                      f"wagers total {standard} cents")
    payers = sorted({s for (s, k) in state.wagers if k == "base"}
                    | ({state.banker_seat} if state.banker_kind == "player" else set()))
    fees = []
    for seat in payers:
        fee = rules.fee_for(seat, state.banker_seat, state.wagers, state.banker_wager)
        if fee:
            kind = "rake" if rules.rake_payer and seat == state.banker_seat else "collection_fee"
            fees.append([seat, kind, fee])
    locked = [[s, k, a] for (s, k), a in sorted(state.wagers.items())]
    return [(E.GAME_STARTED, {"wagers": locked, "total_cents": sum(x[2] for x in locked),
                              "fees": fees})]


def _void_round(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                ) -> list[EventTuple]:
    assert isinstance(cmd, c.VoidRound)
    _need(state, cmd)
    if not cmd.who.strip():
        raise Refused("voiding a round needs the name of who voids it")
    lines = [Line(s, k, "returned", a, a, 0, 0, "round voided")
             for (s, k), a in sorted(state.wagers.items())]
    return [(E.ROUND_VOIDED, {"reason": cmd.reason, "who": cmd.who,
                              "lines": [line_json(x) for x in lines]})]


def _action(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
            ) -> list[EventTuple]:
    _need(state, cmd)
    try:
        if isinstance(cmd, c.SetActionSeat):
            if rules.action_method is not ActionSeatMethod.HIGH_CARD:
                raise Refused(f"this table finds the action by {rules.action_method.value}")
            expected = button_seat(state, rules)
            if expected is not None and cmd.seat != expected and not cmd.restart:
                raise Refused(f"the action button moves clockwise every hand: it goes to seat "
                              f"{expected} (a new high card needs the floor's permission)")
            action = action_from_seat(rules, state.banker_seat, cmd.seat)
        else:
            assert isinstance(cmd, c.SetActionNumber)
            if rules.action_method is ActionSeatMethod.HIGH_CARD:
                raise Refused("this table finds the action by high card: give the seat")
            n = cmd.number
            dice = rules.action_method is ActionSeatMethod.DICE
            if dice and not DICE_RANGE[0] <= n <= DICE_RANGE[1]:
                raise Refused(f"three dice total 3-18, not {n}")
            action = action_from_number(rules, state.banker_seat, n)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    order = order_from(rules, action.first_seat)
    return [(E.ACTION_SET, {"number": action.number, "position": action.position,
                            "first_seat": action.first_seat, "action_seat": action.action_seat,
                            "order": list(order)})]


def button_seat(state: RoundState, rules: RoundRules) -> int | None:
    """Where the action button goes this round when it moves by itself: one seat clockwise
    from last round's action seat, passing over the banker (Oxford Downs, "Action Button").
    None for the first round and at tables that find the action by a number."""
    if rules.action_method is not ActionSeatMethod.HIGH_CARD:
        return None
    previous = state.opening.get("prev_action_seat")
    if previous is None or previous not in rules.seats:
        return None
    seat = next_seat(rules, int(previous), Direction.CLOCKWISE)
    if seat == state.banker_seat:
        seat = next_seat(rules, seat, Direction.CLOCKWISE)
    return seat


def _misdeal(reason: MisdealReason, detail: str, source: str) -> EventTuple:
    return (E.MISDEAL, {"reason": reason.value, "detail": detail, "source": source,
                        "deck_count_due": reason.deck_count_due})


def _deal_hand(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
               ) -> list[EventTuple]:
    assert isinstance(cmd, c.DealHand)
    _need(state, cmd)
    start = state.wrong_start if state.wrong_start is not None else state.first_seat
    assert start is not None
    expected = order_from(rules, start)[len(state.delivered)]
    seat = expected if cmd.seat is None else cmd.seat
    if seat not in rules.seats:
        raise Refused(f"seat {seat} is not at this table")
    if seat in state.hands:
        raise Refused(f"seat {seat} already has a hand")
    due = len(state.delivered) + 1
    if cmd.index is not None and cmd.index < due:
        raise Refused(f"delivery {cmd.index} of this deal is already applied")
    if cmd.index is not None and cmd.index > due:
        # The machine's own count says a hand never reached the table (Catfish Bend,
        # "Irregularities" 2: a spot missed).
        return [_misdeal(MisdealReason.POSITION_MISSED,
                         f"the shuffler delivered hand {cmd.index} after hand {due - 1}",
                         "device")]
    if len(cmd.cards) != HAND_SIZE:
        return [_misdeal(MisdealReason.HAND_NOT_SEVEN,
                         f"seat {seat} got {len(cmd.cards)} cards", "device")]
    seen = {card for cards in state.hands.values() for card in cards}
    repeated = [str(x) for x in cmd.cards if x in seen] + (
        ["(twice in the hand)"] if len(set(cmd.cards)) != len(cmd.cards) else [])
    if repeated:
        return [_misdeal(MisdealReason.CARD_COUNT_ERROR,
                         f"seat {seat}: repeated card {' '.join(repeated)}", "device")]
    wrong_start = None
    if not state.delivered and seat != expected:
        wrong_start = seat  # Catfish Bend, Irregularities: corrected by moving the hands
    elif seat != expected:
        return [_misdeal(MisdealReason.POSITION_MISSED,
                         f"seat {expected} was missed (hand went to seat {seat})", "dealer")]
    return [(E.HAND_DEALT, {"seat": seat, "cards": format_cards(cmd.cards),
                            "delivery": len(state.delivered) + 1, "wrong_start": wrong_start})]


def _correct_first(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                   ) -> list[EventTuple]:
    _need(state, cmd)
    if state.wrong_start is None or state.first_seat is None:
        raise Refused("the first hand went to the right seat; nothing to move")
    wrong = order_from(rules, state.wrong_start)
    right = order_from(rules, state.first_seat)
    moves = [[wrong[i], right[i]] for i in range(len(state.delivered))]
    return [(E.FIRST_HAND_CORRECTED, {"moves": moves})]


def _remaining(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
               ) -> list[EventTuple]:
    assert isinstance(cmd, c.RemainingCards)
    _need(state, cmd)
    if state.phase is Phase.DEALING:
        # The shuffler reports the cards left when it has finished: finishing with positions
        # still without a hand is a spot missed (Catfish Bend, "Irregularities" 2).
        return [_misdeal(MisdealReason.POSITION_MISSED,
                         f"the deal ended after {len(state.delivered)} of {len(state.order)} "
                         f"hands ({cmd.count} cards left)", "device")]
    if state.wrong_start is not None:
        raise Refused("the first hand went to the wrong seat: move the hands first")
    if cmd.count != LEFT_OVER:
        return [_misdeal(MisdealReason.NOT_FOUR_LEFT, f"{cmd.count} cards left", "device")]
    return [(E.DEAL_CHECKED, {"remaining": cmd.count})]


def _count_error(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.CardCountError)
    _need(state, cmd)
    return [_misdeal(MisdealReason.CARD_COUNT_ERROR, cmd.detail or "shuffler card-count error",
                     "device")]


def _exposed(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
             ) -> list[EventTuple]:
    assert isinstance(cmd, c.CardsExposed)
    _need(state, cmd)
    if cmd.count <= 0:
        raise Refused(f"exposed cards must be 1 or more, not {cmd.count}")
    total = state.exposed + cmd.count
    if total > 3:
        return [_misdeal(MisdealReason.CARDS_EXPOSED, f"{total} cards exposed", "dealer")]
    return [(E.CARDS_EXPOSED, {"count": cmd.count, "total": total})]


def _declare_misdeal(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                     ) -> list[EventTuple]:
    assert isinstance(cmd, c.DeclareMisdeal)
    _need(state, cmd)
    try:
        reason = MisdealReason(cmd.reason)
    except ValueError:
        known = ", ".join(r.value for r in MisdealReason)
        raise Refused(f"unknown misdeal reason {cmd.reason!r}; known: {known}") from None
    return [_misdeal(reason, cmd.detail, "dealer")]


def _deck_counted(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                  ) -> list[EventTuple]:
    assert isinstance(cmd, c.DeckCounted)
    _need(state, cmd)
    if not state.deck_count_due:
        raise Refused("no deck count is due after this misdeal")
    payload: Payload = {"count": cmd.count, "ok": cmd.count == DECK_SIZE}
    if cmd.who.strip():
        payload["who"] = cmd.who  # only when a supervisor entered it: older logs unchanged
    return [(E.DECK_COUNTED, payload)]


def _redeal(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
            ) -> list[EventTuple]:
    _need(state, cmd)
    if state.deck_count_due:
        raise Refused("count the whole deck for 53 cards before play resumes")
    return [(E.REDEAL, {"deal_no": state.deal_no + 1})]


def _check_same_cards(seat: int, hand: tuple[Card, ...], setting: Setting) -> None:
    if sorted(setting.cards) != sorted(hand):
        raise Refused(f"seat {seat}: the set hand {setting} is not the seven cards dealt "
                      f"({format_cards(hand)})")


def _banker_setting(state: RoundState, rules: RoundRules, setting: Setting | None,
                    services: Services) -> tuple[Setting, str]:
    hand = state.hands[state.banker_seat]
    if setting is None:
        return services.house_way(hand), "house_way"
    if state.banker_kind == "house":
        raise Refused("the house's hand is always set the House Way")
    _check_same_cards(state.banker_seat, hand, setting)
    if is_foul(setting, rules.hand_rules):
        # The banker never plays a foul hand: it is reset the House Way (Catfish Bend, "Player
        # Banker"; rules README, "Setting and comparing hands").
        return services.house_way(hand), "foul_reset_house_way"
    return setting, "banker"


def _set_banker(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                ) -> list[EventTuple]:
    assert isinstance(cmd, c.SetBankerHand)
    _need(state, cmd)
    setting, how = _banker_setting(state, rules, cmd.setting, services)
    hand = state.hands[state.banker_seat]
    status = ace_high_status(hand)
    push = bool(rules.face_up and status is not None)
    events: list[EventTuple] = [(E.BANKER_SET, {
        **setting_json(setting), "how": how, "ace_high": status.value if status else None,
        "ace_high_push": push})]
    if push or not rules.face_up:
        events.append(_plan_event(state, rules, services, events))
    return events


def _set_player(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                ) -> list[EventTuple]:
    assert isinstance(cmd, c.SetPlayerHand)
    _need(state, cmd)
    seat = cmd.seat
    if seat == state.banker_seat:
        raise Refused(f"seat {seat} is the banker")
    if seat not in state.seats_with_base():
        raise Refused(f"seat {seat} has no base wager; its hand went to the discard rack")
    if seat == 0 and cmd.setting is not None:
        raise Refused("the house's hand is always set the House Way")
    hand = state.hands[seat]
    again = rules.foul is Foul.RESET_ONCE_THEN_DEAD and state.fouls.get(seat) == 1 \
        and state.set_how.get(seat) == "foul_reset_house_way"
    if seat in state.settings and not again:
        raise Refused(f"seat {seat} has already set its hand")
    fouls = state.fouls.get(seat, 0)
    dead = False
    if cmd.setting is None:
        setting, how = services.house_way(hand), "house_way"
    else:
        _check_same_cards(seat, hand, cmd.setting)
        setting, how = cmd.setting, "player"
        if is_foul(setting, rules.hand_rules):
            fouls += 1
            if rules.foul is Foul.LOSES:
                how, dead = "foul", True
            elif rules.foul is Foul.RESET_ONCE_THEN_DEAD and fouls >= 2:
                how, dead = "foul", True  # the second foul: a dead hand that loses
            else:
                setting, how = services.house_way(hand), "foul_reset_house_way"
    events: list[EventTuple] = [(E.PLAYER_SET, {"seat": seat, **setting_json(setting),
                                                "how": how, "fouls": fouls, "dead": dead})]
    remaining = [s for s in state.seats_with_base() if s != state.banker_seat
                 and s not in state.settings and s != seat]
    if not remaining:
        if rules.face_up:
            events.append(_plan_event(state, rules, services, events))
        else:
            events.append((E.PLAYERS_DONE, {}))
    return events


def _plan_event(state: RoundState, rules: RoundRules, services: Services,
                pending: list[EventTuple]) -> EventTuple:
    """Every settlement line, computed once all hands are final and stored in the log, so a
    replay never recomputes money."""
    trial = clone(state)
    for event in pending:
        evolve(trial, event)
    try:
        lines = services.planner(trial, rules)
    except ValueError as exc:  # the engine's RoundError: inputs it cannot settle
        raise Refused(f"settlement refused the round: {exc}") from None
    assert trial.action_seat is not None
    order = settlement_order(rules, trial.banker_seat, trial.action_seat)
    seats = [s for s in order if any(x.seat == s for x in lines)]
    seats += sorted({x.seat for x in lines} - set(seats))
    return (E.SETTLEMENT_PLANNED, {"lines": [line_json(x) for x in lines], "seats": seats})


def _reconstruct(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.ReconstructBankerHand)
    _need(state, cmd)
    if not cmd.who.strip():
        raise Refused("a supervisor must be named to reconstruct the banker's hand")
    if state.banker_setting is None:
        raise Refused("the banker's hand is not set yet")
    if state.settled_seats:
        raise Refused("seats are already settled; once settled, hands are not reconstructed")
    hand = state.hands[state.banker_seat]
    _check_same_cards(state.banker_seat, hand, cmd.setting)
    if is_foul(cmd.setting, rules.hand_rules):
        raise Refused(f"the banker's hand cannot be set foul: {cmd.setting}")
    if state.banker_kind == "house" and not _same_split(cmd.setting, services.house_way(hand)):
        # Only a player banker sets their own hand (Catfish Bend, "Irregularities"); the
        # house's is the House Way and nothing else (rules README, "Setting and comparing").
        raise Refused("the house's hand is always set the House Way; a reconstruction cannot "
                      "set it otherwise")
    events: list[EventTuple] = [(E.BANKER_RECONSTRUCTED, {**setting_json(cmd.setting),
                                                           "who": cmd.who})]
    if state.phase is Phase.SETTLEMENT:
        events.append(_plan_event(state, rules, services, events))
    return events


def _same_split(a: Setting, b: Setting) -> bool:
    return sorted(a.low) == sorted(b.low) and sorted(a.high) == sorted(b.high)


def _settle_next(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    _need(state, cmd)
    seats: list[int] = state.opening.get("plan_seats", [])
    todo = [s for s in seats if s not in state.settled_seats]
    if not todo:
        raise Refused("every seat is settled")
    seat = todo[0]
    lines = [line_json(x) for x in state.plan if x.seat == seat]
    return [(E.SEAT_SETTLED, {"seat": seat, "lines": lines, "last": len(todo) == 1})]


def _jackpot_hit(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.JackpotHit)
    _need(state, cmd)
    if rules.profile.jackpot is None:
        raise Refused("this table has no jackpot")
    kind = JACKPOT_KINDS.get(cmd.spot)
    if kind is None or kind not in rules.wager_kinds:
        games = [s for s, k in JACKPOT_KINDS.items() if k in rules.wager_kinds]
        raise Refused(f"this table has no jackpot game on sensor spot {cmd.spot} "
                      f"(its games: spot {', '.join(map(str, games))})")
    if (cmd.seat, kind) not in state.wagers:
        raise Refused(f"seat {cmd.seat} has no jackpot wager on spot {cmd.spot}")
    if any(h[0] == cmd.seat and h[4] == cmd.spot for h in state.jackpot_hits):
        raise Refused(f"seat {cmd.seat} already has a jackpot hit on spot {cmd.spot} this round")
    if not cmd.confirmer.enabled:
        raise Refused(f"{cmd.confirmer.name}'s card is withdrawn: a jackpot hit needs the "
                      "card of a supervisor or executive in service")
    # The jackpot hook computes the award inside the same transaction and replaces
    # "confirmer" (the employee's id) by who confirmed and what was paid.
    payload: dict[str, Any] = {"seat": cmd.seat, "hand_line": cmd.hand_line, "spot": cmd.spot,
                               "confirmer": cmd.confirmer.employee_id,
                               "cards": format_cards(state.hands[cmd.seat])}
    if cmd.second is not None:
        payload["second_confirmer"] = cmd.second.employee_id
    return [(E.JACKPOT_HIT, payload)]


def _end_game(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
              ) -> list[EventTuple]:
    if state.phase is not Phase.END:
        raise Refused(f"END GAME is refused in phase {state.phase.value}: settle every seat "
                      "first")
    return [(E.GAME_ENDED, {"next": next_banker(state, rules)})]


def next_banker(state: RoundState, rules: RoundRules) -> Payload:
    """Banker rotation per profile (rules README, "Banker rotation"), and where this round's
    action button was (it moves on from there at high-card tables)."""
    return {**_next_banker(state, rules), "prev_action_seat": state.action_seat}


def _next_banker(state: RoundState, rules: RoundRules) -> Payload:
    if rules.banking is Banking.HOUSE:
        return _house_banks(rotation=0)
    if rules.banking is Banking.HOUSE_OR_PLAYER_BANKER:
        pointer = int(state.opening.get("rotation_seat", 0))
        if state.banker_kind == "player":
            return _house_banks(rotation=pointer)  # back to the dealer for one round
        spot = next_seat(rules, pointer)
        if spot == 0:
            return _house_banks(rotation=0)
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


_Handler = Callable[[RoundState, RoundRules, c.Command, Services], list[EventTuple]]
_HANDLERS: dict[type, _Handler] = {
    c.AcceptBank: _accept_bank,
    c.DeclineBank: _decline_bank,
    c.PlaceWager: _place_wager,
    c.RemoveWager: _remove_wager,
    c.StartGame: _start_game,
    c.VoidRound: _void_round,
    c.SetActionNumber: _action,
    c.SetActionSeat: _action,
    c.DealHand: _deal_hand,
    c.CorrectFirstHand: _correct_first,
    c.RemainingCards: _remaining,
    c.CardCountError: _count_error,
    c.CardsExposed: _exposed,
    c.DeclareMisdeal: _declare_misdeal,
    c.DeckCounted: _deck_counted,
    c.Redeal: _redeal,
    c.SetBankerHand: _set_banker,
    c.SetPlayerHand: _set_player,
    c.ReconstructBankerHand: _reconstruct,
    c.SettleNext: _settle_next,
    c.JackpotHit: _jackpot_hit,
    c.EndGame: _end_game,
}


# -- evolve ---------------------------------------------------------------------------------


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
        if p["ok"]:
            state.deck_count_due = False
    elif kind == E.REDEAL:
        state.deal_no = p["deal_no"]
        state.hands, state.delivered, state.order = {}, [], ()
        state.wrong_start, state.exposed, state.misdeal_reason = None, 0, None
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


def parse_setting_text(text: str) -> Setting:
    """Read a setting typed by a dealer, as a Refused on bad text (for commands from a UI)."""
    try:
        return parse_setting(text)
    except CardError as exc:
        raise Refused(str(exc)) from None
