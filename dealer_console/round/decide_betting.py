"""The betting steps' decisions (bank offer, wagers, START GAME, void): each returns the
events its command causes or raises :class:`~dealer_console.round.values.Refused`."""

from __future__ import annotations

from dataclasses import replace

from dealer_console.money import format_cents
from dealer_console.round import commands as c
from dealer_console.round.events import EventKind as E
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.rotation import last_base
from dealer_console.round.rules import (
    BACKLINE_PREFIX,
    Banking,
    RoundRules,
    base_kind,
)
from dealer_console.round.seats import (
    next_seat,
)
from dealer_console.round.state import Line, RoundState
from dealer_console.round.values import (
    EventTuple,
    Handler,
    Refused,
    Services,
    line_json,
    need_phase,
)


def _accept_bank(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.AcceptBank)
    need_phase(state, cmd)
    if cmd.seat != state.offer_seat:
        raise Refused(f"the bank is offered to seat {state.offer_seat}, not seat {cmd.seat}")
    if not isinstance(cmd.wager_cents, int) or cmd.wager_cents <= 0:
        raise Refused(f"seat {cmd.seat}: the banker's wager must be more than $0.00")
    limit = rules.banker_limit
    problem = limit.check(cmd.wager_cents) if limit is not None else None
    if problem:
        raise Refused(f"seat {cmd.seat}: a banker's wager of {format_cents(cmd.wager_cents)} is "
                      f"{problem}")
    if rules.house_hand:
        _house_can_wager(state, rules, cmd.seat)
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
    need_phase(state, cmd)
    if cmd.seat != state.offer_seat:
        raise Refused(f"the bank is offered to seat {state.offer_seat}, not seat {cmd.seat}")
    if rules.banking is Banking.HOUSE_OR_PLAYER_BANKER:
        # Catfish Bend: a player who does not bank leaves the house as banker this round.
        return [(E.BANK_DECLINED, {"seat": cmd.seat, "house_banks": True, "next_offer": 0})]
    following = next_seat(rules, cmd.seat, rules.direction)
    if following == state.opening.get("offer_start"):
        raise Refused("every seat has declined the bank; void the round")
    return [(E.BANK_DECLINED, {"seat": cmd.seat, "house_banks": False, "next_offer": following})]


WAGER_WORDS = {"base": "base", "fortune": "Fortune", "ace_high": "Ace-High", "tips": "tips",
               "jackpot": "jackpot", "jackpot_2": "second jackpot", "house_wager": "house"}
"""A wager kind as the dealer says it (never the log's name with its underscore)."""


def wager_words(kind: str) -> str:
    words = WAGER_WORDS.get(base_kind(kind), base_kind(kind).replace("_", " "))
    return f"an {words}" if words[0].lower() in "aeiou" else f"a {words}"


def _check_amount(seat: int, kind: str, cents: object) -> int:
    if not isinstance(cents, int) or isinstance(cents, bool):
        raise Refused(f"seat {seat} {kind}: an amount must be whole cents, got {cents!r}")
    if cents <= 0:
        raise Refused(f"seat {seat} {kind}: an amount must be more than $0.00, got "
                      f"{format_cents(cents)}")
    return cents


def _place_wager(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.PlaceWager)
    if state.locked:
        raise Refused(f"seat {cmd.seat}: no wager after START GAME (wagers are locked)")
    need_phase(state, cmd)
    cents = _check_amount(cmd.seat, cmd.kind, cmd.cents)
    if base_kind(cmd.kind) == "backline" and not cmd.kind[len(BACKLINE_PREFIX):].strip():
        raise Refused(f"seat {cmd.seat}: name the backline bettor (kind 'backline:<name>')")
    if base_kind(cmd.kind) not in rules.wager_kinds:
        raise Refused(f"seat {cmd.seat}: this table takes no {cmd.kind!r} wager "
                      f"(it takes {', '.join(rules.wager_kinds)})")
    if cmd.kind == "house_wager":
        if not (rules.house_hand and state.banker_kind == "player" and cmd.seat == 0):
            raise Refused("the house wagers only at the dealer's spot against a player banker")
        _house_within_last_wager(state, cents)
    elif cmd.seat not in rules.player_seats:
        raise Refused(f"seat {cmd.seat} is not a player seat here (seats {rules.player_seats})")
    if (cmd.seat, cmd.kind) in state.wagers:
        raise Refused(f"seat {cmd.seat} already has {wager_words(cmd.kind)} wager; remove it "
                      "first")
    is_banker = state.banker_kind == "player" and cmd.seat == state.banker_seat
    # Catfish Bend, "Player Banker": a Fortune wager is the one bet open to the banking player.
    banker_fortune = cmd.kind == "fortune" and rules.banking is Banking.HOUSE_OR_PLAYER_BANKER
    if is_banker and not banker_fortune:
        raise Refused(f"seat {cmd.seat} is the banker and cannot place "
                      f"{wager_words(cmd.kind)} wager")
    rides = ("fortune", "ace_high", "tips", "backline", *JACKPOT_KINDS.values())
    if base_kind(cmd.kind) in rides and not is_banker and (cmd.seat, "base") not in state.wagers:
        raise Refused(f"seat {cmd.seat}: {wager_words(cmd.kind)} wager needs a base wager first")
    fixed = rules.jackpot_wager(cmd.kind)
    if fixed is not None:
        if cents != fixed:
            raise Refused(f"seat {cmd.seat}: the {cmd.kind} wager is fixed at "
                          f"{format_cents(fixed)}, not {format_cents(cents)}")
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


