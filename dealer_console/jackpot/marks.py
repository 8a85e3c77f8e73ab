"""The hands marked for a jackpot pay in one round, and the order they are paid in.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 d: the dealer selects
the winner's seat and then the line's hand button, and a second press of that button undoes
the first. The console also marks, on its own, every hand it can see qualifies (item 2: the
best hand among the player's seven cards). A seat holds at most one mark per game (a hand wins
its highest line only). A mark is made only on a line the seat's cards win
(``qualify.why_not``), and the second press undoes only the dealer's own press: a mark the
console read from the cards stays until a supervisor's card confirms it (items 9 e-f), or the
jackpot link refuses to pay it (its refusal recorded, ``linked.was_refused``). Were the
dealer able to take it back alone, a qualifying hand could go unpaid with no record, or be
left out while a lower hit took the meter first and be marked again after (item 9 c's order,
and with it the amount and the confirmer's level, undone).

Item 9 c: when one round holds several meter pays, the first paid is the seat at the dealer's
far right, and the rest follow counter-clockwise. Seats are numbered 1-7 from the dealer's
left (first base) to the dealer's right (third base), as the bet sensors are, so that order is
the seats from the highest number down.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from dealer_console.cards import Card
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.jackpot.qualify import why_not, winning_line
from dealer_console.jackpot_values.paytable import JackpotLine, JackpotPaytable


def mark_refusal(why: str) -> Refusal:
    """A hand button or confirmation the round's marks cannot take (no seat selected, a seat
    without a jackpot wager...): the one refusal, coded ``jackpot_mark``."""
    return Refusal(why, RefusalCode.JACKPOT_MARK)


class MarkSource(Enum):
    DETECTED = "detected"
    DEALER = "dealer"


def payment_order(seats: Iterable[int]) -> list[int]:
    """Seats in the order meter hits are paid: farthest to the dealer's right first."""
    return sorted(set(seats), reverse=True)


@dataclass(frozen=True, slots=True)
class Mark:
    seat: int
    line: JackpotLine
    source: MarkSource
    detected: JackpotLine | None
    """What the console read from the cards, if it saw them (None: no qualifying hand seen)."""

    @property
    def agrees(self) -> bool | None:
        """Whether the dealer's mark matches the cards; None when the cards were not seen."""
        return None if self.source is MarkSource.DETECTED else self.line == self.detected


@dataclass
class GameMarks:
    """One jackpot game's marks for one round."""

    paytable: JackpotPaytable
    wagered: frozenset[int]
    marks: dict[int, Mark] = field(default_factory=dict)
    cards: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    """Each wagered seat's seven cards, once known; the line they win is derived
    (:meth:`won`), never kept beside them."""
    selected: int | None = None

    def detect(self, hands: Mapping[int, Sequence[Card]]) -> list[Mark]:
        """Mark every wagered seat whose seven cards win a line; a dealer's mark is kept."""
        new = []
        for seat, cards in hands.items():
            if seat not in self.wagered:
                continue
            self.cards[seat] = tuple(cards)
            line = self.won(seat)
            if seat in self.marks and self.marks[seat].source is MarkSource.DEALER:
                continue
            if line is None:
                self.marks.pop(seat, None)
                continue
            mark = Mark(seat, line, MarkSource.DETECTED, line)
            self.marks[seat] = mark
            new.append(mark)
        return new

    def won(self, seat: int) -> JackpotLine | None:
        """The line seat ``seat``'s known cards win, or None (no win, or no cards yet)."""
        cards = self.cards.get(seat)
        return None if cards is None else winning_line(self.paytable, cards)

    def select_seat(self, seat: int) -> None:
        if seat not in self.wagered:
            raise mark_refusal(f"seat {seat} placed no jackpot wager this round")
        self.selected = seat

    def press_hand(self, number: int, *, undo_detected: bool = False) -> Mark | None:
        """The hand button ``number`` (1 = top line) for the selected seat: set, or clear the
        dealer's own mark; ``undo_detected``: the console's mark may be cleared too (the
        jackpot link refused to pay it, and the table recorded why)."""
        if self.selected is None:
            raise mark_refusal("select the winning player's seat before pressing a hand button")
        line = self.paytable.line(number)
        seat = self.selected
        current = self.marks.get(seat)
        if current is not None and current.line == line:
            if current.source is MarkSource.DETECTED and not undo_detected:
                raise mark_refusal(
                    f"seat {seat}'s cards win {line.label}: the console marked it from the "
                    "cards, so it stays marked; call a supervisor to confirm it")
            del self.marks[seat]
            return None
        refused = why_not(self.paytable, self.cards.get(seat), line, seat)
        if refused is not None:
            raise mark_refusal(f"cannot mark {line.label}: {refused}")
        mark = Mark(seat, line, MarkSource.DEALER, self.won(seat))
        self.marks[seat] = mark
        return mark

    def in_payment_order(self) -> list[Mark]:
        return [self.marks[s] for s in payment_order(self.marks)]
