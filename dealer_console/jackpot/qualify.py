"""Which jackpot line a player's seven cards win.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 2: the jackpot looks at
the best hand among all the player's cards, however they were set. A hand pays the highest line
of the table's paytable that it *holds*: a natural seven-card straight flush 8-A holds a royal
flush, so a paytable without a seven-card line pays it as a royal flush; five aces hold four of a
kind. ``dealer_console.seven.holds`` answers that per Fortune class; settlement's jackpot line
(``dealer_console.settlement.bonuses.jackpot_line``) follows the same rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer_console.cards import Card
from dealer_console.jackpot.paytable import JackpotLine, JackpotPaytable
from dealer_console.seven import held_classes, holds

__all__ = ["holds", "winning_line"]


def winning_line(paytable: JackpotPaytable, cards: Sequence[Card]) -> JackpotLine | None:
    """The highest line of ``paytable`` the seven cards hold, or None."""
    held = set(held_classes(cards))
    for line in paytable.lines:
        if held.intersection(line.hands):
            return line
    return None
