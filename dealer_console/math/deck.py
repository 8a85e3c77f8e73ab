"""The deck a count runs over: which ranks, how many suits of each, and whether the joker is in.

The counters work for any such deck, not only the full 53 cards, so that the test suite can check
them hand by hand against the engine (``dealer_console.seven``) on a deck small enough to
brute-force. Ranks keep their real values (2..14): a straight window that needs a rank the deck
lacks can still be completed by the joker, exactly as the engine would see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from dealer_console.cards import ACE, JOKER, SUITS, Card

HAND_SIZE = 7


@dataclass(frozen=True, slots=True)
class CountDeck:
    """``ranks`` x the first ``suits`` suits, plus the joker when ``joker`` is true."""

    ranks: tuple[int, ...] = tuple(range(2, ACE + 1))
    suits: int = 4
    joker: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.suits <= len(SUITS):
            raise ValueError(f"a deck has 1 to 4 suits, not {self.suits}")
        if len(set(self.ranks)) != len(self.ranks) or any(not 2 <= r <= ACE for r in self.ranks):
            raise ValueError(f"ranks must be distinct values 2..14: {self.ranks}")

    @property
    def size(self) -> int:
        return len(self.ranks) * self.suits + (1 if self.joker else 0)

    @property
    def hands(self) -> int:
        """Number of seven-card hands: the denominator of every probability."""
        return comb(self.size, HAND_SIZE)

    @property
    def rank_mask(self) -> int:
        return sum(1 << r for r in self.ranks)

    def cards(self) -> tuple[Card, ...]:
        """The cards themselves, for brute-force checks."""
        naturals = tuple(Card(r, s) for r in sorted(self.ranks) for s in SUITS[: self.suits])
        return (*naturals, JOKER) if self.joker else naturals


FULL_DECK = CountDeck()


def mask_of(ranks: frozenset[int] | set[int] | tuple[int, ...]) -> int:
    """Bit ``r`` set for each rank ``r``."""
    return sum(1 << r for r in ranks)
