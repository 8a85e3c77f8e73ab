"""What a linked table owes its link is held to the event log by ``audit verify``
(``audit/link_owed.py``): an outside review deleted a real wager's outbox row and added rows
for seats that took none; the sender delivered them, the shared meter moved by them, and the
audit said OK. No server is needed: the rows are the table's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dealer_console.audit.verify import audit
from dealer_console.link.health import LinkHealth
from dealer_console.round import commands as c
from tests.link.helpers import LINK, linked_table


def test_forged_and_missing_outbox_rows_are_named(tmp_path: Path) -> None:
    health = LinkHealth()
    health.up(0)  # the link answers: linked wagers are taken
    path = tmp_path / "t1.db"
    table, _system, db = linked_table(path, "t1", health)
    try:
        for seat in (1, 2, 5):
            table.handle(c.PlaceWager(seat, "base", 2000))
            table.handle(c.PlaceWager(seat, "jackpot", 100))
        table.handle(c.StartGame())
        round_id = table.state.round_id
        assert audit(db).ok
        raw = sqlite3.connect(path)  # the service user, with sqlite3 on the table's file
        raw.execute("DROP TRIGGER link_outbox_no_delete")
        raw.execute("DELETE FROM link_outbox WHERE seat = 5")
        raw.execute("INSERT INTO link_outbox (link, table_id, round_id, deal_no, spot, seat, "
                    "wager_cents, taken_at) SELECT link, table_id, round_id, deal_no, spot, 6, "
                    "wager_cents, taken_at FROM link_outbox LIMIT 1")
        raw.commit()
        raw.close()
        problems = [p for p in audit(db).problems if p.startswith("link_outbox")]
        assert problems == [
            f"link_outbox (link {LINK}, round {round_id}, spot 1, seat 6, 100 cents): owed to "
            "the link, but the event log has no such jackpot wager",
            f"link_outbox (link {LINK}, round {round_id}, spot 1, seat 5, 100 cents): a "
            "jackpot wager of a linked game in the event log, not owed to its link"]
    finally:
        db.close()
