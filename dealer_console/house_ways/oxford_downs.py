"""The Oxford Downs House Way: the "Hand / House Way" table of
``../shared/rules/oxford-downs-face-up-pai-gow.txt``.

Each branch below is one line of that table, and ``Setting.rule`` names it. The strongest
holding decides the line, as in the other charts (three pairs before a straight; a full house
ignores a straight or flush). Judgement calls are marked JUDGEMENT and listed in
``docs/house-ways.md``.
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
    highest_permissible_pair,
    keep_or_split,
    pair_fronts,
    top_singles_front,
)
from dealer_console.setting import Setting

# "Two Pairs: If high pair is ... split unless <card> (in) front". JUDGEMENT: "unless King is
# front" also keeps the pairs together with an ace, the higher card (the California chart says
# "king or higher" for the same line); likewise for the queen.
_TWO_PAIR_BANDS: tuple[Band, ...] = (
    (range(QUEEN, ACE + 1), "A-Q", None, ""),
    (range(9, 12), "J-9", ACE, "ace"),
    (range(6, 9), "8-6", KING, "king or higher"),
    (range(2, 6), "5-3", QUEEN, "queen or higher"),
)

# "Four of a kind: If Aces, Kings, Queens - always split ... If 5's and below - never split".
_QUADS_BANDS: tuple[Band, ...] = (
    (range(QUEEN, ACE + 1), "A-Q", None, ""),
    (range(9, 12), "J-9", KING, "king or higher"),
    (range(6, 9), "8-6", QUEEN, "queen or higher"),
    (range(2, 6), "5 or below", 0, ""),
)


def _two_pair(hand: Seven, prefix: str = "") -> Setting:
    """The "Two Pairs" lines. Keeping both pairs behind puts the two highest singles in front
    (JUDGEMENT: the chart names only the ace / king / queen that goes there)."""
    return keep_or_split(
        hand,
        hand.pairs[0],
        _TWO_PAIR_BANDS,
        f"{prefix}two pairs: high pair",
        split_fronts=pair_fronts(hand, hand.pairs[1]),
        keep_text="both pairs behind",
        split_text="split, small pair in front",
    )


def set_hand(cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> Setting:
    """Set seven cards the Oxford Downs House Way."""
    hand = Seven.of(cards, rules)
    quads, trips, pairs = hand.quads, hand.trips, hand.pairs

    if hand.five_aces:
        return choose_front(hand, pair_fronts(hand, ACE), "five aces: pair of aces in front")
    if quads and (pairs or trips):
        # Chart, "Four of a kind", last line (quads beside a pair): the complete hand stays
        # behind. JUDGEMENT: the complete hand is the four of a kind, and the pair (out of
        # three of a kind if that is what the hand holds) goes in front: the highest low
        # hand that keeps the quads behind.
        return choose_front(
            hand,
            pair_fronts(hand, (pairs or trips)[0]),
            "four of a kind with a pair: four of a kind behind, pair in front",
        )
    if quads:
        quad = quads[0]
        return keep_or_split(
            hand,
            quad,
            _QUADS_BANDS,
            "four of a kind",
            split_fronts=pair_fronts(hand, quad),
            keep_text="four of a kind behind",
            split_text="split",
        )
    if len(trips) == 2:
        return choose_front(
            hand,
            pair_fronts(hand, trips[0]),
            "two sets of three of a kind: split highest set",
        )
    if trips and pairs:
        # "Full House: Put the highest permissible pair in front". Permissible: the hand
        # must not be foul, so two of the trips may go up when two pairs stay behind.
        return highest_permissible_pair(hand, "full house: highest permissible pair in front")
    if len(pairs) == 3:
        return choose_front(hand, pair_fronts(hand, pairs[0]), "three pairs: highest pair in front")
    if hand.has_complete:
        return _complete(hand)
    if trips:
        if trips[0] == ACE:
            # "If Aces - always split". JUDGEMENT: one ace goes up with the highest single,
            # the pair of aces stays behind (as the California and Catfish Bend charts say).
            return choose_front(
                hand,
                ace_and_top_single_fronts(hand),
                "three of a kind aces: split, an ace and the highest single in front",
            )
        return choose_front(
            hand,
            top_singles_front(hand),
            "three of a kind kings and below: never split, two highest singles in front",
        )
    if len(pairs) == 2:
        return _two_pair(hand)
    if pairs:
        return choose_front(
            hand,
            top_singles_front(hand),
            "one pair: highest two single cards in front, pair behind",
        )
    singles = hand.singles
    return choose_front(
        hand, [(singles[1], singles[2])], "no pair: second and third high cards in front"
    )


def _complete(hand: Seven) -> Setting:
    """The "Straight, Flush, Straight Flush" lines. JUDGEMENT: "play the complete hand" keeps
    the straight, flush or straight flush that leaves the highest low hand (rules README,
    "Setting and comparing hands")."""
    trips, pairs = hand.trips, hand.pairs
    if trips:
        # Chart, "Straight, Flush, Straight Flush" with three of a kind: the complete hand stays in
        # back, and a pair goes in front when one can without breaking it; else the highest
        # two cards.
        setting = best_complete(
            hand, "straight/flush with three of a kind: complete hand behind, pair in front"
        )
    elif len(pairs) == 2:
        # Chart, "Straight, Flush, Straight Flush" with two pairs: set it as plain two pair
        # (the straight or flush is ignored).
        return _two_pair(hand, prefix="straight/flush with two pairs: two pairs strategy; ")
    elif pairs:
        setting = best_complete(hand, "straight/flush with one pair: play the complete hand")
    else:
        setting = best_complete(hand, "straight/flush with no pair: play the complete hand")
    assert setting is not None
    return setting
