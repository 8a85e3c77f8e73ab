"""What each bonus wager is due, before any limit: Fortune, Ace-High, Envy and jackpot.

Rules README, "Fortune bonus and Envy" and "Face Up: the dealer's ace-high pai gow"; the
jackpot lines of Washington's paytables ("Face Up Pai Gow Poker Jackpot Paytables").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_console.cards import Card
from dealer_console.paytables import AceHighLine, PayLine, Paytable
from dealer_console.settlement.model import LineOutcome
from dealer_console.seven import AceHigh, ace_high_status, fortune_class, held_classes


@dataclass(frozen=True, slots=True)
class Due:
    outcome: LineOutcome
    amount: int  # payout on a win, the wager on a loss, 0 on a push
    reason: str


def fortune_due(table: Paytable, cards: Sequence[Card], wager: int) -> Due:
    """Fortune looks at the best hand in all seven cards, however they were set."""
    cls = fortune_class(cards)
    line = table.line(cls.value) if cls is not None else None
    if line is None:
        name = cls.value if cls is not None else "no qualifying hand"
        return Due(LineOutcome.LOSS, wager, f"{name}: not on {table.name}")
    if line.push:
        return Due(LineOutcome.PUSH, 0, f"{line.id}: push on {table.name}")
    assert line.odds is not None
    return Due(LineOutcome.WIN, wager * line.odds, f"{line.id} pays {line.odds} to 1")


def ace_high_due(table: Paytable, player: Sequence[Card], banker_status: AceHigh | None,
                 wager: int) -> Due:
    """Player and banker both ace-high pai gow pays the top line, joker or not; otherwise the
    banker's status alone picks the line."""
    if banker_status is None:
        return Due(LineOutcome.LOSS, wager, "the banker's hand is not ace-high pai gow")
    if ace_high_status(player) is not None:
        line_id = AceHighLine.BOTH
    elif banker_status is AceHigh.JOKER:
        line_id = AceHighLine.BANKER_JOKER
    else:
        line_id = AceHighLine.BANKER_NATURAL
    line = table.line(line_id.value)
    assert line is not None and line.odds is not None
    return Due(LineOutcome.WIN, wager * line.odds, f"{line_id.value} pays {line.odds} to 1")


def envy_line(table: Paytable, cards: Sequence[Card]) -> PayLine | None:
    """The envy line a hand triggers for the other envy holders (four of a kind or better)."""
    cls = fortune_class(cards)
    if cls is None or not cls.is_envy_hand:
        return None
    line = table.line(cls.value)
    if line is None or line.envy_cents is None:
        return None
    return line


def jackpot_line(table: Paytable, cards: Sequence[Card]) -> PayLine | None:
    """The jackpot line seven cards hit: the highest listed class they hold (a table without a
    seven-card line pays a seven-card straight flush as the royal or straight flush in it)."""
    for cls in held_classes(cards):
        line = table.line(cls.value)
        if line is not None:
            return line
    return None
