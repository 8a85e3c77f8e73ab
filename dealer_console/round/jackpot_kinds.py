"""The wager kinds of the jackpot games, by sensor spot: plain names that the round's rules, its
machine and the jackpot hook all use (kept apart so that none of them imports another for
them)."""

from __future__ import annotations

JACKPOT_KIND = "jackpot"
"""The round's wager kind for the jackpot game on each seat's first sensor (spot 1)."""
JACKPOT_KINDS = {1: JACKPOT_KIND, 2: "jackpot_2"}
"""The wager kind of each sensor spot's jackpot game (a layout has at most two: Washington,
"House Jackpot and Progressive Jackpots")."""
SPOT_OF_KIND = {kind: spot for spot, kind in JACKPOT_KINDS.items()}


def award_kind(spot: int, hand_line: int) -> str:
    """The settlement line of a confirmed award: ``jackpot_award_N``, ``jackpot_2_award_N``."""
    return f"{JACKPOT_KINDS[spot]}_award_{hand_line}"
