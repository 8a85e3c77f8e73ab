"""Which jackpot line a player's seven cards win, and the one check every award passes.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 2: the jackpot looks at
the best hand among all the player's cards, however they were set. A hand pays the highest line
of the table's paytable that it *holds*: a natural seven-card straight flush 8-A holds a royal
flush, so a paytable without a seven-card line pays it as a royal flush; five aces hold four of a
kind. ``dealer_console.seven.holds`` answers that per Fortune class; settlement's jackpot line
(``dealer_console.settlement.bonuses.jackpot_line``) follows the same rule.

:func:`why_not` is the only place that decides whether a line may be paid on a seat's cards
(issue 23: three aces were marked and paid as a full house). The dealer's mark, the
supervisor's confirmation and the audit's rebuild all ask it; a line is paid only when it is
exactly the line the cards win (a lower line the hand also holds is not its award either).
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer_console.cards import Card, format_cards
from dealer_console.jackpot_values.paytable import JackpotLine, JackpotPaytable
from dealer_console.seven import fortune_class, held_classes, holds

__all__ = ["holds", "why_not", "winning_line"]


def winning_line(paytable: JackpotPaytable, cards: Sequence[Card]) -> JackpotLine | None:
    """The highest line of ``paytable`` the seven cards hold, or None."""
    held = set(held_classes(cards))
    for line in paytable.lines:
        if held.intersection(line.hands):
            return line
    return None


def why_not(paytable: JackpotPaytable, cards: Sequence[Card] | None, line: JackpotLine,
            seat: int) -> str | None:
    """None when ``line`` is the award seat ``seat``'s seven cards win on ``paytable``;
    otherwise why not, in the words a dealer and a supervisor read: the cards, what they
    make, and the line they do win (or that they win none)."""
    if cards is None or len(cards) != 7:
        return (f"seat {seat}'s seven cards are not known yet: a jackpot hand is marked and "
                "paid only once the console has read them")
    wins = winning_line(paytable, cards)
    if wins == line:
        return None
    best = fortune_class(cards)
    made = "no jackpot hand" if best is None else best.value.replace("_", " ")
    said = (f"seat {seat}'s cards {format_cards(cards)} make {made}, not "
            f"{line.label.lower()}")
    if wins is None:
        return f"{said}: they win no line of this jackpot"
    return (f"{said}: they win {wins.label} (hand button {paytable.number_of(wins)}); "
            "press that one")
