"""Qualifying hands: the jackpot line agrees with the Fortune engine, and lower lines are held."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from dealer_console.cards import DECK, Card, parse_cards
from dealer_console.jackpot.qualify import holds, winning_line
from dealer_console.jackpot_values.paytable import load
from dealer_console.seven import FortuneClass, fortune_class

sevens = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)


@settings(max_examples=3000, deadline=None)
@given(sevens)
def test_holds_agrees_with_the_fortune_class(cards: list[Card]) -> None:
    top = fortune_class(cards)
    for cls in FortuneClass:
        if top is not None and cls.order < top.order:
            assert not holds(cards, cls), cls
    if top is not None:
        assert holds(cards, top)


@settings(max_examples=2000, deadline=None)
@given(sevens, st.sampled_from(["fupgpp-wa01", "fupgpp-wa03", "fupgpp-wa07", "fupgpp-ml02"]))
@example(list(parse_cards("7s Ks 8s Qs Ts Js Jk")), "fupgpp-wa03")  # a line of two classes
def test_the_top_class_on_the_table_wins_its_line(cards: list[Card], name: str) -> None:
    table = load(name)
    top = fortune_class(cards)
    line = winning_line(table, cards)
    listed = {h for ln in table.lines for h in ln.hands}
    if top in listed:
        assert line is not None and top in line.hands
    if line is not None:  # won through a class the cards hold, never above their best
        assert top is not None
        assert any(holds(cards, h) and top.order <= h.order for h in line.hands)


def test_a_hand_missing_from_the_table_pays_the_best_line_it_holds() -> None:
    wa07 = load("fupgpp-wa07")
    natural_royal_seven = parse_cards("8h 9h Th Jh Qh Kh Ah")
    line = winning_line(wa07, natural_royal_seven)
    assert line is not None and line.hands == (FortuneClass.ROYAL_FLUSH,)
    low_seven = parse_cards("2c 3c 4c 5c 6c 7c 8c")
    line = winning_line(wa07, low_seven)
    assert line is not None and line.hands == (FortuneClass.STRAIGHT_FLUSH,)
    royal_match = parse_cards("As Ks Qs Js Ts Kd Qd")
    wa03 = load("fupgpp-wa03")
    line = winning_line(wa03, royal_match)
    assert line is not None and line.hands == (FortuneClass.ROYAL_FLUSH,)
    assert winning_line(wa03, parse_cards("2c 3d 4h 9s Tc Jd Qh")) is None


def test_printed_lines_match_the_keypad() -> None:
    assert [len(load(n).lines) for n in ("fupgpp-wa01", "fupgpp-wa03", "fupgpp-wa07",
                                         "fupgpp-ml02")] == [8, 6, 5, 6]
    seven = load("fupgpp-ml02").line(1)
    assert seven.hands == (FortuneClass.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH,
                           FortuneClass.WILD_SEVEN_CARD_STRAIGHT_FLUSH)
