"""``dealer-console link accept-wagers LINK TABLE TABLE.db``: a table's honest wagers that the
play bound refuses for good, accepted once by the administrator (``server_accepted_wagers.py``).

The table's database is the evidence of what it took: its outbox (``link_outbox``) holds
every jackpot wager it owes the link, in the order it took them. :func:`accept` reads, from
that file (read-only), the table's wagers on the link that the server does not hold, oldest
first, and has the server accept exactly those (at most
:data:`~dealer_link.server_play_bound.MOST_A_CALL` at a time: the oldest, which the table's
sender sends first). The table's own sender then delivers them, at its next try.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dealer_console.jackpot_values.link_records import Owed
from dealer_link.reconcile import table_file
from dealer_link.server import Connection, call
from dealer_link.server_play_bound import MOST_A_CALL
from dealer_link.settings import LinkError, check_link_name


@dataclass(frozen=True, slots=True)
class Accepted:
    """What :func:`accept` found and did."""

    owed: tuple[Owed, ...]
    """The table's wagers the server lacks that were sent to be accepted (oldest first)."""
    accepted: int
    """How many of them the server accepted now (the rest: accepted before, or delivered
    meanwhile)."""
    left: int
    """The table's wagers the server lacks beyond these (accept them once these are in)."""


def owed_by_file(conn: Connection, link: str, table_id: str, path: Path) -> list[Owed]:
    """``table_id``'s wagers on ``link`` in the table database at ``path`` that the server
    does not hold, in the order the table took them."""
    db = table_file(path)
    try:
        rows = db.execute("SELECT round_id, deal_no, spot, seat, wager_cents, taken_at "
                          "FROM link_outbox WHERE link = ? AND table_id = ? ORDER BY entry",
                          [link, table_id]).fetchall()
    finally:
        db.close()
    if not rows:
        raise LinkError(f"{path} holds no jackpot wager of table {table_id} on link {link}: "
                        "not that table's database, or the table never played the link")
    held = {tuple(int(str(v)) for v in r) for r in call(
        conn, "SELECT round_id, deal_no, spot, seat FROM link_contributions "
        "WHERE link = %s AND table_id = %s", [link, table_id])}
    return [Owed(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5]))
            for r in rows if (int(r[0]), int(r[1]), int(r[2]), int(r[3])) not in held]


def accept(conn: Connection, link: str, table_id: str, path: Path, *, reason: str
           ) -> Accepted:
    """Accept, past the play bound, ``table_id``'s wagers on ``link`` that its database at
    ``path`` holds and the server does not (the oldest :data:`MOST_A_CALL`). Refused in
    words, nothing written, where the server refuses (``server_accepted_wagers.ACCEPT``)."""
    check_link_name(link)
    check_link_name(table_id)
    owed = owed_by_file(conn, link, table_id, path)
    batch = owed[:MOST_A_CALL]
    if not batch:
        return Accepted((), 0, 0)
    rows = call(conn, "SELECT link_accept_wagers(%s, %s, %s::bigint[], %s::integer[], "
                "%s::integer[], %s::integer[], %s::bigint[], %s::text[], %s)",
                [link, table_id, [o.round_id for o in batch], [o.deal_no for o in batch],
                 [o.spot for o in batch], [o.seat for o in batch],
                 [o.wager_cents for o in batch], [o.taken_at for o in batch], reason])
    return Accepted(tuple(batch), int(str(rows[0][0])), len(owed) - len(batch))
