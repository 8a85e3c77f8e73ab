from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.cards import (
    DECK,
    JOKER,
    CardError,
    card_from_index,
    format_cards,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("As", "As"), ("as", "As"), ("Td", "Td"), ("10d", "Td"), ("10D", "Td"), ("JK", "JK"),
     ("joker", "JK"), ("Joker", "JK"), ("2c", "2c"), ("qH", "Qh")],
)
def test_parse_and_print(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["1s", "Ax", "A", "11h", "JKs", "", "Zz", "10", "AsKs"])
def test_bad_card_names_the_text(text: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_duplicate_is_named() -> None:
    with pytest.raises(CardError, match="duplicate card 'as'"):
        parse_cards("As Kd as")


def test_wrong_count() -> None:
    with pytest.raises(CardError, match="expected 7 cards, got 6"):
        parse_cards("As Kd 9c 7h 5s 3d", count=7)


def test_deck_is_53_distinct_cards() -> None:
    assert len(DECK) == 53 and len(set(DECK)) == 53
    assert DECK[-1] is JOKER
    assert [c.index for c in DECK] == list(range(53))


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=53, unique=True))
def test_round_trip(cards: list) -> None:  # type: ignore[type-arg]
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert [card_from_index(c.index) for c in cards] == cards
