"""Five- and two-card hand values: the joker in each role, ``wheel`` and ``joker_in_flush``.

Rules README, "Cards". Each ladder lists hands from the highest down; every hand must beat the
next one, so one line of data checks a whole stretch of the poker order.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_console.cards import DECK, Card, parse_cards
from dealer_console.hands import (
    FiveClass,
    HandRules,
    JokerInFlush,
    Wheel,
    five_card_class,
    five_card_value,
    two_card_value,
)

LOWEST = HandRules(Wheel.LOWEST)
SECOND = HandRules(Wheel.SECOND_HIGHEST)
JOKER_ACE = HandRules(joker_in_flush=JokerInFlush.ACE)


def value(text: str, rules: HandRules = LOWEST) -> tuple[int, ...]:
    return five_card_value(parse_cards(text, 5), rules)


# (hand, class) -- the joker as an ace, as a straight / flush filler, and in Five Aces.
CLASSES = [
    ("As Ah Ad Ac JK", FiveClass.FIVE_ACES),
    ("JK Ks Qs Js Ts", FiveClass.STRAIGHT_FLUSH),  # royal flush with the joker
    ("9h 8h JK 6h 5h", FiveClass.STRAIGHT_FLUSH),  # joker fills the middle
    ("JK 2d 3d 4d 5d", FiveClass.STRAIGHT_FLUSH),  # joker as the ace of a wheel, or the 6
    ("As Ah Ad JK 2c", FiveClass.FOUR_OF_A_KIND),
    ("Ks Kh Kd JK 2c", FiveClass.THREE_OF_A_KIND),  # the joker is no king: aces only
    ("As Ah JK Kd Kc", FiveClass.FULL_HOUSE),
    ("Ks Kh JK Qd Qc", FiveClass.TWO_PAIR),  # two pair with an ace kicker, never a full house
    ("JK 9h 6h 3h 2h", FiveClass.FLUSH),
    ("JK Kd Qc Jh 9s", FiveClass.STRAIGHT),  # joker as the ten
    ("JK 2c 3d 4h 5s", FiveClass.STRAIGHT),  # joker as the ace (or six)
    ("JK Ad 7c 5h 2s", FiveClass.PAIR),  # joker pairs the ace
    ("JK Kd Kc 7h 2s", FiveClass.PAIR),  # pair of kings, the joker an ace kicker
    ("JK Kd 9c 7h 2s", FiveClass.HIGH_CARD),
]


@pytest.mark.parametrize(("text", "cls"), CLASSES, ids=[t for t, _ in CLASSES])
def test_class_with_the_joker(text: str, cls: FiveClass) -> None:
    assert five_card_class(value(text)) is cls
    assert five_card_class(value(text, SECOND)) is cls
    assert five_card_class(value(text, JOKER_ACE)) is cls


LADDER_LOWEST = [
    "As Ah Ad Ac JK",  # five aces
    "As Ks Qs Js Ts",  # royal flush
    "JK Kh Qh Jh Th",  # royal flush with the joker: a copy of the natural royal
    "Ks Qs Js Ts 9s",
    "6d 5d 4d 3d 2d",
    "Ad 5d 4d 3d 2d",  # wheel straight flush: the lowest (California)
    "As Ah Ad Ac Kd",
    "As Ah Ad JK Qd",  # four aces with the joker, queen kicker
    "2s 2h 2d 2c 3d",
    "As Ah Ad Kc Kd",
    "2s 2h 2d 3c 3d",
    "JK Ah Qh 9h 6h",  # joker is the king: A K Q 9 6
    "Ah Kh Qh 9h 5h",
    "7h 5h 4h 3h 2h",
    "As Kd Qc Jh Ts",
    "Kd Qc Jh Ts 9s",
    "6d 5c 4h 3s 2d",
    "Ad 5c 4h 3s 2d",  # the wheel: lowest straight
    "As Ah JK 3c 2d",  # three aces with the joker
    "2s 2h 2d Ac Kd",
    "As Ad Ks Kd Qc",
    "3s 3d 2s 2d 4c",
    "JK Ad Kc Qh 9s",  # pair of aces: the joker fills no straight here
    "2s 2h Ac Kd Qh",
    "JK Kd 9c 7h 2s",  # ace high with the joker
    "Ad Kd 9c 7h 2s",  # a copy of it
    "7s 5h 4d 3c 2s",
]


def test_ladder_with_the_wheel_lowest() -> None:
    ladder = LADDER_LOWEST
    values = [value(t) for t in ladder]
    for higher, lower, text in zip(values, values[1:], ladder[1:], strict=False):
        if text.startswith(("JK Kh Qh", "Ad Kd 9c")):
            assert higher == lower, f"{text} copies the hand above it"
        else:
            assert higher > lower, f"{text} should rank below the hand above it"


def test_the_wheel_second_highest_sits_below_broadway() -> None:
    broadway, wheel, king_high = (
        value("As Kd Qc Jh Ts", SECOND),
        value("Ad 5c 4h 3s 2d", SECOND),
        value("Kd Qc Jh Ts 9s", SECOND),
    )
    assert broadway > wheel > king_high
    sf = [value(t, SECOND) for t in ("As Ks Qs Js Ts", "Ad 5d 4d 3d 2d", "Ks Qs Js Ts 9s")]
    assert sf[0] > sf[1] > sf[2]
    # The joker completing a wheel takes the same place.
    assert value("JK 5c 4h 3s 2d", SECOND) == wheel
    assert value("JK 5c 4h 3s 2d", LOWEST) == value("6d 5c 4h 3s 2d", LOWEST)


def test_the_wheel_lowest_is_below_six_high() -> None:
    assert value("Ad 5c 4h 3s 2d") < value("6d 5c 4h 3s 2d")
    assert value("Ad 5d 4d 3d 2d") < value("6d 5d 4d 3d 2d")


def test_joker_in_a_flush_with_an_ace() -> None:
    natural_ak = value("Ah Kh 9h 6h 3h")
    with_joker = "JK Ah 9h 6h 3h"
    # highest_missing: the joker is the king, a copy of the natural A-K flush.
    assert value(with_joker) == natural_ak
    # ace: the joker is a second ace, above every A-K flush.
    assert value(with_joker, JOKER_ACE) > value("Ah Kh Qh Jh 9h", JOKER_ACE)
    # Without an ace in the flush the joker is the ace under both options.
    assert value("JK Kh 9h 6h 3h") == value("JK Kh 9h 6h 3h", JOKER_ACE) == value("Ah Kh 9h 6h 3h")


def test_joker_fills_the_missing_rank_of_a_straight() -> None:
    assert value("JK Kd Qc Jh 9s") == value("Td Kd Qc Jh 9s")
    assert value("9h 8h JK 6h 5h") == value("9h 8h 7h 6h 5h")
    # Open-ended: the joker takes the higher end.
    assert value("JK Qd Jc Th 9s") == value("Kd Qd Jc Th 9s")


TWO_CARD = [
    ("JK Ah", "pair of aces: the joker is an ace in front"),
    ("As Ad", "natural aces copy the joker pair"),
    ("Ks Kd", ""),
    ("2s 2d", ""),
    ("JK Kd", "ace-king: the joker is an ace in front"),
    ("Ah Qd", ""),
    ("3h 2d", ""),
]


def test_two_card_values() -> None:
    values = [two_card_value(parse_cards(t, 2)) for t, _ in TWO_CARD]
    assert values[0] == values[1] == (FiveClass.PAIR, 14)
    assert values[1] > values[2] > values[3] > values[4] > values[5] > values[6]
    assert values[4] == (FiveClass.HIGH_CARD, 14, 13)


def test_wrong_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="5 cards"):
        five_card_value(parse_cards("As Kd Qc Jh"))
    with pytest.raises(ValueError, match="2 cards"):
        two_card_value(parse_cards("As Kd Qc"))


five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@given(five_cards, st.sampled_from([LOWEST, SECOND, JOKER_ACE]), st.permutations(range(5)))
def test_value_ignores_card_order(cards: list[Card], rules: HandRules, order: list[int]) -> None:
    assert five_card_value(cards, rules) == five_card_value([cards[i] for i in order], rules)


@given(
    st.lists(st.sampled_from(DECK[:-1]), min_size=4, max_size=4, unique=True).map(
        lambda cs: [*cs, DECK[-1]]
    )
)
def test_joker_is_worth_at_least_any_ace_in_its_place(cards: list[Card]) -> None:
    """Whatever it completes, the joker is never worth less than a natural ace there."""
    for suit in "cdhs":
        ace = Card(14, suit)
        if ace not in cards:
            as_ace = [ace if c.is_joker else c for c in cards]
            assert five_card_value(cards) >= five_card_value(as_ace)


COMPLETE = {FiveClass.STRAIGHT, FiveClass.FLUSH, FiveClass.STRAIGHT_FLUSH}
four_naturals = st.one_of(
    st.lists(st.sampled_from(DECK[:-1]), min_size=4, max_size=4, unique=True),
    # one suit, ranks near both ends: straights, flushes and both table options matter here
    st.lists(
        st.sampled_from([c for c in DECK[:-1] if c.suit == "s" and c.rank not in (7, 8, 9)]),
        min_size=4,
        max_size=4,
        unique=True,
    ),
    st.lists(
        st.sampled_from(
            [c for c in DECK[:-1] if c.suit in "hs" and c.rank in (2, 3, 4, 5, 13, 14)]
        ),
        min_size=4,
        max_size=4,
        unique=True,
    ),
)


def _joker_reference(naturals: list[Card], rules: HandRules) -> tuple[int, ...]:
    """The joker read straight from the rules README ("Cards"), by substitution: an ace, or
    any card not held that makes a straight, flush or straight flush; in a flush that holds an
    ace, under ``joker_in_flush = ace``, another ace of that suit."""
    suits = {c.suit for c in naturals}
    off_suit = next(s for s in "cdhs" if s not in suits) if len(suits) == 1 else "c"
    best = five_card_value([*naturals, Card(14, off_suit)], rules)
    ace_flush = rules.joker_in_flush is JokerInFlush.ACE and any(c.rank == 14 for c in naturals)
    for card in DECK[:-1]:
        if card in naturals:
            continue
        filled = five_card_value([*naturals, card], rules)
        cls = five_card_class(filled)
        if cls in COMPLETE and not (cls is FiveClass.FLUSH and ace_flush):
            best = max(best, filled)
    if ace_flush and len(suits) == 1:
        best = max(best, five_card_value([*naturals, Card(14, next(iter(suits)))], rules))
    return best


@settings(max_examples=300)
@given(
    four_naturals,
    st.sampled_from([LOWEST, SECOND, JOKER_ACE, HandRules(Wheel.SECOND_HIGHEST, JokerInFlush.ACE)]),
)
def test_joker_value_matches_substitution(naturals: list[Card], rules: HandRules) -> None:
    """The engine's joker (built from windows and a flush filler) equals the best card the
    rules allow in its place. Checked offline over 160,000 hands; here a sample each run."""
    assert five_card_value([*naturals, DECK[-1]], rules) == _joker_reference(naturals, rules)