def _house_can_wager(state: RoundState, rules: RoundRules, seat: int) -> None:
    """A seat banks at a table with a house hand only if the house can wager against it: at
    least the house wager's minimum, at most the player's last wager against the house."""
    house = rules.limit("house_wager")
    least = house.minimum if house is not None else 1
    last = last_base(state, seat)
    if last is None or last < least:
        played = ("played no base wager last round" if last is None else
                  f"last wagered {format_cents(last)}, below the house's least "
                  f"{format_cents(least)}")
        raise Refused(f"seat {seat} {played}: the house wagers against a player banker at "
                      "most the player's last wager against the house, so seat "
                      f"{seat} cannot bank this round (decline the bank)")


def _house_within_last_wager(state: RoundState, cents: int) -> None:
    """Catfish Bend, "Player Banker": the player banker asks the house for a wager of at most
    the player's last wager against the house (its base wager as it last played: an outside
    review had the house wager $1,000 against a banker whose last wager was $20)."""
    most = last_base(state, state.banker_seat)
    if most is None or cents > most:
        limit = ("nothing: it played no base wager last round" if most is None
                 else f"{format_cents(most)}, its base wager last round")
        raise Refused(f"the house wagers at most the player banker's last wager against the "
                      f"house (seat {state.banker_seat}: {limit}), not {format_cents(cents)}")


def _remove_wager(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                  ) -> list[EventTuple]:
    assert isinstance(cmd, c.RemoveWager)
    if state.locked:
        raise Refused(f"seat {cmd.seat}: wagers are locked after START GAME")
    need_phase(state, cmd)
    if (cmd.seat, cmd.kind) not in state.wagers:
        raise Refused(f"seat {cmd.seat} has no {wager_words(cmd.kind).split(' ', 1)[1]} wager")
    if cmd.kind == "base" and any(s == cmd.seat and k != "base" for (s, k) in state.wagers):
        raise Refused(f"seat {cmd.seat}: remove the bonus wagers before the base wager")
    return [(E.WAGER_REMOVED, {"seat": cmd.seat, "kind": cmd.kind})]


def _change_wager(state: RoundState, rules: RoundRules, cmd: c.Command, s: Services
                  ) -> list[EventTuple]:
    """The old amount taken back and the new one placed, as two events of one step: raising a
    base wager cost ten touches (take back its Fortune, its base, type, place both again; an
    outside review), and the log keeps its usual two events, so the audit reads it as ever."""
    assert isinstance(cmd, c.ChangeWager)
    if state.locked:
        raise Refused(f"seat {cmd.seat}: wagers are locked after START GAME")
    need_phase(state, cmd)
    old = state.wagers.get((cmd.seat, cmd.kind))
    if old is None:
        raise Refused(f"seat {cmd.seat} has no {wager_words(cmd.kind).split(' ', 1)[1]} wager "
                      "to change")
    if old == cmd.cents:
        raise Refused(f"seat {cmd.seat}'s {wager_words(cmd.kind).split(' ', 1)[1]} wager is "
                      f"{format_cents(old)} already")
    if rules.jackpot_wager(cmd.kind) is not None:
        raise Refused(f"seat {cmd.seat}: the {cmd.kind} wager is a fixed amount")
    without = replace(state, wagers={k: a for k, a in state.wagers.items()
                                      if k != (cmd.seat, cmd.kind)})
    placed = _place_wager(without, rules, c.PlaceWager(cmd.seat, cmd.kind, cmd.cents), s)
    return [(E.WAGER_REMOVED, {"seat": cmd.seat, "kind": cmd.kind}), *placed]


def _start_game(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                ) -> list[EventTuple]:
    """START GAME locks and counts the wagers and takes the collection fees or the rake, which
    both documents have paid before the deal (California "Collection procedures", Oxford Downs
    "House Rake")."""
    need_phase(state, cmd)
    if not any(k == "base" for (_seat, k) in state.wagers):
        raise Refused("START GAME needs at least one base wager")
    player_banker = state.banker_kind == "player"
    if player_banker and rules.house_hand and (0, "house_wager") not in state.wagers:
        raise Refused("place the house's wager against the player banker first (at the dealer's "
                      "spot)")
    standard = sum(a for (_seat, k), a in state.wagers.items() if k in ("base", "house_wager"))
    if state.banker_kind == "player" and rules.banker_must_cover and standard > state.banker_wager:
        raise Refused(f"the player banker covers {format_cents(state.banker_wager)} but the "
                      f"standard wagers total {format_cents(standard)}: lower the wagers or "
                      "raise the bank")
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
    need_phase(state, cmd)
    if not cmd.who.strip():
        raise Refused("voiding a round needs the name of who voids it")
    lines = [Line(s, k, "returned", a, a, 0, 0, "round voided")
             for (s, k), a in sorted(state.wagers.items())]
    return [(E.ROUND_VOIDED, {"reason": cmd.reason, "who": cmd.who,
                              "lines": [line_json(x) for x in lines]})]


HANDLERS: dict[type[c.Command], Handler] = {
    c.AcceptBank: _accept_bank,
    c.DeclineBank: _decline_bank,
    c.PlaceWager: _place_wager,
    c.RemoveWager: _remove_wager,
    c.ChangeWager: _change_wager,
    c.StartGame: _start_game,
    c.VoidRound: _void_round,
}
