"""The round's hook for a jackpot system (Washington profile; issue #6 builds the system).

The round calls the hook inside the transaction of the transition concerned, so a jackpot's
meters can never disagree with the round: START GAME (sensors locked, jackpot wagers taken,
meter and reserve contributions), a confirmed hit (the award it computes is stored in the hit's
event, so a replay never recomputes it), and END GAME (sensors released for the next round).

To plug a jackpot system in, implement :class:`JackpotHook` and pass it to
:class:`dealer_console.round.table.Table`; it gets the open database (the caller's transaction
is open) and must not commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from sqlite_utils import Database

from dealer_console.cards import Card


class JackpotHook(Protocol):
    def start_game(self, db: Database, round_id: int, wagers: Mapping[int, int]) -> None:
        """Lock the sensors and add each seat's jackpot wager (cents) to the meters."""

    def award(self, db: Database, round_id: int, seat: int, hand_line: int,
              cards: tuple[Card, ...], who: str) -> int:
        """Confirm a hit: adjust the meter and return what the seat is paid, in cents."""

    def end_game(self, db: Database, round_id: int) -> None:
        """Reset for the next round."""


class NoJackpot:
    """The default: a table without a jackpot system. A hit cannot happen here; the round
    refuses it before calling the hook."""

    def start_game(self, db: Database, round_id: int, wagers: Mapping[int, int]) -> None:
        return None

    def award(self, db: Database, round_id: int, seat: int, hand_line: int,
              cards: tuple[Card, ...], who: str) -> int:
        raise LookupError("this table has no jackpot system to confirm a hit with")

    def end_game(self, db: Database, round_id: int) -> None:
        return None
