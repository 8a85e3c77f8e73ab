"""The Catfish Bend House Way: the "HAND CONTAINS / ARRANGE HAND AS" table under CARD PLACEMENT
in ``../shared/rules/catfish-bend-fortune-pai-gow.txt``.

Each branch below is one line of that table, and ``Setting.rule`` names it. Pairs are graded
High (jacks to aces), Medium (7s to 10s) and Low (2s to 6s) as the table's "Two pair" line
does; four of a kind is two pairs of one rank ("refer to the two pair rule"). Judgement calls
are marked JUDGEMENT and listed in ``docs/house-ways.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dealer_console.cards import ACE, JACK, KING, Card
from dealer_console.hands import DEFAULT_RULES, HandRules
from dealer_console.house_ways._common import (
    Seven,
    ace_and_top_single_fronts,
    best,
    best_complete,
    choose_front,
    highest_permissible_pair,
    pair_fronts,
    top_singles_front,
)
from dealer_console.setting import Setting


def _grade(rank: int) -> str:
    """The table's pair grades: H = jacks through aces, M = 7s through 10s, L = 2s to 6s."""
    if rank >= JACK:
        return "H"
    return "M" if rank >= 7 else "L"


def _two_pair_rule(hand: Seven, high: int, small: int, line: str) -> Setting:
    """The "Two pair" lines: H-H and H-M split; H-L, M-M and M-L split unless the two pair can
    stay in High with an ace in Low; L-L stays together. Splitting puts the smaller pair in Low
    (JUDGEMENT: the chart says only "split"; the smaller pair in Low is the usual split and the
    only one that is never foul). Keeping together puts the two highest singles in Low."""
    grades = f"{_grade(high)}-{_grade(small)}"
    line = f"{line} {grades}"
    split = pair_fronts(hand, small)
    if grades in ("H-H", "H-M"):
        return choose_front(hand, split, f"{line}: split")
    if grades == "L-L":
        return choose_front(hand, top_singles_front(hand), f"{line}: keep together")
    if hand.single_ranks()[0] == ACE:
        return choose_front(
            hand, top_singles_front(hand), f"{line}, ace for the Low hand: keep together"
        )
    return choose_front(hand, split, f"{line}, no ace for the Low hand: split")


