"""Cards of the 53-card pai gow deck and their text notation.

Notation (rules README, "Cards"): rank ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``,
then suit ``c d h s``, any case; the joker is ``JK`` or ``Joker``. Printing is canonical
(``As``, ``Td``, ``JK``) so that what the console writes, it can read back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from dealer_console.errors import ConsoleError

SUITS: Final = "cdhs"
RANK_CHARS: Final = "23456789TJQKA"
ACE: Final = 14
KING: Final = 13
QUEEN: Final = 12
JACK: Final = 11
TEN: Final = 10
JOKER_RANK: Final = 0


class CardError(ConsoleError, ValueError):
    """A card text that cannot be read, a duplicate card, or a wrong number of cards."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. ``rank`` is 2..14 (ace high) and ``suit`` one of ``cdhs``; the joker is rank 0."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def index(self) -> int:
        """0..51 for the natural cards (rank-major), 52 for the joker: a stable wire/DB id."""
        if self.is_joker:
            return 52
        return (self.rank - 2) * 4 + SUITS.index(self.suit)

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        return RANK_CHARS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"


JOKER: Final = Card(JOKER_RANK, "")
DECK: Final[tuple[Card, ...]] = (
    *(Card(rank, suit) for rank in range(2, ACE + 1) for suit in SUITS),
    JOKER,
)

_CARD_RE: Final = re.compile(r"^(10|[2-9TJQKA])([CDHS])$")


def card_from_index(index: int) -> Card:
    """Inverse of :attr:`Card.index`."""
    if not 0 <= index <= 52:
        raise CardError(f"card index {index} is outside 0..52")
    return DECK[index]


def parse_card(text: str) -> Card:
    """Read one card; the error names the offending text."""
    token = text.strip()
    upper = token.upper()
    if upper in ("JK", "JOKER"):
        return JOKER
    match = _CARD_RE.match(upper)
    if match is None:
        raise CardError(
            f"{text!r} is not a card: expected a rank 2-9, T/10, J, Q, K, A and a suit c, d, h, s "
            "(for example As, Td, 10d), or JK for the joker"
        )
    rank_text, suit = match.groups()
    rank = 10 if rank_text == "10" else RANK_CHARS.index(rank_text) + 2
    return Card(rank, suit.lower())


def parse_cards(text: str | Iterable[str], count: int | None = None) -> tuple[Card, ...]:
    """Read several cards (a space/comma separated string or a list of tokens).

    Duplicates and, when ``count`` is given, a wrong number of cards are errors, because a
    hand with a repeated card or a missing card can only come from a misread or a misdeal.
    """
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    tokens = [t for t in tokens if t.strip()]
    cards = tuple(parse_card(t) for t in tokens)
    check_cards(cards, count, tokens)
    return cards


def check_cards(
    cards: Sequence[Card], count: int | None = None, tokens: Sequence[str] | None = None
) -> None:
    """Refuse duplicates and a wrong count, naming the offending card."""
    seen: dict[Card, int] = {}
    for position, card in enumerate(cards):
        if card in seen:
            shown = tokens[position] if tokens is not None else str(card)
            raise CardError(f"duplicate card {shown!r} (also card {seen[card] + 1} of the hand)")
        seen[card] = position
    if count is not None and len(cards) != count:
        listed = " ".join(str(c) for c in cards) or "nothing"
        raise CardError(f"expected {count} cards, got {len(cards)}: {listed}")


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def sort_desc(cards: Iterable[Card]) -> list[Card]:
    """Highest first, the joker ahead of the aces (it plays as an ace by default)."""
    return sorted(cards, key=lambda c: (ACE + 1 if c.is_joker else c.rank, c.suit), reverse=True)
