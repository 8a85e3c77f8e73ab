"""Positions, the 1-8-15 rule, deal and settlement order, and the seven-pile deal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.profiles.loader import get_profile
from dealer_console.round.rules import round_rules
from dealer_console.round.seats import (
    action_from_number,
    action_from_seat,
    order_from,
    piles_in_deal_order,
    settlement_order,
    seven_piles,
)

CALIFORNIA = round_rules(get_profile("california-face-up"))
WASHINGTON = round_rules(get_profile("washington-face-up"))
CATFISH = round_rules(get_profile("catfish-bend-fortune"))
OXFORD = round_rules(get_profile("oxford-downs-face-up"))


@pytest.mark.parametrize("number", [1, 8, 15])
def test_banker_numbers_give_the_banker_the_first_hand_and_the_next_seat_the_button(
        number: int) -> None:
    # California, banker at seat 3, clockwise: 1, 8 and 15 land on the banker.
    action = action_from_number(CALIFORNIA, 3, number)
    assert (action.position, action.first_seat, action.action_seat) == (1, 3, 4)


@pytest.mark.parametrize(("number", "seat"), [(2, 4), (3, 5), (7, 2), (9, 4), (18, 6)])
def test_dice_count_clockwise_from_the_banker(number: int, seat: int) -> None:
    action = action_from_number(CALIFORNIA, 3, number)
    assert action.first_seat == action.action_seat == seat


def test_catfish_bend_counts_counter_clockwise() -> None:
    # Dealer at 0; counter-clockwise the next spot is seat 6, then 5 ...
    assert order_from(CATFISH, 0) == (0, 6, 5, 4, 3, 2, 1)
    assert action_from_number(CATFISH, 0, 3).first_seat == 5


@given(st.integers(1, 500), st.sampled_from([CALIFORNIA, WASHINGTON, CATFISH]),
       st.integers(0, 6))
def test_action_number_properties(number: int, rules: object, banker_index: int) -> None:
    from dealer_console.round.rules import RoundRules

    assert isinstance(rules, RoundRules)
    banker = rules.seats[banker_index]
    action = action_from_number(rules, banker, number)
    assert action.position == (number - 1) % 7 + 1
    order = order_from(rules, banker)
    assert order[action.position - 1] == action.first_seat
    assert action.action_seat != banker
    if action.position == 1:
        assert action.first_seat == banker and action.action_seat == order[1]
    else:
        assert action.action_seat == action.first_seat
    deal = order_from(rules, action.first_seat)
    assert sorted(deal) == sorted(rules.seats)


def test_high_card_names_the_seat_and_never_the_banker() -> None:
    assert action_from_seat(OXFORD, 2, 5).first_seat == 5
    with pytest.raises(ValueError, match="banker"):
        action_from_seat(OXFORD, 2, 2)


def test_settlement_orders() -> None:
    assert settlement_order(CALIFORNIA, 3, 6) == (6, 7, 1, 2, 4, 5)
    # Catfish Bend: from the first position after the banker, counter-clockwise.
    assert settlement_order(CATFISH, 0, 2) == (6, 5, 4, 3, 2, 1)
    # With a player banker at seat 4 the house's wager (spot 0) is settled first, then the
    # players from the one farthest to the dealer's right (seat 6), the banker's seat skipped.
    assert settlement_order(CATFISH, 4, 2) == (0, 6, 5, 3, 2, 1)
    assert settlement_order(CATFISH, 6, 2) == (0, 5, 4, 3, 2, 1)


def test_seven_piles_golden() -> None:
    piles = seven_piles(list(range(49)))
    assert piles[0] == [0, 13, 14, 27, 28, 41, 42]
    assert piles[6] == [6, 7, 20, 21, 34, 35, 48]
    assert piles[3] == [3, 10, 17, 24, 31, 38, 45]


@given(st.permutations(list(range(53))), st.integers(0, 6))
def test_seven_piles_use_each_card_once(cards: list[int], chosen: int) -> None:
    piles = seven_piles(cards)
    assert all(len(p) == 7 for p in piles)
    flat = sorted(x for p in piles for x in p)
    assert flat == sorted(cards[:49])
    handed = piles_in_deal_order(piles, chosen)
    assert handed[0] == piles[chosen]
    assert sorted(map(tuple, handed)) == sorted(map(tuple, piles))