def set_hand(cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> Setting:
    """Set seven cards the Catfish Bend House Way."""
    hand = Seven.of(cards, rules)
    quads, trips, pairs = hand.quads, hand.trips, hand.pairs

    if hand.five_aces:
        if pairs == [KING]:
            return choose_front(
                hand, pair_fronts(hand, KING), "five aces, odd cards kings: kings in Low"
            )
        return choose_front(hand, pair_fronts(hand, ACE), "five aces: split the aces")
    if quads and trips:
        if quads[0] == ACE and trips[0] == KING:
            return choose_front(
                hand,
                pair_fronts(hand, KING),
                "four of a kind, three of a kind: aces and kings, kings in Low",
            )
        return choose_front(
            hand,
            pair_fronts(hand, max(quads[0], trips[0])),
            "four of a kind, three of a kind: highest pair in Low",
        )
    if quads and pairs:
        # "Refer to the three pair rule": the four of a kind counts as two pairs.
        return choose_front(
            hand,
            pair_fronts(hand, max(quads[0], pairs[0])),
            "four of a kind, one pair: three pair rule, highest pair in Low",
        )
    if quads:
        return _two_pair_rule(hand, quads[0], quads[0], "four of a kind: two pair rule")
    if len(trips) == 2:
        # JUDGEMENT: the table has no line for two sets of three of a kind; as a full house
        # (three of a kind in High, a pair in Low) the highest Low is a pair out of the higher
        # set, the lower set staying in High.
        return choose_front(
            hand,
            pair_fronts(hand, trips[0]),
            "two three of a kinds (full house): highest pair in Low",
        )
    if trips and len(pairs) == 2:
        return highest_permissible_pair(hand, "full house with a pair: highest pair in Low")
    if trips and pairs:
        return choose_front(
            hand, pair_fronts(hand, pairs[0]), "full house: three of a kind in High, pair in Low"
        )
    if len(pairs) == 3:
        return choose_front(hand, pair_fronts(hand, pairs[0]), "three pairs: highest pair in Low")
    if hand.has_complete:
        return _complete(hand)
    if trips:
        return _three_of_a_kind(hand)
    if len(pairs) == 2:
        return _two_pair_rule(hand, pairs[0], pairs[1], "two pair")
    if pairs:
        return choose_front(
            hand, top_singles_front(hand), "one pair: pair in High, next two highest in Low"
        )
    singles = hand.singles
    return choose_front(
        hand, [(singles[1], singles[2])], "no pairs: highest in High, next two highest in Low"
    )


def _three_of_a_kind(hand: Seven) -> Setting:
    """ "Three of a Kind: Play in the High hand", three aces split 2 in High, 1 in Low."""
    if hand.trips[0] == ACE:
        return choose_front(
            hand, ace_and_top_single_fronts(hand), "three of a kind aces: 2 in High, 1 in Low"
        )
    return choose_front(
        hand, top_singles_front(hand), "three of a kind: in High, two highest singles in Low"
    )


def _complete_three_of_a_kind(hand: Seven) -> Setting:
    """Three of a kind beside a straight or flush: no line covers both, and each of "Three of
    a Kind" and "Straight or flush" could apply. JUDGEMENT: play the one giving the stronger
    Low hand (then the stronger High), as the table itself says for "Straight and flush" and
    for a joker that can either fill a straight or flush or pair an ace. Nearly always that
    is the straight or flush with a pair from the trips in Low; only three aces made with the
    joker, where the joker is needed to fill, can leave no pair, and then the three aces line
    may give the stronger Low (``As Ad JK Ks 9s 5s 2c``: ace-king in Low, not ace-deuce)."""
    line = "straight or flush with three of a kind"
    keep = best(hand.complete_splits)
    assert keep is not None
    as_trips = _three_of_a_kind(hand)
    if keep.key >= hand.split_with_front(as_trips.low).key:
        return keep.setting(f"{line}: straight or flush in High")
    return replace(
        as_trips, rule=f"{line}, the joker as the third ace gives the stronger Low: {as_trips.rule}"
    )


def _complete(hand: Seven) -> Setting:
    """The "Straight or flush ..." lines. JUDGEMENT: playing "the straight or flush in the High
    hand" keeps the one that leaves the highest Low hand, as "Straight and flush" says."""
    trips, pairs = hand.trips, hand.pairs
    if trips:
        return _complete_three_of_a_kind(hand)
    if len(pairs) == 2:
        return _complete_two_pair(hand)
    if len(hand.complete_kinds) > 1:
        setting = best_complete(hand, "straight and flush: the one giving the highest Low hand")
    elif pairs:
        setting = best_complete(hand, "straight or flush, one pair: straight or flush in High")
    else:
        setting = best_complete(hand, "straight or flush, no pairs: straight or flush in High")
    assert setting is not None
    return setting


def _complete_two_pair(hand: Seven) -> Setting:
    """ "Straight or flush with two pairs": keep the straight or flush when a pair can go to
    Low, else the two pair rule. When the joker is one of the pairs (with a natural ace) it
    could instead fill the straight or flush: then whichever way gives the strongest Low hand
    is played (JUDGEMENT: equal Low hands go to the stronger High hand)."""
    line = "straight or flush with two pairs"
    high, small = hand.pairs[0], hand.pairs[1]
    if ACE in hand.pairs and any(c.is_joker for c in hand.of_rank(ACE)):
        keep = best(hand.complete_splits)
        as_pairs = _two_pair_rule(hand, high, small, f"{line}, joker as the 2nd pair: two pair")
        assert keep is not None
        if keep.key >= hand.split_with_front(as_pairs.low).key:
            return keep.setting(f"{line}, joker completes it: straight or flush in High")
        return as_pairs
    keep_pair = best_complete(
        hand, f"{line}: straight or flush in High, pair in Low", pair_in_front=True
    )
    if keep_pair is not None:
        return keep_pair
    return _two_pair_rule(hand, high, small, f"{line}, no pair for Low: two pair")
