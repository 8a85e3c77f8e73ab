"""The deal's decisions (action number, hands, misdeals, the deck count, the redeal)."""

from __future__ import annotations

from dealer_console.cards import Card, format_cards
from dealer_console.round import commands as c
from dealer_console.round.events import EventKind as E
from dealer_console.round.rules import (
    ActionSeatMethod,
    Direction,
    RoundRules,
)
from dealer_console.round.seats import (
    HAND_SIZE,
    LEFT_OVER,
    action_from_number,
    action_from_seat,
    next_seat,
    order_from,
)
from dealer_console.round.state import MisdealReason, Phase, RoundState
from dealer_console.round.values import (
    DECK_SIZE,
    DICE_RANGE,
    EventTuple,
    Handler,
    Payload,
    Refused,
    Services,
    need_phase,
)


def _action(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
            ) -> list[EventTuple]:
    need_phase(state, cmd)
    try:
        if isinstance(cmd, c.SetActionSeat):
            if rules.action_method is not ActionSeatMethod.HIGH_CARD:
                raise Refused(f"this table finds the action by {rules.action_method.value}")
            expected = button_seat(state, rules)
            moved = expected is not None and cmd.seat != expected
            if moved and not cmd.restart:
                raise Refused(f"the action button moves clockwise every hand: it goes to seat "
                              f"{expected} (a new high card needs the floor's permission)")
            action = action_from_seat(rules, state.banker_seat, cmd.seat)
            # Oxford Downs, "Action Button": the button is put in play, and a new high card
            # dealt, only after the dealer calls the floor and gets permission
            permitted = moved or expected is None
            if permitted and not cmd.who.strip():
                raise Refused("putting the action button in play needs the floor's permission: "
                              "call a supervisor to swipe their card" if expected is None else
                              f"a new high card needs the floor's permission: call a "
                              f"supervisor to swipe their card (or seat {expected} takes the "
                              "action button)")
            floor = cmd.who.strip() if permitted else ""
        else:
            assert isinstance(cmd, c.SetActionNumber)
            if rules.action_method is ActionSeatMethod.HIGH_CARD:
                raise Refused("this table finds the action by high card: give the seat")
            n = cmd.number
            dice = rules.action_method is ActionSeatMethod.DICE
            if dice and not DICE_RANGE[0] <= n <= DICE_RANGE[1]:
                raise Refused(f"three dice total 3-18, not {n}")
            action = action_from_number(rules, state.banker_seat, n)
            floor = ""
    except ValueError as exc:
        raise Refused(str(exc)) from None
    order = order_from(rules, action.first_seat)
    payload: Payload = {"number": action.number, "position": action.position,
                        "first_seat": action.first_seat, "action_seat": action.action_seat,
                        "order": list(order)}
    if floor:
        payload["floor"] = floor  # who gave the permission; older logs have no such key
    return [(E.ACTION_SET, payload)]


def button_seat(state: RoundState, rules: RoundRules) -> int | None:
    """Where the action button goes this round when it moves by itself: one seat clockwise
    from last round's action seat, passing over the banker (Oxford Downs, "Action Button").
    After a misdeal the redeal keeps the seat this round's deal gave it (put in play, or moved
    by a new high card, on the floor's permission: given for the round). None for the first
    round and at tables that find the action by a number."""
    if rules.action_method is not ActionSeatMethod.HIGH_CARD:
        return None
    this_round = state.opening.get("button_this_round")
    if this_round is not None:
        return int(this_round)
    previous = state.opening.get("prev_action_seat")
    if previous is None or previous not in rules.seats:
        return None
    seat = next_seat(rules, int(previous), Direction.CLOCKWISE)
    if seat == state.banker_seat:
        seat = next_seat(rules, seat, Direction.CLOCKWISE)
    return seat


def _misdeal(reason: MisdealReason, detail: str, source: str, who: str = "") -> EventTuple:
    payload: Payload = {"reason": reason.value, "detail": detail, "source": source,
                        "deck_count_due": reason.deck_count_due}
    if who:
        payload["who"] = who  # the supervisor's card it was declared on (not in older logs)
    return (E.MISDEAL, payload)


DEALER_MISDEAL = ("a misdeal the dealer declares is made on a supervisor's card: call the "
                  "floor to swipe theirs")
"""Why a misdeal the dealer sees is refused without a supervisor: a misdeal throws the hands
away and deals new cards to the same wagers, so the dealer alone could redeal after seeing
them, as often as they liked (an outside review). The misdeal list (Catfish Bend,
"Irregularities"; rules README, "Round procedure") says when a deal is void, not who says
so; the floor's card is this console's record of it, as for a void before START GAME. A
misdeal the shuffler's own facts prove needs no one."""


