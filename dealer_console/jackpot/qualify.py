"""Which jackpot line a player's seven cards win.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 2: the jackpot looks at
the best hand among all the player's cards, however they were set. A hand pays the highest line
of the table's paytable that it *holds*: a natural seven-card straight flush 8-A holds a royal
flush, so a paytable without a seven-card line pays it as a royal flush; five aces hold four of a
kind. :func:`holds` answers that per Fortune class, with the joker as an ace or as any card
completing a straight, flush or straight flush (rules README, "Cards").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dealer_console.cards import ACE, KING, QUEEN, SUITS, Card, check_cards
from dealer_console.hands import STRAIGHT_WINDOWS
from dealer_console.jackpot.paytable import JackpotLine, JackpotPaytable
from dealer_console.seven import FortuneClass

_SEVEN_WINDOWS = tuple(
    [frozenset(range(high - 6, high + 1)) for high in range(ACE, 7, -1)]
    + [frozenset({ACE, 2, 3, 4, 5, 6, 7})]
)
_ROYAL = frozenset({ACE, KING, QUEEN, 11, 10})


def _run(ranks: set[int], gaps: int, windows: Sequence[frozenset[int]]) -> bool:
    return any(len(w - ranks) <= gaps for w in windows)


class _Seven:
    """The counts every predicate needs, computed once."""

    def __init__(self, cards: Sequence[Card]) -> None:
        check_cards(cards, 7)
        self.cards = tuple(cards)
        self.jokers = sum(1 for c in cards if c.is_joker)
        self.by_suit: dict[str, set[int]] = {s: set() for s in SUITS}
        for c in cards:
            if not c.is_joker:
                self.by_suit[c.suit].add(c.rank)
        natural = Counter(c.rank for c in cards if not c.is_joker)
        self.ranks = set(natural)
        as_ace = natural.copy()
        if self.jokers:
            as_ace[ACE] += 1  # outside straights and flushes the joker is an ace
        self.shape = [*sorted(as_ace.values(), reverse=True), 0, 0, 0]

    def royal_match(self) -> bool:
        for suit in SUITS:
            royal = [c for c in self.cards if c.suit == suit and c.rank in _ROYAL]
            missing = 5 - len(royal)
            if missing > self.jokers:
                continue
            rest = [c for c in self.cards if c not in royal and not (missing and c.is_joker)]
            if (
                len(rest) == 2
                and not any(c.is_joker for c in rest)
                and rest[0].suit == rest[1].suit
                and {rest[0].rank, rest[1].rank} == {KING, QUEEN}
            ):
                return True
        return False


def _holds(s: _Seven, cls: FortuneClass) -> bool:
    suits = s.by_suit.values()
    match cls:
        case FortuneClass.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH:
            return not s.jokers and any(
                len(r) == 7 and _run(r, 0, _SEVEN_WINDOWS) for r in suits
            )
        case FortuneClass.ROYAL_FLUSH_ROYAL_MATCH:
            return s.royal_match()
        case FortuneClass.WILD_SEVEN_CARD_STRAIGHT_FLUSH:
            return bool(s.jokers) and any(
                len(r) == 6 and _run(r, 1, _SEVEN_WINDOWS) for r in suits
            )
        case FortuneClass.FIVE_ACES:
            return s.jokers == 1 and s.shape[0] == 5
        case FortuneClass.ROYAL_FLUSH:
            return any(len(_ROYAL - r) <= s.jokers for r in suits)
        case FortuneClass.STRAIGHT_FLUSH:
            return any(_run(r, s.jokers, STRAIGHT_WINDOWS) for r in suits)
        case FortuneClass.FOUR_OF_A_KIND:
            return s.shape[0] >= 4
        case FortuneClass.FULL_HOUSE:
            return s.shape[0] >= 3 and s.shape[1] >= 2
        case FortuneClass.FLUSH:
            return any(len(r) + s.jokers >= 5 for r in suits)
        case FortuneClass.THREE_OF_A_KIND:
            return s.shape[0] >= 3
        case FortuneClass.STRAIGHT:
            return _run(s.ranks, s.jokers, STRAIGHT_WINDOWS)
        case FortuneClass.THREE_PAIR:
            return s.shape[:3] == [2, 2, 2]
    raise AssertionError(cls)  # pragma: no cover - the match is exhaustive


def holds(cards: Sequence[Card], cls: FortuneClass) -> bool:
    """Whether seven cards can be read as a hand of class ``cls`` (not only as their best)."""
    return _holds(_Seven(cards), cls)


def winning_line(paytable: JackpotPaytable, cards: Sequence[Card]) -> JackpotLine | None:
    """The highest line of ``paytable`` the seven cards hold, or None."""
    s = _Seven(cards)
    for line in paytable.lines:
        if any(_holds(s, cls) for cls in line.hands):
            return line
    return None
