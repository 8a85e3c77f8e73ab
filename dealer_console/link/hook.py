"""The link's small hook into the table's jackpot (``JackpotSystem(db, link=...)``): the
jackpot's port (``jackpot/link_port.py``) implemented.

At START GAME, inside the round's transaction: a jackpot wager on a linked game is refused
while the link is down (the dealer reads why; the base game goes on without it), and each one
taken is recorded as owed to the link (``outbox.record_owed``) in the same transaction. A
linked hit's swipe is refused while the link is down, before the card is read; an accepted one
is sent to the server by the asker (``dealer_link/asker.py``), and its answer goes to whoever
:meth:`LinkHook.answers_to` named (the controller, which queues it for its owner thread).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from sqlite_utils import Database

from dealer_console.jackpot.hits import HitRecord
from dealer_console.jackpot.link_port import LinkDown
from dealer_console.jackpot_values.link_records import HitAnswer, HitAsk, TrayReport
from dealer_console.jackpot_values.meters import MeterState
from dealer_console.link import outbox
from dealer_console.link.health import LinkHealth

Reply = Callable[[HitAnswer], object]


class Asker(Protocol):
    """What the hook needs of the asker (``dealer_link.asker.HitAsker``: the PostgreSQL client
    and its thread, which the composition root starts and the core never imports)."""

    def ask(self, ask: HitAsk, reply: Reply) -> None: ...

    def stop(self) -> None: ...


@dataclass
class LinkHook:
    """Which sensor spot plays which link, the table's name on the links, their health, and
    the asker that has the server pay a linked hit."""

    links: Mapping[int, str]
    table_id: str
    health: LinkHealth
    asker: Asker | None = None
    _reply: list[Reply] = field(default_factory=list)

    def is_up(self) -> bool:
        return self.health.view().up

    def meters(self, spot: int) -> dict[str, MeterState] | None:
        """Spot ``spot``'s shared meters as the server last told them (None: not yet)."""
        return self.health.meters(self.links[spot])

    def answers_to(self, reply: Reply) -> None:
        """Where the server's answers to hits go (called on the asker's thread)."""
        self._reply[:] = [reply]

    def ask(self, ask: HitAsk) -> None:
        """Have the server pay ``ask``; the answer goes to :meth:`answers_to`'s callback."""
        if self.asker is None or not self._reply:
            raise LinkDown("this table cannot ask its link to pay a hit (no asker): restart "
                           "the console")
        self.asker.ask(ask, self._deliver)

    def _deliver(self, answer: HitAnswer) -> None:
        for reply in self._reply:
            reply(answer)

    def record_tray(self, db: Database, hit: HitRecord) -> None:
        """Inside the hit's transaction: a tray pay paid at the table while the link was down
        is owed to the link as a report (the sender delivers it, ``outbox.record_tray``)."""
        outbox.record_tray(db, TrayReport(
            self.links[hit.spot], self.table_id, hit.round_id, hit.spot, hit.seat,
            hit.line_no, hit.amount_cents, hit.employee_id, hit.second_employee_id,
            hit.confirmed_at))

    def close(self) -> None:
        if self.asker is not None:
            self.asker.stop()

    def check_start(self, wagers: Mapping[int, list[int]], *, confirming: bool = False
                    ) -> None:
        """Refuse linked wagers (or, ``confirming``, a linked hit's swipe) while the link is
        down, before anything is written or any card is read."""
        linked = sorted(self.links[s] for s, seats in wagers.items()
                        if seats and s in self.links)
        if not linked:
            return
        view = self.health.view()
        if not view.up and confirming:
            raise LinkDown(
                f"the jackpot link {', '.join(linked)} cannot be reached ({view.reason}): a "
                "linked jackpot is confirmed only through the link; call the supervisor and "
                "swipe again when the link is back")
        if not view.up:
            raise LinkDown(
                f"the jackpot link {', '.join(linked)} cannot be reached ({view.reason}): "
                "jackpot wagers are not taken now; return the jackpot chips and press "
                "START GAME again to play the base game")

    def record(self, db: Database, round_id: int, wagers: Mapping[int, list[int]],
               wager_cents: Mapping[int, int], taken_at: str) -> None:
        """In the START GAME transaction: each linked wager is owed to its link."""
        for spot, seats in wagers.items():
            if seats and spot in self.links:
                outbox.record_owed(db, self.links[spot], self.table_id, round_id, spot,
                                   sorted(seats), wager_cents[spot], taken_at)