def _deal_hand(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
               ) -> list[EventTuple]:
    assert isinstance(cmd, c.DealHand)
    need_phase(state, cmd)
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
    need_phase(state, cmd)
    if state.wrong_start is None or state.first_seat is None:
        raise Refused("the first hand went to the right seat; nothing to move")
    wrong = order_from(rules, state.wrong_start)
    right = order_from(rules, state.first_seat)
    moves = [[wrong[i], right[i]] for i in range(len(state.delivered))]
    return [(E.FIRST_HAND_CORRECTED, {"moves": moves})]


def _remaining(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
               ) -> list[EventTuple]:
    assert isinstance(cmd, c.RemainingCards)
    need_phase(state, cmd)
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
    if cmd.cards is None:  # counted by the dealer: the spread shows four, not which
        return [(E.DEAL_CHECKED, {"remaining": cmd.count})]
    repeated = _repeated_in_deck(state, cmd.cards)
    if repeated:
        return [_misdeal(MisdealReason.CARD_COUNT_ERROR, repeated, "device")]
    return [(E.DEAL_CHECKED, {"remaining": cmd.count, "cards": format_cards(cmd.cards)})]


def _repeated_in_deck(state: RoundState, left: tuple[Card, ...]) -> str:
    """What the cards left repeat of the deal, or "". The hands are each a different card
    already (``_deal_hand``), so 49 of them and four more, none repeated, are the deck of 53
    exactly; a card twice means one is missing, so the deck is not the table's (an outside
    review dealt a deck with a second 7 of diamonds left in the machine, and it played)."""
    where = {card: seat for seat, cards in state.hands.items() for card in cards}
    said: list[str] = []
    for n, card in enumerate(left):
        if card in where:
            said.append(f"{card} (also in seat {where[card]}'s hand)")
        elif card in left[:n]:
            said.append(f"{card} (twice among them)")
    return f"a card left in the shuffler repeats: {', '.join(said)}" if said else ""


def _count_error(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.ShufflerCountError)
    need_phase(state, cmd)
    return [_misdeal(MisdealReason.CARD_COUNT_ERROR, cmd.detail or "shuffler card-count error",
                     "device")]


def _exposed(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
             ) -> list[EventTuple]:
    assert isinstance(cmd, c.CardsExposed)
    need_phase(state, cmd)
    if cmd.count <= 0:
        raise Refused(f"exposed cards must be 1 or more, not {cmd.count}")
    total = state.exposed + cmd.count
    if total > 3:
        if not cmd.who.strip():
            raise Refused(f"{total} cards exposed is a misdeal (three or fewer are turned back "
                          f"and the deal goes on); {DEALER_MISDEAL}")
        return [_misdeal(MisdealReason.CARDS_EXPOSED, f"{total} cards exposed", "dealer",
                         cmd.who.strip())]
    return [(E.CARDS_EXPOSED, {"count": cmd.count, "total": total})]


def _declare_misdeal(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                     ) -> list[EventTuple]:
    assert isinstance(cmd, c.DeclareMisdeal)
    need_phase(state, cmd)
    try:
        reason = MisdealReason(cmd.reason)
    except ValueError:
        known = ", ".join(r.value for r in MisdealReason)
        raise Refused(f"unknown misdeal reason {cmd.reason!r}; known: {known}") from None
    if not cmd.who.strip():
        raise Refused(DEALER_MISDEAL)
    return [_misdeal(reason, cmd.detail, "dealer", cmd.who.strip())]


def _deck_counted(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                  ) -> list[EventTuple]:
    assert isinstance(cmd, c.DeckCounted)
    need_phase(state, cmd)
    if not state.deck_count_due:
        raise Refused("no deck count is due after this misdeal")
    payload: Payload = {"count": cmd.count, "ok": cmd.count == DECK_SIZE}
    if cmd.shuffler:
        payload["source"] = "device"  # the shuffler's own count (not in older logs)
    elif not cmd.who.strip():
        # the count that lets play resume after a card-count error or a short or long deal
        # (rules README, "Round procedure", misdeal): by hand, the floor enters it
        raise Refused("a deck counted by hand is entered on a supervisor's card: call the "
                      "floor to swipe theirs (or count the deck in the shuffler)")
    else:
        payload["who"] = cmd.who  # only when a supervisor entered it: older logs unchanged
    return [(E.DECK_COUNTED, payload)]


def _redeal(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
            ) -> list[EventTuple]:
    need_phase(state, cmd)
    if state.deck_count_due:
        raise Refused("count the whole deck for 53 cards before play resumes")
    return [(E.REDEAL, {"deal_no": state.deal_no + 1})]


HANDLERS: dict[type[c.Command], Handler] = {
    c.SetActionNumber: _action,
    c.SetActionSeat: _action,
    c.DealHand: _deal_hand,
    c.CorrectFirstHand: _correct_first,
    c.RemainingCards: _remaining,
    c.ShufflerCountError: _count_error,
    c.CardsExposed: _exposed,
    c.DeclareMisdeal: _declare_misdeal,
    c.DeckCounted: _deck_counted,
    c.Redeal: _redeal,
}
