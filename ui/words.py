"""The words the dealer and the supervisor read: names of wagers, phases and misdeal reasons,
and a settlement line said as what to do with the chips. Presentation only: every amount comes
from the round's own lines."""

from __future__ import annotations

from dealer_console.money import format_cents
from dealer_console.round.rules import base_kind
from dealer_console.round.state import Line, Phase

KINDS = {
    "base": "Base", "fortune": "Fortune", "ace_high": "Ace-High", "jackpot": "Jackpot",
    "jackpot_2": "Jackpot 2", "tips": "Tips", "backline": "Backline",
    "house_wager": "House wager", "commission": "Commission", "collection_fee": "Fee",
    "rake": "Rake", "envy": "Envy",
}

PHASES = {
    Phase.BANKER: "Bank", Phase.BETTING: "Wagers", Phase.ACTION: "Action",
    Phase.DEALING: "Deal", Phase.DEAL_CHECK: "Deal check", Phase.MISDEAL: "Misdeal",
    Phase.BANKER_SET: "Banker's hand", Phase.PLAYERS_SET: "Players' hands",
    Phase.SETTLEMENT: "Settlement", Phase.END: "End of round", Phase.COMPLETE: "Complete",
    Phase.VOIDED: "Voided",
}

MISDEALS = {
    "not_four_left": ("not four cards left after the deal",
                      "gather every card and count the deck for 53"),
    "position_missed": ("a position was missed in the deal",
                        "gather the hands; the round is dealt again"),
    "cards_exposed": ("more than three cards were exposed",
                      "gather the hands; the round is dealt again"),
    "hand_not_seven": ("a hand was not seven cards",
                       "gather the hands; the round is dealt again"),
    "card_count_error": ("the shuffler reported a card-count error",
                         "gather every card and count the deck for 53"),
}


def kind_name(kind: str) -> str:
    if kind.startswith("backline:"):
        return f"Backline ({kind.split(':', 1)[1]})"
    if "_award_" in kind:
        game = "Jackpot 2" if kind.startswith("jackpot_2") else "Jackpot"
        return f"{game} hand {kind.rsplit('_', 1)[1]}"  # its hand button's number
    return KINDS.get(base_kind(kind), kind.replace("_", " ").capitalize())


def seat_name(seat: int, banker_seat: int, banker_kind: str) -> str:
    if seat == 0:
        return "Dealer" if banker_kind == "house" or banker_seat != 0 else "Banker"
    return f"Seat {seat}"


def line_words(line: Line) -> str:
    """One settled wager as the dealer handles the chips: pay, take, push or return; and what
    cut or added to it (the aggregate limit, the banker's coverage, commission), so a payout
    short of the odds is explained where it is paid."""
    words = _chips(line)
    said = line.outcome == "returned" or _tip_won(line)  # their words say it already
    return f"{words} ({line.limits})" if line.limits and not said else words


def _tip_won(line: Line) -> bool:
    return base_kind(line.kind) == "tips" and line.outcome == "win"


def _chips(line: Line) -> str:
    name = kind_name(line.kind)
    net = line.returned - line.staked
    if line.outcome == "charge":
        return f"{name}: collect {format_cents(line.staked - line.returned)}"
    if line.outcome == "returned":
        why = f" ({line.note})" if line.note else ""
        return f"{name}: return {format_cents(line.returned)}{why}"
    if _tip_won(line):
        # Oxford Downs, "Dealer Tip Bets": the spot is paid, then the tip and its win go to
        # the dealer's toke box (the settlement gives them to the dealer, not the player);
        # a part of the tip the designated player's bank could not match goes back to the
        # player. An outside review found a won tip worded as a lost one ("take $5.00").
        back = (f"; return {format_cents(line.returned)} (not matched)" if line.returned
                else "")
        return (f"{name} won: the banker pays {format_cents(-line.banker_delta)}; "
                f"{format_cents(line.staked - line.returned - line.banker_delta)} to the "
                f"toke box{back}")
    if net > 0:
        return f"{name}: pay {format_cents(net)}"
    if net < 0 and line.returned > 0:
        return f"{name}: take {format_cents(-net)}, return {format_cents(line.returned)}"
    if net < 0:
        return f"{name}: take {format_cents(line.staked)}"
    return f"{name}: push"
