"""Brute-force references: visit every hand of a small deck and ask the engine."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from dealer_console.math.deck import HAND_SIZE, CountDeck
from dealer_console.seven import AceHigh, FortuneClass, ace_high_status, fortune_class


def fortune_by_engine(deck: CountDeck) -> Counter[FortuneClass | None]:
    return Counter(fortune_class(hand) for hand in combinations(deck.cards(), HAND_SIZE))


def ace_high_by_engine(deck: CountDeck) -> tuple[int, int, int, int]:
    """(natural, joker, both with banker natural, both with banker joker) by visiting hands."""
    cards = deck.cards()
    bit = {card: 1 << i for i, card in enumerate(cards)}
    found: dict[AceHigh, list[int]] = {AceHigh.NATURAL: [], AceHigh.JOKER: []}
    for hand in combinations(cards, HAND_SIZE):
        status = ace_high_status(hand)
        if status is not None:
            found[status].append(sum(bit[c] for c in hand))
    everyone = found[AceHigh.NATURAL] + found[AceHigh.JOKER]

    def disjoint_pairs(bankers: list[int]) -> int:
        return sum(1 for b in bankers for p in everyone if not b & p)

    return (
        len(found[AceHigh.NATURAL]),
        len(found[AceHigh.JOKER]),
        disjoint_pairs(found[AceHigh.NATURAL]),
        disjoint_pairs(found[AceHigh.JOKER]),
    )
