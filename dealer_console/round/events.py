"""The kinds of event a round's log holds, as one enumeration.

The values are the strings stored in the ``events`` table (``docs/storage.md`` lists what each
carries), so a ``StrEnum`` compares equal to what a replay reads back; code names a kind only
through this class, never by spelling the string again.
"""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    ROUND_OPENED = "round_opened"
    BANK_ACCEPTED = "bank_accepted"
    BANK_DECLINED = "bank_declined"
    WAGER_PLACED = "wager_placed"
    WAGER_REMOVED = "wager_removed"
    GAME_STARTED = "game_started"
    ROUND_VOIDED = "round_voided"
    ACTION_SET = "action_set"
    HAND_DEALT = "hand_dealt"
    FIRST_HAND_CORRECTED = "first_hand_corrected"
    CARDS_EXPOSED = "cards_exposed"
    DEAL_CHECKED = "deal_checked"
    MISDEAL = "misdeal"
    DECK_COUNTED = "deck_counted"
    REDEAL = "redeal"
    BANKER_SET = "banker_set"
    PLAYER_SET = "player_set"
    PLAYERS_DONE = "players_done"
    BANKER_RECONSTRUCTED = "banker_reconstructed"
    SETTLEMENT_PLANNED = "settlement_planned"
    SEAT_SETTLED = "seat_settled"
    JACKPOT_HIT = "jackpot_hit"
    GAME_ENDED = "game_ended"
