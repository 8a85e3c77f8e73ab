"""The California House Way: the chart "FACE UP PAI GOW POKER HOUSE HAND SET" of
``../shared/rules/california-gegr-002138-face-up-pai-gow.txt`` (GEGR-002138).

Each branch below is one line of that chart, and ``Setting.rule`` names it. The chart is read top
down from the strongest holding: a hand holding several categories (three pair with a straight,
a full house with a flush) takes the line the chart gives for the combination, as the chart's
own "with or without a Straight, Flush, or Straight Flush" wording asks. Judgement calls are
marked JUDGEMENT and listed in ``docs/house-ways.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer_console.cards import ACE, KING, QUEEN, Card
from dealer_console.hands import DEFAULT_RULES, HandRules
from dealer_console.house_ways._common import (
    Band,
    Seven,
    ace_and_top_single_fronts,
    best_complete,
    choose_front,
    keep_or_split,
    pair_fronts,
    top_singles_front,
)
from dealer_console.setting import Setting

# Two pair: the high pair decides which single card in front lets both pairs stay behind.
# (high pairs, band name, lowest such card or None for "always split", its name)
_TWO_PAIR_BANDS: tuple[Band, ...] = (
    (range(QUEEN, ACE + 1), "A-Q", None, ""),
    (range(9, 12), "J-9", ACE, "ace"),
    (range(6, 9), "8-6", KING, "king or higher"),
    (range(2, 6), "5-3", QUEEN, "queen or higher"),
)

# Four of a kind: the same idea; 5s and below always stay behind.
_QUADS_BANDS: tuple[Band, ...] = (
    (range(QUEEN, ACE + 1), "A-Q", None, ""),
    (range(9, 12), "J-9", KING, "king or higher"),
    (range(6, 9), "8-6", QUEEN, "queen or higher"),
    (range(2, 6), "5 or below", 0, "anything"),
)


def _two_pair(hand: Seven, prefix: str = "") -> Setting:
    """Chart lines "Two Pair: High Pair is ...": split (small pair in front) unless the high
    pair's band allows both pairs behind with a high enough card in front. With both pairs
    behind, the front is the two highest singles (JUDGEMENT: the chart names only the ace,
    king or queen; the highest other single gives the highest low hand)."""
    return keep_or_split(
        hand,
        hand.pairs[0],
        _TWO_PAIR_BANDS,
        f"{prefix}two pair: high pair",
        split_fronts=pair_fronts(hand, hand.pairs[1]),
        keep_text="both pairs behind",
        split_text="small pair in front",
    )


def _four_of_a_kind(hand: Seven) -> Setting:
    """Chart lines "Four of a Kind ...": A-Q split pair-pair; J-9 and 8-6 stay behind only with
    a king / queen (or higher) in front; 5s and below always stay behind (the front is then the
    two highest singles)."""
    quad = hand.quads[0]
    return keep_or_split(
        hand,
        quad,
        _QUADS_BANDS,
        "four of a kind",
        split_fronts=pair_fronts(hand, quad),
        keep_text="four of a kind behind",
        split_text="split pair-pair",
    )


def set_hand(cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> Setting:
    """Set seven cards the California House Way."""
    hand = Seven.of(cards, rules)
    quads, trips, pairs = hand.quads, hand.trips, hand.pairs

    if hand.five_aces:
        # Chart line "Five Aces": two of the aces go in front, even beside a pair of kings.
        return choose_front(hand, pair_fronts(hand, ACE), "five aces: pair of aces in front")
    if quads and (pairs or trips):
        # "Four of a Kind with a Pair". JUDGEMENT: four of a kind beside three of a kind holds
        # a pair too; the pair comes from the trips.
        other = (pairs or trips)[0]
        return choose_front(
            hand, pair_fronts(hand, other), "four of a kind with a pair: pair in front"
        )
    if quads:
        return _four_of_a_kind(hand)
    if len(trips) == 2:
        return choose_front(
            hand, pair_fronts(hand, trips[0]), "two three of a kinds: highest pair in front"
        )
    if trips and pairs:
        # Chart line "Full House": the top pair goes in front and the three of a kind stays
        # whole behind (the pair is never taken out of the trips).
        return choose_front(
            hand, pair_fronts(hand, pairs[0]), "full house: highest pair in front, trips behind"
        )
    if len(pairs) == 3:
        return choose_front(hand, pair_fronts(hand, pairs[0]), "three pair: highest pair in front")
    if hand.has_complete:
        return _complete(hand)
    if trips:
        if trips[0] == ACE:
            return choose_front(
                hand,
                ace_and_top_single_fronts(hand),
                "three of a kind aces: an ace and the highest single in front",
            )
        return choose_front(
            hand,
            top_singles_front(hand),
            "three of a kind kings and below: two highest singles in front",
        )
    if len(pairs) == 2:
        return _two_pair(hand)
    if pairs:
        return choose_front(
            hand, top_singles_front(hand), "one pair: pair behind, highest two cards in front"
        )
    singles = hand.singles
    return choose_front(
        hand, [(singles[1], singles[2])], "high card: 2nd and 3rd highest cards in front"
    )


def _complete(hand: Seven) -> Setting:
    """Chart lines "Straight, Flush, or Straight Flush with ...": the highest two cards that
    leave a complete hand behind. JUDGEMENT: "complete hand" is any straight, flush or
    straight flush among the seven cards, whichever leaves the highest low hand (then the
    highest high hand)."""
    trips, pairs = hand.trips, hand.pairs
    if trips:
        # Chart line "Straight, flush or straight flush with three of a kind": keep the
        # complete hand behind and put a pair in front when one can go up, else the highest
        # cards (an ace whenever the chart's case arises).
        setting = best_complete(
            hand, "straight/flush with three of a kind: pair or ace in front, complete hand behind"
        )
    elif len(pairs) == 2:
        setting = best_complete(
            hand,
            "straight/flush with two pair: pair in front, complete hand behind",
            pair_in_front=True,
        )
        if setting is None:
            # "otherwise play Two Pair strategy"
            return _two_pair(hand, prefix="straight/flush with two pair, no pair can go up; ")
    elif pairs:
        setting = best_complete(
            hand, "straight/flush with one pair: highest two cards in front, complete hand behind"
        )
    else:
        setting = best_complete(
            hand, "straight/flush with no pair: highest two cards in front, complete hand behind"
        )
    assert setting is not None
    return setting
