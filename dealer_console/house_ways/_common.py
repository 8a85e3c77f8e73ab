"""Mechanics the House Way charts share: reading what seven cards hold and building settings.

Every chart reasons about the same things (pairs, trips and quads with the joker counted as an
ace, the singles left over, whether a straight or flush can be kept behind) and then puts chosen
cards in front. This module does that once, so each chart module is only its decision procedure.

Where a chart names the cards for the front but not which of equal cards (which two of three
kings, the joker or a natural ace), :func:`choose_front` keeps the candidate whose high hand is
best, so a joker stays behind when it completes something there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

from dealer_console.cards import ACE, KING, QUEEN, Card, check_cards, sort_desc
from dealer_console.hands import (
    STRAIGHT_WINDOWS,
    FiveClass,
    HandRules,
    HandValue,
    five_card_value,
    two_card_value,
)
from dealer_console.setting import Setting, make_setting

COMPLETE_CLASSES = frozenset({FiveClass.STRAIGHT, FiveClass.FLUSH, FiveClass.STRAIGHT_FLUSH})
"""What the charts call a complete hand: a straight, a flush or a straight flush."""

RANK_NAMES = {ACE: "A", KING: "K", QUEEN: "Q", 11: "J", 10: "T"}


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def play_rank(card: Card) -> int:
    """The rank a card counts as when grouping pairs: the joker pairs with the aces
    (rules README, "Cards": outside a straight or flush the joker is an ace)."""
    return ACE if card.is_joker else card.rank


@dataclass(frozen=True, slots=True)
class Split:
    """One way to set seven cards, with both hand values."""

    low: tuple[Card, ...]
    high: tuple[Card, ...]
    low_value: HandValue
    high_value: HandValue

    @property
    def key(self) -> tuple[HandValue, HandValue]:
        """Best low first, then best high: the order the README asks for where a chart is
        silent ("the highest low hand that keeps the chart's intent")."""
        return self.low_value, self.high_value

    @property
    def is_complete(self) -> bool:
        return FiveClass(self.high_value[0]) in COMPLETE_CLASSES

    @property
    def is_foul(self) -> bool:
        return not self.high_value > self.low_value

    def setting(self, rule: str) -> Setting:
        return make_setting(sort_desc(self.low), sort_desc(self.high), rule)


@dataclass(frozen=True)
class Seven:
    """Seven cards read the way the charts read them."""

    cards: tuple[Card, ...]
    rules: HandRules
    groups: dict[int, tuple[Card, ...]] = field(init=False)

    def __post_init__(self) -> None:
        check_cards(self.cards, 7)
        ordered = tuple(sort_desc(self.cards))
        object.__setattr__(self, "cards", ordered)
        groups: dict[int, list[Card]] = {}
        for card in ordered:
            groups.setdefault(play_rank(card), []).append(card)
        object.__setattr__(self, "groups", {r: tuple(cs) for r, cs in groups.items()})

    @classmethod
    def of(cls, cards: Sequence[Card], rules: HandRules) -> Seven:
        return cls(tuple(cards), rules)

    def ranks_of_size(self, size: int) -> list[int]:
        """Ranks held exactly ``size`` times, highest first."""
        return sorted((r for r, cs in self.groups.items() if len(cs) == size), reverse=True)

    @property
    def five_aces(self) -> bool:
        return len(self.groups.get(ACE, ())) == 5

    @property
    def quads(self) -> list[int]:
        return self.ranks_of_size(4)

    @property
    def trips(self) -> list[int]:
        return self.ranks_of_size(3)

    @property
    def pairs(self) -> list[int]:
        return self.ranks_of_size(2)

    @property
    def singles(self) -> list[Card]:
        """Cards whose rank appears once, highest first (a lone joker is an ace)."""
        return [c for c in self.cards if len(self.groups[play_rank(c)]) == 1]

    def single_ranks(self) -> list[int]:
        return [play_rank(c) for c in self.singles]

    def of_rank(self, rank: int) -> tuple[Card, ...]:
        return self.groups[rank]

    # -- straights and flushes ---------------------------------------------------------------

    @cached_property
    def _may_be_complete(self) -> bool:
        """A cheap test that rules out most hands before looking at all 21 splits."""
        jokers = sum(1 for c in self.cards if c.is_joker)
        suits: dict[str, int] = {}
        for c in self.cards:
            if not c.is_joker:
                suits[c.suit] = suits.get(c.suit, 0) + 1
        if max(suits.values(), default=0) + jokers >= 5:
            return True
        ranks = {c.rank for c in self.cards if not c.is_joker}
        return any(len(w - ranks) <= jokers for w in STRAIGHT_WINDOWS)

    @cached_property
    def splits(self) -> tuple[Split, ...]:
        """All 21 ways to set the hand, in a fixed order (so ties resolve the same way)."""
        out = []
        for low in combinations(self.cards, 2):
            high = tuple(c for c in self.cards if c not in low)
            out.append(Split(low, high, two_card_value(low), five_card_value(high, self.rules)))
        return tuple(out)

    @cached_property
    def complete_splits(self) -> tuple[Split, ...]:
        """The splits that keep a straight, flush or straight flush behind."""
        if not self._may_be_complete:
            return ()
        return tuple(s for s in self.splits if s.is_complete)

    @property
    def has_complete(self) -> bool:
        return bool(self.complete_splits)

    @cached_property
    def complete_kinds(self) -> frozenset[FiveClass]:
        """Which complete hands can be played behind (straight, flush, straight flush)."""
        return frozenset(FiveClass(s.high_value[0]) for s in self.complete_splits)

    # -- building settings -------------------------------------------------------------------

    def split_with_front(self, front: Sequence[Card]) -> Split:
        low = tuple(front)
        high = tuple(c for c in self.cards if c not in low)
        return Split(low, high, two_card_value(low), five_card_value(high, self.rules))


def best(splits: Iterable[Split]) -> Split | None:
    """The split with the best low hand, then the best high hand; the first of equals."""
    chosen: Split | None = None
    for split in splits:
        if chosen is None or split.key > chosen.key:
            chosen = split
    return chosen


def choose_front(hand: Seven, fronts: Iterable[Sequence[Card]], rule: str) -> Setting:
    """Set the hand with one of ``fronts`` (equally good by the chart) in front, keeping the
    one that leaves the best high hand (and never a foul one if another is possible)."""
    candidates = [hand.split_with_front(front) for front in fronts]
    if not candidates:
        raise ValueError(f"no front hand to choose for {rule!r}")
    fair = [s for s in candidates if not s.is_foul] or candidates
    chosen = best(fair)
    assert chosen is not None
    return chosen.setting(rule)


def pair_fronts(hand: Seven, rank: int) -> list[tuple[Card, ...]]:
    """Every way to put a pair of ``rank`` in front (from a pair, trips, quads or five aces)."""
    return list(combinations(hand.of_rank(rank), 2))


def top_singles_front(hand: Seven) -> list[tuple[Card, ...]]:
    """The two highest single cards."""
    singles = hand.singles
    return [(singles[0], singles[1])]


def ace_and_top_single_fronts(hand: Seven) -> list[tuple[Card, ...]]:
    """One of the aces (the joker counts) and the highest single card."""
    return [(ace, hand.singles[0]) for ace in hand.of_rank(ACE)]


def best_complete(hand: Seven, rule: str, *, pair_in_front: bool = False) -> Setting | None:
    """The highest low hand that leaves a straight, flush or straight flush behind (the
    charts' "complete hand"); ``pair_in_front`` accepts only a pair in front."""
    splits = hand.complete_splits
    if pair_in_front:
        splits = tuple(s for s in splits if s.low_value[0] == FiveClass.PAIR)
    chosen = best(splits)
    return None if chosen is None else chosen.setting(rule)


def highest_permissible_pair(hand: Seven, rule: str) -> Setting:
    """The highest pair (two cards of trips or quads count) that can go in front without the
    hand being foul."""
    ranks = sorted((r for r, cs in hand.groups.items() if len(cs) >= 2), reverse=True)
    for rank in ranks:
        splits = [hand.split_with_front(f) for f in pair_fronts(hand, rank)]
        fair = [s for s in splits if not s.is_foul]
        if fair:
            chosen = best(fair)
            assert chosen is not None
            return chosen.setting(rule)
    raise ValueError(f"no pair can go in front for {rule!r}")


Band = tuple[range, str, int | None, str]
"""A band of a "keep together or split" chart line: the ranks it covers, its name in the rule
text, the lowest single that must go in front to keep the cards together (``None``: always
split; ``0``: never split) and that card's name."""


def keep_or_split(
    hand: Seven,
    rank: int,
    bands: Sequence[Band],
    line: str,
    *,
    split_fronts: Sequence[Sequence[Card]],
    keep_text: str,
    split_text: str,
) -> Setting:
    """Two pair and four of a kind in the California and Oxford Downs charts: the band of
    ``rank`` says which card the front must hold to keep everything behind; keeping puts the
    two highest singles in front, splitting puts ``split_fronts`` there."""
    for ranks, band, needed, needed_name in bands:
        if rank not in ranks:
            continue
        line = f"{line} {band}"
        if needed is None:
            return choose_front(hand, split_fronts, f"{line}: {split_text}")
        if needed == 0:
            return choose_front(hand, top_singles_front(hand), f"{line}: {keep_text}")
        if hand.single_ranks()[0] >= needed:
            return choose_front(
                hand, top_singles_front(hand), f"{line}, {needed_name} in front: {keep_text}"
            )
        return choose_front(hand, split_fronts, f"{line}, no {needed_name}: {split_text}")
    raise AssertionError(f"rank {rank} is outside every band of {line!r}")
