"""What must hold for every hand and every House Way, whatever the chart line."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_console.cards import DECK, Card
from dealer_console.hands import (
    FiveClass,
    HandRules,
    JokerInFlush,
    Wheel,
    five_card_value,
    two_card_value,
)
from dealer_console.house_ways import NAMES, get, set_house_way
from dealer_console.setting import is_foul, setting_values

seven_cards = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)
# Hands biased towards the joker and towards pairs, where the charts branch most.
with_joker = st.lists(st.sampled_from(DECK[:-1]), min_size=6, max_size=6, unique=True).map(
    lambda cs: [*cs, DECK[-1]]
)
few_ranks = st.lists(
    st.sampled_from([c for c in DECK if c.rank in (14, 13, 9, 5, 0)]),
    min_size=7,
    max_size=7,
    unique=True,
)
hands = st.one_of(seven_cards, with_joker, few_ranks)
table_rules = st.builds(HandRules, st.sampled_from(Wheel), st.sampled_from(JokerInFlush))
STRAIGHTS_AND_HEARTS = [c for c in DECK if c.suit == "h" or c.rank == 0 or c.rank > 8]
COMPLETE = {FiveClass.STRAIGHT, FiveClass.FLUSH, FiveClass.STRAIGHT_FLUSH}


@settings(max_examples=400, deadline=None)
@given(hands, table_rules, st.sampled_from(NAMES))
def test_never_foul_and_uses_exactly_the_seven_cards(
    cards: list[Card], rules: HandRules, name: str
) -> None:
    setting = set_house_way(name, cards, rules)
    assert sorted(setting.cards) == sorted(cards)
    assert len(set(setting.cards)) == 7
    assert not is_foul(setting, rules), f"{name} set {setting} foul ({setting.rule})"
    assert setting.rule


@settings(max_examples=200, deadline=None)
@given(hands, table_rules, st.sampled_from(NAMES), st.randoms(use_true_random=False))
def test_order_of_the_cards_does_not_matter(
    cards: list[Card], rules: HandRules, name: str, rnd: random.Random
) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    first, second = get(name)(cards, rules), get(name)(shuffled, rules)
    assert first.rule == second.rule
    assert setting_values(first, rules) == setting_values(second, rules)


def _best_complete_low(cards: list[Card], rules: HandRules) -> tuple[int, ...] | None:
    """Brute force: the highest low hand that leaves a straight, flush or straight flush."""
    lows = [
        two_card_value(low)
        for low in combinations(cards, 2)
        if FiveClass(five_card_value([c for c in cards if c not in low], rules)[0]) in COMPLETE
    ]
    return max(lows, default=None)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        seven_cards,
        with_joker,
        st.lists(
            st.sampled_from([c for c in DECK if c.suit in "h" or c.rank == 0 or c.rank > 8]),
            min_size=7,
            max_size=7,
            unique=True,
        ),
    ),
    table_rules,
    st.sampled_from(NAMES),
)
def test_complete_hand_lines_leave_the_highest_low(
    cards: list[Card], rules: HandRules, name: str
) -> None:
    """Where a line keeps a straight or flush behind with "the highest two cards" in front,
    the high hand is complete and no other split keeping one behind has a higher low hand;
    every other line leaves no complete hand that a higher low could have kept."""
    setting = set_house_way(name, cards, rules)
    low, high = setting_values(setting, rules)
    best_low = _best_complete_low(cards, rules)
    if "gives the stronger Low" in setting.rule:
        # Catfish Bend: three aces made with the joker beat the straight or flush on the Low.
        assert best_low is not None and low > best_low, setting.rule
    elif any(fragment in setting.rule for fragment in COMPLETE_LINES):
        assert FiveClass(high[0]) in COMPLETE, setting.rule
        assert low == best_low, setting.rule
    else:
        # Only the lines the charts rank above a straight or flush may leave one unplayed.
        assert best_low is None or any(w in setting.rule for w in ABOVE_COMPLETE), setting.rule


COMPLETE_LINES = (
    "straight/flush with no pair",
    "straight/flush with one pair",
    "straight/flush with three of a kind",
    "straight or flush, no pairs",
    "straight or flush, one pair",
    "straight and flush",
    "straight or flush with three of a kind",
    "joker completes it",
)
ABOVE_COMPLETE = (
    "two pair",  # also "two pairs"; reached through the "straight ... with two pair" lines
    "three pair",
    "full house",
    "two three of a kinds",
    "two sets of three of a kind",
    "four of a kind",
    "five aces",
)
