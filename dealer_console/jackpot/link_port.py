"""The port through which the jackpot reaches a link, owned by the jackpot: the link's hook
(``dealer_console/link/hook.py``) implements it, so the jackpot never imports the link
(its client, threads and PostgreSQL driver stay out of the jackpot's way)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from sqlite_utils import Database

from dealer_console.jackpot.hits import HitRecord
from dealer_console.jackpot_values.link_records import HitAsk
from dealer_console.jackpot_values.meters import MeterState


class LinkDown(Exception):
    """A linked game's wager or hit while its link cannot be reached."""


class LinkPort(Protocol):
    """What the jackpot asks of the links its games play on (see the module doc)."""

    links: Mapping[int, str]
    """Which sensor spot plays which link."""

    def is_up(self) -> bool:
        """The links answer now."""

    def meters(self, spot: int) -> dict[str, MeterState] | None:
        """Spot ``spot``'s shared meters as the server last told them (None: not yet)."""

    def ask(self, ask: HitAsk) -> None:
        """Have the server pay ``ask`` (the answer comes back as an event); raises
        :class:`LinkDown` when it cannot be asked."""

    def check_start(self, wagers: Mapping[int, list[int]], *, confirming: bool = False
                    ) -> None:
        """Raise :class:`LinkDown` for linked wagers (or a linked hit's swipe) while the
        link is down."""

    def record(self, db: Database, round_id: int, wagers: Mapping[int, list[int]],
               wager_cents: Mapping[int, int], taken_at: str) -> None:
        """Inside START GAME's transaction: each linked wager owed to its link."""

    def record_tray(self, db: Database, hit: HitRecord) -> None:
        """Inside the hit's transaction: a tray pay paid while the link was down, owed to
        the link as a report."""
