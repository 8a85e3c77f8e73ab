"""Seven-card questions: the Fortune class (golden data), ace-high pai gow and the best five.

Rules README, "Fortune bonus and Envy" and "Face Up: the dealer's ace-high pai gow". The exact
counts over all hands are checked in ``tests/math``; here each class and each tricky holding
is pinned by hand-written data.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.cards import DECK, Card, CardError, parse_cards
from dealer_console.hands import FiveClass, HandRules, Wheel, five_card_class
from dealer_console.seven import AceHigh, FortuneClass, ace_high_status, best_five, fortune_class

GOLDEN = Path(__file__).parent / "golden" / "fortune_classes.txt"


def _golden() -> list[tuple[str, str, str]]:
    rows = []
    for number, raw in enumerate(GOLDEN.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.split("#", 1)[0].strip()
        if text:
            cards, arrow, cls = text.partition("->")
            assert arrow, f"{GOLDEN.name}:{number}: expected '<7 cards> -> <class>'"
            rows.append((f"{GOLDEN.name}:{number}", cards.strip(), cls.strip()))
    return rows


ROWS = _golden()


@pytest.mark.parametrize(("where", "cards", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_golden_fortune_class(where: str, cards: str, expected: str) -> None:
    cls = fortune_class(parse_cards(cards, 7))
    assert (cls.value if cls else "none") == expected, where


def test_golden_covers_every_class() -> None:
    covered = {expected for _, _, expected in ROWS}
    assert covered == {c.value for c in FortuneClass} | {"none"}


def test_eight_wild_king_high_or_better_sevens() -> None:
    """The joker in each of the seven places of a K-7 run, and on top of K-8 (as the ace)."""
    wild = [r for r in ROWS if r[2] == "wild_seven_card_straight_flush"]
    with_king_top = [r for r in wild if "Kd" in r[1] or "Kh" in r[1]]
    assert len(with_king_top) >= 8


ACE_HIGH = [
    ("As Kd 9c 7h 5s 3d 2c", AceHigh.NATURAL),
    ("As Kd Qc Jh 9s 3d 2c", AceHigh.NATURAL),  # A-K-Q-J-9: no ten, no straight
    ("As Kh 9h 7h 5h 3d 2c", AceHigh.NATURAL),  # four hearts are no flush
    ("JK Kd 9c 7h 5s 3d 2c", AceHigh.JOKER),  # the joker is the ace
    ("JK 2d 3c 4h 9s Jd Kc", AceHigh.JOKER),  # it cannot be both the ace and the five
    ("JK Ad 9c 7h 5s 3d 2c", None),  # joker beside a natural ace: a pair of aces
    ("Kd Qc 9s 8h 6d 4c 2s", None),  # king high
    ("JK Kd Qc Jh 9s 3d 2c", None),  # the joker fills a straight
    ("JK 2d 3c 4h 5s Jd Kc", None),  # the joker fills the wheel
    ("JK Kh 9h 7h 5h 3d 2c", None),  # the joker fills a flush
    ("As Ad 9c 7h 5s 3d 2c", None),  # a pair
    ("As 2d 3c 4h 5s 9d Kc", None),  # the wheel
]


@pytest.mark.parametrize(("cards", "status"), ACE_HIGH, ids=[c for c, _ in ACE_HIGH])
def test_ace_high_status(cards: str, status: AceHigh | None) -> None:
    assert ace_high_status(parse_cards(cards, 7)) is status


@pytest.mark.parametrize(
    ("cards", "rules", "cls", "five"),
    [
        ("As Kd 9c 7h 5s 3d 2c", HandRules(), FiveClass.HIGH_CARD, "As Kd 9c 7h 5s"),
        ("JK Kd Qc Jh 9s 4d 2c", HandRules(), FiveClass.STRAIGHT, "JK Kd Qc Jh 9s"),
        ("As Ah Ad Ac JK Kd 2s", HandRules(), FiveClass.FIVE_ACES, "As Ah Ad Ac JK"),
        # A-2-3-4-5 beside 2-3-4-5-6: the 6-high straight unless the wheel is second highest.
        ("As 2d 3c 4h 5s 6d Kc", HandRules(Wheel.LOWEST), FiveClass.STRAIGHT, "6d 5s 4h 3c 2d"),
        (
            "As 2d 3c 4h 5s 6d Kc",
            HandRules(Wheel.SECOND_HIGHEST),
            FiveClass.STRAIGHT,
            "As 5s 4h 3c 2d",
        ),
    ],
)
def test_best_five(cards: str, rules: HandRules, cls: FiveClass, five: str) -> None:
    value, chosen = best_five(parse_cards(cards, 7), rules)
    assert five_card_class(value) is cls
    assert sorted(chosen) == sorted(parse_cards(five, 5))


def test_seven_cards_are_required() -> None:
    with pytest.raises(CardError, match="expected 7"):
        fortune_class(parse_cards("As Kd 9c 7h 5s 3d"))
    with pytest.raises(CardError, match="duplicate"):
        ace_high_status([*parse_cards("As Kd 9c 7h 5s 3d"), parse_cards("As")[0]])


sevens = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)


@given(sevens)
def test_ace_high_pai_gow_has_no_fortune_class(cards: list[Card]) -> None:
    """Ace-high pai gow holds no pair, straight or flush, so it never wins the Fortune bet."""
    if ace_high_status(cards) is not None:
        assert fortune_class(cards) is None
        assert five_card_class(best_five(cards)[0]) is FiveClass.HIGH_CARD


@given(sevens)
def test_fortune_class_agrees_with_the_best_five(cards: list[Card]) -> None:
    """The five-card part of the Fortune ladder is the best five's class (three pair aside,
    and trips counted above a straight)."""
    cls = fortune_class(cards)
    best = five_card_class(best_five(cards)[0])
    five_card_fortune = {
        FiveClass.FIVE_ACES: FortuneClass.FIVE_ACES,
        FiveClass.FOUR_OF_A_KIND: FortuneClass.FOUR_OF_A_KIND,
        FiveClass.FULL_HOUSE: FortuneClass.FULL_HOUSE,
        FiveClass.FLUSH: FortuneClass.FLUSH,
        FiveClass.STRAIGHT: FortuneClass.STRAIGHT,
        FiveClass.THREE_OF_A_KIND: FortuneClass.THREE_OF_A_KIND,
    }
    if cls is None or cls is FortuneClass.THREE_PAIR:
        assert best in (FiveClass.HIGH_CARD, FiveClass.PAIR, FiveClass.TWO_PAIR)
    elif cls.order <= FortuneClass.STRAIGHT_FLUSH.order:
        assert best in (FiveClass.STRAIGHT_FLUSH, FiveClass.FIVE_ACES)
    elif cls is FortuneClass.THREE_OF_A_KIND and best is FiveClass.STRAIGHT:
        # trips beside a straight: the Fortune order puts trips first
        ranks = [14 if c.is_joker else c.rank for c in cards]
        assert max(ranks.count(r) for r in ranks) == 3
    else:
        assert five_card_fortune[best] is cls


ace_high_sevens = st.one_of(
    sevens,
    # few pairs: mostly distinct ranks, aces and the joker common
    st.lists(
        st.sampled_from([c for c in DECK if c.rank in (0, 14, 2, 3, 5, 7, 9, 10, 12, 13)]),
        min_size=7,
        max_size=7,
        unique=True,
    ),
)


@given(ace_high_sevens)
def test_ace_high_status_is_an_ace_topped_high_card_best_five(cards: list[Card]) -> None:
    """Both ways (rules README, "Face Up"): ace-high pai gow exactly when the best five is a
    high-card hand under an ace, the joker's ace if it holds the joker."""
    joker = any(c.is_joker for c in cards)
    ace_on_top = joker or any(c.rank == 14 for c in cards)
    high_card = five_card_class(best_five(cards)[0]) is FiveClass.HIGH_CARD
    expected = None
    if high_card and ace_on_top:
        expected = AceHigh.JOKER if joker else AceHigh.NATURAL
    assert ace_high_status(cards) == expected
