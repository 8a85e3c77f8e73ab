"""Starting a table's links: the hook for its jackpot and one sender thread per link."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_console.jackpot_values.config import TableJackpots
from dealer_console.link.health import LinkHealth
from dealer_console.link.hook import LinkHook
from dealer_console.table_name import TABLE_ID_VARIABLE
from dealer_link.settings import LinkError, check_link_name, dsn_from_environment

if TYPE_CHECKING:
    from dealer_link.sender import OutboxSender


def table_id_from_environment() -> str:
    """The table's name on its links: every table on a link needs its own, or two tables'
    wagers would share idempotency keys and one would be skipped."""
    value = os.environ.get(TABLE_ID_VARIABLE, "")
    if not value:
        raise LinkError(f"this table plays a linked jackpot: set {TABLE_ID_VARIABLE} to the "
                        "table's own name on the link (each table its own)")
    return check_link_name(value)


def start_links(db_path: str | Path, jackpots: TableJackpots | None
                ) -> tuple[LinkHook | None, list[OutboxSender]]:
    """The hook and the running senders for the linked games of ``jackpots`` (none: None)."""
    linked = {g.spot: g for g in (jackpots.games if jackpots else ()) if g.linked}
    if not linked:
        return None, []
    # the PostgreSQL client and its threads only for a table that plays a linked game: every
    # other table starts without loading them
    from dealer_link.asker import HitAsker
    from dealer_link.sender import OutboxSender

    dsn = dsn_from_environment()
    table_id = table_id_from_environment()
    health = LinkHealth()
    senders: list[OutboxSender] = []
    by_link: dict[str, int] = {}
    for spot, game in sorted(linked.items()):
        assert game.linked is not None
        by_link.setdefault(check_link_name(game.linked), spot)
    for link, spot in by_link.items():
        sender = OutboxSender(db_path, link=link, table_id=table_id, dsn=dsn,
                              game=linked[spot], health=health)
        sender.start()
        senders.append(sender)
    hook = LinkHook({s: str(g.linked) for s, g in linked.items()}, table_id, health,
                    HitAsker(dsn, table_id))
    return hook, senders
