"""What the meter display says, as plain strings from the display model: pure functions, so
the words are tested without a window."""

from __future__ import annotations

from dealer_console.controller.view import PendingHit
from dealer_console.jackpot.display import GameShown, LastHit, LineShown
from dealer_console.jackpot_values.paytable import MAIN_LEVEL
from dealer_console.money import format_cents


def level_name(level: str) -> str:
    """``main`` (a one-meter paytable) is "Jackpot"; named meters keep their name."""
    return "Jackpot" if level == MAIN_LEVEL else level.capitalize()


def game_title(game: GameShown, games: int) -> str:
    """A linked game says so, with the link's name: its meters are shared with other tables."""
    wager = f"{format_cents(game.wager_cents)} wager"
    if game.linked is not None:
        wager += f", linked: {game.linked}"
    return f"Game {game.spot}: {wager}" if games > 1 else f"Jackpot, {wager}"


def pay_text(line: LineShown) -> str:
    """A fixed pay in dollars (scaled to the fixed wager); a share of a meter as its percent
    (shares are of the meter, never scaled: ``docs/jackpot.md``, "Judgement calls")."""
    if line.fixed_cents is not None:
        return format_cents(line.fixed_cents)
    percent, _, level = line.pay.partition("% ")
    if not level:
        return line.pay
    return f"{percent}% of " + ("the jackpot" if level == MAIN_LEVEL else level_name(level))


def line_level(game: GameShown, label: str) -> str | None:
    """The meter a paytable line's award comes off, or None for a pay from the tray."""
    for line in game.lines:
        if line.label == label and line.fixed_cents is None:
            return line.pay.partition("% ")[2] or None
    return None


def pending_text(hit: PendingHit) -> str:
    return f"Seat {hit.seat}: {hit.label}, {format_cents(hit.amount_cents)} held"


def win_text(hit: LastHit) -> str:
    return f"Seat {hit.seat} won {format_cents(hit.amount_cents)}: {hit.line_label}"


def new_amount_text(game: GameShown, hit: LastHit) -> str:
    """The meter the win came off, as it stands now; empty for a pay from the tray."""
    level = line_level(game, hit.line_label)
    for meter in game.meters:
        if meter.level == level:
            return f"{level_name(meter.level)} now {format_cents(meter.cents)}"
    return ""
