"""Positions around the table: numbering from the banker, the action seat, deal order, and the
seven-pile pattern of a hand-dealt deal.

Rules README, "Round procedure": the banker is position 1 and the count runs in the profile's
direction; a number ``n`` (dice 3-18, an RNG, the shuffler) picks position ``((n - 1) mod 7) + 1``
for the first hand, and when that is the banker (n = 1, 8, 15) the banker takes the first hand
while the next position takes the action button. The California document ("Dealing procedures",
hand shuffled) lays seven piles dealt left to right, then right to left, until each has seven.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from dealer_console.round.rules import Direction, RoundRules, SettleFrom

T = TypeVar("T")

POSITIONS = 7
HAND_SIZE = 7
LEFT_OVER = 4
"""53 cards less seven hands of seven."""


def order_from(rules: RoundRules, start: int) -> tuple[int, ...]:
    """All seven seats starting at ``start`` and going the profile's direction."""
    circle = list(rules.seats)
    if rules.direction is Direction.COUNTER_CLOCKWISE:
        circle.reverse()
    if start not in circle:
        raise ValueError(f"seat {start} is not at this table (seats {rules.seats})")
    i = circle.index(start)
    return tuple(circle[i:] + circle[:i])


def next_seat(rules: RoundRules, seat: int, direction: Direction | None = None) -> int:
    circle = list(rules.seats)
    if (direction or rules.direction) is Direction.COUNTER_CLOCKWISE:
        circle.reverse()
    return circle[(circle.index(seat) + 1) % len(circle)]


@dataclass(frozen=True, slots=True)
class Action:
    """Where the first hand goes and who holds the action button."""

    number: int
    position: int  # 1..7, the banker is 1
    first_seat: int
    action_seat: int


def action_from_number(rules: RoundRules, banker_seat: int, number: int) -> Action:
    """Apply the count from the banker and the 1-8-15 rule."""
    if number < 1:
        raise ValueError(f"action number {number} must be 1 or more")
    position = (number - 1) % POSITIONS + 1
    order = order_from(rules, banker_seat)
    first = order[position - 1]
    action = order[1] if position == 1 else first
    return Action(number, position, first, action)


def action_from_seat(rules: RoundRules, banker_seat: int, seat: int) -> Action:
    """High card (Oxford Downs): the dealer names the seat that holds the action button; the
    first hand goes there. The banker's own seat cannot hold the button."""
    order = order_from(rules, banker_seat)
    if seat == banker_seat:
        raise ValueError(f"seat {seat} is the banker's; the action button goes to a player")
    return Action(0, order.index(seat) + 1, seat, seat)


def deal_order(rules: RoundRules, first_seat: int) -> tuple[int, ...]:
    return order_from(rules, first_seat)


def settlement_order(rules: RoundRules, banker_seat: int, action_seat: int) -> tuple[int, ...]:
    """Seats to settle, banker excluded: from the action seat in the profile's direction, or
    from the first position after the banker (Catfish Bend, "Paying and Taking": the player
    farthest to the dealer's right). With a Catfish Bend player banker the house's own wager at
    the dealer's spot is settled first ("Player Banker": starting with the house bet)."""
    if rules.profile.settle_from is SettleFrom.FIRST_AFTER_BANKER:
        # The dealer's spot comes first in ``order_from(rules, 0)``: the house's wager when a
        # player banks, left out when the house banks. The players follow from the one
        # farthest to the dealer's right wherever the banker button is: a player banker covers
        # every winning wager, so the order is the sheet's, not a coverage walk.
        return tuple(s for s in order_from(rules, 0) if s != banker_seat)
    return tuple(s for s in order_from(rules, action_seat) if s != banker_seat)


def seven_piles(cards: Sequence[T]) -> list[list[T]]:
    """Deal 49 cards into seven piles: one card each left to right, then right to left, and so
    on until each pile holds seven. Pile 0 is the dealer's leftmost."""
    if len(cards) < POSITIONS * HAND_SIZE:
        raise ValueError(f"seven piles need 49 cards, got {len(cards)}")
    piles: list[list[T]] = [[] for _ in range(POSITIONS)]
    for lap in range(HAND_SIZE):
        columns = range(POSITIONS) if lap % 2 == 0 else range(POSITIONS - 1, -1, -1)
        for j, column in enumerate(columns):
            piles[column].append(cards[lap * POSITIONS + j])
    return piles


def piles_in_deal_order(piles: Sequence[Sequence[T]], chosen: int) -> list[list[T]]:
    """The piles handed out: the chosen pile first (to the first position), then the next piles
    left to right, wrapping round."""
    if not 0 <= chosen < len(piles):
        raise ValueError(f"pile {chosen} is not 0-{len(piles) - 1}")
    return [list(piles[(chosen + i) % len(piles)]) for i in range(len(piles))]
