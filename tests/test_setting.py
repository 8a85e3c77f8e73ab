"""Set hands: the foul rule and the comparison with the banker, copies included.

Rules README, "Setting and comparing hands": both hands higher wins, both lower loses, one each
pushes; an identical rank is a copy and goes to the banker.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.cards import DECK, Card, CardError
from dealer_console.hands import HandRules, Wheel
from dealer_console.setting import (
    Outcome,
    Side,
    compare,
    is_foul,
    make_setting,
    parse_setting,
)

# (set hand, foul?)
FOULS = [
    ("Kd 9c | As 7h 5s 3d 2c", False),  # A-high behind K-high: fine
    ("As Kd | Ah Qc 9s 5d 2c", True),  # A-K in front of A-Q: foul
    ("As Kd | Ah Kc 9s 5d 2c", False),  # A-K in front of A-K-9: the five cards rank higher
    ("Ks Kd | Ah Qc 9s 5d 2c", True),  # pair in front of no pair
    ("Ks Kd | Kh Kc 9s 5d 2c", False),  # pair of kings in front of kings with kickers
    ("As Ad | Ks Kh Qc 5d 2c", True),  # aces in front of kings
    ("JK Ad | 2s 2h 3c 4d 6c", True),  # the joker pairs the ace in front
    ("JK Kd | As Qh 9c 5d 2c", True),  # the joker is an ace in front: A-K over A-Q
    ("9s 9d | 2s 2h 3c 3d 4c", False),  # two pair beats any pair
]


@pytest.mark.parametrize(("text", "foul"), FOULS, ids=[t for t, _ in FOULS])
def test_foul(text: str, foul: bool) -> None:
    assert is_foul(parse_setting(text)) is foul


def test_foul_depends_on_the_wheel_only_through_values() -> None:
    setting = parse_setting("Ks Qd | Ad 2c 3h 4s 5d")
    assert not is_foul(setting, HandRules(Wheel.LOWEST))
    assert not is_foul(setting, HandRules(Wheel.SECOND_HIGHEST))


# (player, banker, outcome, high side, low side)
COMPARISONS = [
    ("Ah Kh | 9s 9d 4c 3c 2h", "Kd 9c | As 7h 5s 3d 2c", Outcome.WIN, Side.PLAYER, Side.PLAYER),
    ("Kd 9c | As 7h 5s 3d 2c", "Ah Kh | 9s 9d 4c 3c 2h", Outcome.LOSS, Side.BANKER, Side.BANKER),
    ("Ah Kh | 2s 2d 4c 3c 6h", "Qd Jc | 9s 9h 8s 3d 2c", Outcome.PUSH, Side.BANKER, Side.PLAYER),
    ("Qd Jc | 9s 9h 8s 3d 2c", "Ah Kh | 2s 2d 4c 3c 6h", Outcome.PUSH, Side.PLAYER, Side.BANKER),
    # copies: equal ranks go to the banker
    ("Ah Kh | 9s 9d 4c 3c 2h", "As Kd | 8s 8d 7c 3d 2d", Outcome.PUSH, Side.PLAYER, Side.COPY),
    ("Ah Kh | 7s 7d 4c 3c 2h", "As Kd | 8s 8d 7c 3d 2d", Outcome.LOSS, Side.BANKER, Side.COPY),
    ("Ah Kh | 9s 9d 4c 3c 2h", "As Kd | 9c 9h 4d 3d 2d", Outcome.LOSS, Side.COPY, Side.COPY),
    ("Qh Jh | 9s 9d 4c 3c 2h", "As Kd | 9c 9h 4d 3s 2d", Outcome.LOSS, Side.COPY, Side.BANKER),
    ("JK Kh | 9s 9d 4c 3c 2h", "As Kd | 8c 8h 4d 3s 2d", Outcome.PUSH, Side.PLAYER, Side.COPY),
    # a joker royal copies a natural royal
    ("2c 3d | JK Kh Qh Jh Th", "4c 5d | As Ks Qs Js Ts", Outcome.LOSS, Side.COPY, Side.BANKER),
]


@pytest.mark.parametrize(
    ("player", "banker", "outcome", "high", "low"),
    COMPARISONS,
    ids=[f"{p} vs {b}" for p, b, *_ in COMPARISONS],
)
def test_compare(player: str, banker: str, outcome: Outcome, high: Side, low: Side) -> None:
    result = compare(parse_setting(player), parse_setting(banker))
    assert (result.outcome, result.high, result.low) == (outcome, high, low)


def test_wheel_changes_a_comparison() -> None:
    player = parse_setting("Kd Qc | Ad 2c 3h 4s 5d")
    banker = parse_setting("Jd Tc | 6s 7h 8d 9c Ts")
    assert compare(player, banker, HandRules(Wheel.LOWEST)).high is Side.BANKER
    # Where the wheel is second highest it sits just below A-K-Q-J-T, above the 6-T straight.
    assert compare(player, banker, HandRules(Wheel.SECOND_HIGHEST)).high is Side.PLAYER


@pytest.mark.parametrize(
    "text",
    [
        "Kd 9c As 7h 5s 3d 2c",
        "Kd | As 7h 5s 3d 2c",
        "Kd 9c | As 7h 5s 3d",
        "Kd Kd | As 7h 5s 3d 2c",
    ],
)
def test_bad_settings_are_refused(text: str) -> None:
    with pytest.raises(CardError):
        parse_setting(text)


seven = st.lists(st.sampled_from(DECK), min_size=14, max_size=14, unique=True)


@given(seven)
def test_compare_is_antisymmetric_except_copies(cards: list[Card]) -> None:
    """Swapping player and banker swaps the sides; copies stay copies and stay the banker's."""
    a = make_setting(cards[:2], cards[2:7])
    b = make_setting(cards[7:9], cards[9:14])
    ab, ba = compare(a, b), compare(b, a)
    flip = {Side.PLAYER: Side.BANKER, Side.BANKER: Side.PLAYER, Side.COPY: Side.COPY}
    assert (ba.high, ba.low) == (flip[ab.high], flip[ab.low])
    if ab.outcome is Outcome.WIN:
        assert ba.outcome is Outcome.LOSS
    if Side.COPY in (ab.high, ab.low):
        assert ab.outcome is not Outcome.WIN and ba.outcome is not Outcome.WIN
