"""The bridge from a round's state to the settlement engine and back.

The engine (``dealer_console.settlement``) numbers positions from the banker as 1 in the
profile's direction and returns a payout sheet whose lines move money between parties. Here
each sheet line becomes a :class:`Line` of the round: the seat it belongs to, what the player
staked, what came back to them, and what the banker and the house gained, so that every line
conserves money on its own (the audit checks exactly that).

Collection fees and the rake are taken by the round at START GAME (before the deal, as both
documents require), so the engine's fee lines are checked against them rather than stored
twice.
"""

from __future__ import annotations

from collections import Counter

from dealer_console.profiles.model import SettleFrom
from dealer_console.round.rules import BACKLINE_PREFIX, RoundRules
from dealer_console.round.seats import order_from
from dealer_console.round.state import Line, RoundState, with_limits
from dealer_console.settlement.model import (
    BANKER,
    Backline,
    BankedBy,
    BankerInput,
    HandChoice,
    HouseHand,
    LineOutcome,
    PositionInput,
    RoundInput,
    SetBy,
    Sheet,
    SheetLine,
    WagerKind,
    Wagers,
)


class SettlementMismatch(RuntimeError):
    """The engine and the round disagree (for example on a collection fee)."""


def position_map(rules: RoundRules, banker_seat: int) -> dict[int, int]:
    """seat -> position (the banker is 1), in the profile's direction."""
    return {seat: i + 1 for i, seat in enumerate(order_from(rules, banker_seat))}


def round_input(state: RoundState, rules: RoundRules) -> RoundInput:
    positions = position_map(rules, state.banker_seat)
    player_banker = state.banker_kind == "player"
    banker_choice: HandChoice = state.banker_setting or SetBy.HOUSE_WAY
    banker = BankerInput(
        by=BankedBy.PLAYER if player_banker else BankedBy.HOUSE,
        cards=state.hands[state.banker_seat],
        setting=banker_choice,
        wager=state.banker_wager if player_banker else 0,
        fortune=state.wager(state.banker_seat, "fortune") if player_banker else 0,
    )
    house = None
    if player_banker and rules.house_hand:
        house = HouseHand(cards=state.hands[0], wager=state.wager(0, "house_wager"),
                          setting=state.settings.get(0) or SetBy.HOUSE_WAY)
    inputs = []
    for seat in sorted(positions, key=positions.__getitem__):
        if seat == state.banker_seat or seat == 0 or state.wager(seat, "base") == 0:
            continue
        choice: HandChoice = state.settings.get(seat)
        prior = 0
        if state.ace_high_push:
            choice = None  # nobody sets against a banker's ace-high pai gow
        elif seat in state.dead:
            # The foul setting as made: the engine applies the profile's foul consequence.
            prior = max(0, state.fouls.get(seat, 1) - 1)
        inputs.append(PositionInput(
            position=positions[seat], cards=state.hands[seat], setting=choice,
            wagers=Wagers(base=state.wager(seat, "base"), fortune=state.wager(seat, "fortune"),
                          ace_high=state.wager(seat, "ace_high"),
                          jackpot=state.wager(seat, "jackpot"), tips=state.wager(seat, "tips"),
                          backline=tuple(
                              Backline(k[len(BACKLINE_PREFIX):], cents)
                              for (s, k), cents in sorted(state.wagers.items())
                              if s == seat and k.startswith(BACKLINE_PREFIX))),
            prior_fouls=prior))
    action: int | None = positions.get(state.action_seat or -1, 2)
    if action is not None and action < 2:
        action = 2
    if rules.profile.settle_from is not SettleFrom.ACTION_SEAT:
        action = None  # Catfish Bend settles from position 2; the engine refuses a button
    return RoundInput(action_seat=action, banker=banker, positions=tuple(inputs), house=house)


def lines_from_sheet(sheet: Sheet, state: RoundState, rules: RoundRules) -> list[Line]:
    by_position = {pos: seat for seat, pos in position_map(rules, state.banker_seat).items()}
    counts: Counter[tuple[int, str]] = Counter()
    lines: list[Line] = []
    fees_seen: dict[int, int] = {}
    for sl in sheet.lines:
        seat = _seat_of(sl, by_position, state)
        if sl.kind is WagerKind.FEE:
            fees_seen[seat] = fees_seen.get(seat, 0) + sl.due
            continue
        kind = sl.kind.value
        if sl.kind is WagerKind.BACKLINE:
            # the engine's party is "backline <position> <bettor>"; the wager's kind names the
            # bettor the same way the round does
            kind = BACKLINE_PREFIX + sl.party.split(" ", 2)[2]
        counts[(seat, kind)] += 1
        if counts[(seat, kind)] > 1:
            kind = f"{kind}#{counts[(seat, kind)]}"
        lines.append(_line(sl, seat, kind))
    taken: dict[int, int] = {}
    for (seat, _k), cents in state.fees.items():
        taken[seat] = taken.get(seat, 0) + cents
    if fees_seen and fees_seen != taken:
        raise SettlementMismatch(f"collection fees taken at START GAME {taken} differ from the "
                                 f"settlement's {fees_seen}")
    return lines


def _seat_of(sl: SheetLine, by_position: dict[int, int], state: RoundState) -> int:
    if sl.kind is WagerKind.HOUSE_WAGER:
        return 0
    if sl.position is None or sl.party == BANKER:
        return state.banker_seat
    return by_position[sl.position]


def _line(sl: SheetLine, seat: int, kind: str) -> Line:
    net = 0
    banker = 0
    house = 0
    for t in sl.transfers:
        if t.payee == sl.party:
            net += t.cents
        elif t.payee == BANKER:
            banker += t.cents
        else:
            house += t.cents
        if t.payer == sl.party:
            net -= t.cents
        elif t.payer == BANKER:
            banker -= t.cents
        else:
            house -= t.cents
    # A charge, or an envy payout that staked nothing, stakes what it pays.
    charge = sl.outcome is LineOutcome.CHARGE or sl.wager == 0
    staked = max(0, -net) if charge else sl.wager
    if sl.party == BANKER:
        banker = 0  # the banker's own wager or charge: the banker is the player on this line
    return Line(seat, kind, sl.outcome.value, staked, staked + net, banker, house,
                with_limits(sl.reason, sl.limits()))


def plan_settlement(state: RoundState, rules: RoundRules) -> list[Line]:
    """Every line of the round from the settlement engine."""
    from dealer_console.settlement import settle  # the engine, imported when first needed

    sheet = settle(rules.profile, round_input(state, rules))
    return lines_from_sheet(sheet, state, rules)
