"""What needs a person at the pit, and in which order: one pure rule for the screen, the
benchmark and the tests. An alert is about one table and one kind (``sql_cards.ALERT_KINDS``),
most urgent first: a jackpot waiting for a card holds a player and a game, a table whose
records went back may be playing on a copy that hides rounds (its evidence), a closed table
loses a whole table's play, a device down stops or slows the round, a lost heartbeat means
the pit no longer knows, a link down stops the jackpot wagers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dealer_link.pit.server import Ack, ReportRow
from dealer_link.pit.sql_cards import ALERT_KINDS

HEARTBEAT_S = 2.0
"""How often a table reports when nothing changes."""
HEARTBEAT_LOST_MS = 10_000
"""A report older than this (on the server's clock, five heartbeats) is a heartbeat lost."""


@dataclass(frozen=True, slots=True)
class Alert:
    table_id: str
    kind: str
    words: str
    """What is wrong and what to do, in plain words."""
    acked: Ack | None
    """Who acknowledged it on their card, or None: it is still loud."""

    @property
    def urgency(self) -> int:
        return ALERT_KINDS.index(self.kind)

    @property
    def clearable(self) -> bool:
        """Cleared by a person (an executive's card, with a reason), where every other alert
        ends with its cause: a records alert stays however the table plays on."""
        return self.kind == "rewind"


def alerts_of(row: ReportRow) -> list[Alert]:
    """The alerts of one table's report, most urgent first."""
    r = row.report
    found: list[tuple[str, str]] = []
    if r.jackpots_waiting:
        hands = "hand waits" if r.jackpots_waiting == 1 else "hands wait"
        found.append(("jackpot", f"{r.jackpots_waiting} jackpot {hands} for a supervisor's "
                                 "card: go to the table"))
    if row.rewind is not None:
        found.append(("rewind", row.rewind.words()))
    if not r.table_open:
        found.append(("closed", f"table closed: {r.self_test}"))
    down = [d for d in r.devices if not d.ok]
    if down:
        found.append(("device", "; ".join(f"{d.title} down" + (f": {d.fault}" if d.fault
                                                                 else "") for d in down)))
    if row.age_ms > HEARTBEAT_LOST_MS:
        found.append(("heartbeat", f"no word from the table for {row.age_ms // 1000} s: "
                                   "its console or its network may be down"))
    if r.link_state not in ("up", "none"):
        found.append(("link", f"jackpot link down: {r.link_state}"))
    return [Alert(r.table_id, kind, words, row.acks.get(kind)) for kind, words in found]


def pit_alerts(rows: list[ReportRow]) -> list[Alert]:
    """Every table's alerts: the loud ones first, by urgency and then by table; the
    acknowledged after them in the same order."""
    every = [a for row in rows for a in alerts_of(row)]
    return sorted(every, key=lambda a: (a.acked is not None, a.urgency,
                                        natural(a.table_id)))


def natural(name: str) -> tuple[tuple[int, str], ...]:
    """A table's name as people sort it: ``t2`` before ``t10``."""
    return tuple((int(part), "") if part.isdigit() else (-1, part)
                 for part in re.split(r"(\d+)", name))
