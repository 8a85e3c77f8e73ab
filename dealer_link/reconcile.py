"""``dealer-console link reconcile TABLE.db``: one table's records beside the server's, every
difference named.

The table's file is evidence of what it took and paid: each jackpot wager it owed the link
(``link_outbox``), each linked hit it recorded (``jackpot_hits`` naming the link and the
server's hit number) and each tray pay it paid while the link was down (``link_tray_owed``,
matched to the server's hit by its round, spot and seat). The server's rows for that table,
on every link the server puts it on or holds its rows for (not only the links it played),
should be exactly those. After a restore from an older copy the server may lack wagers (the
table sends them again on reconnecting) and hits (paid at the table, gone from the server's
meter and list: the link administrator puts them back); a hit number the server gave to two
different hits is named too. Read-only on both sides: the auditor role can run it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dealer_console.money import format_cents
from dealer_link.server import Connection
from dealer_link.settings import LinkError

_HIT = ("round_id, spot, seat, line_no, amount_cents, from_meter_cents, from_tray_cents, "
        "meter_before_micro, meter_after_micro")
_WHO = "employee_id, second_employee_id"
"""Who confirmed a hit: the table recorded the ids its console authorised from the cards, so
a server row rewritten to name others (an outside review did it as the schema's owner, and
the link's own audit, which sees only the server, found nothing) differs from the table's."""


def table_file(path: Path) -> sqlite3.Connection:
    """The table's database at ``path``, read-only (the evidence is never written to)."""
    if not path.is_file():
        raise LinkError(f"{path}: no such table database")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        db.execute("SELECT 1 FROM link_outbox LIMIT 1")
    except sqlite3.Error as exc:
        raise LinkError(f"{path}: not a linked table's database ({exc})") from None
    return db


def differences(conn: Connection, path: Path) -> list[str]:
    """Every difference between the table database at ``path`` and the server, in words."""
    db = table_file(path)
    try:
        owed = db.execute("SELECT link, table_id, round_id, deal_no, spot, seat, wager_cents "
                          "FROM link_outbox ORDER BY entry").fetchall()
        hits = db.execute(f"SELECT link, link_hit_id, {_HIT}, {_WHO} FROM jackpot_hits WHERE "
                          "link IS NOT NULL ORDER BY link_hit_id").fetchall()
        has_trays = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'link_tray_owed'"
                               ).fetchone() is not None
        trays = db.execute("SELECT link, table_id, round_id, spot, seat, amount_cents, "
                           f"{_WHO} FROM link_tray_owed ORDER BY entry").fetchall(
                           ) if has_trays else []
    finally:
        db.close()
    tables = _every_link(conn, {(str(r[0]), str(r[1])) for r in (*owed, *trays)})
    out: list[str] = []
    for link, table_id in tables:
        mine = {tuple(r[2:6]): int(r[6]) for r in owed if (r[0], r[1]) == (link, table_id)}
        with conn.cursor() as cur:
            cur.execute("SELECT round_id, deal_no, spot, seat, wager_cents FROM "
                        "link_contributions WHERE link = %s AND table_id = %s",
                        [link, table_id])
            theirs = {tuple(int(str(x)) for x in r[:4]): int(str(r[4])) for r in cur}
            cur.execute(f"SELECT hit_id, {_HIT}, {_WHO} FROM link_hits WHERE link = %s AND "
                        "table_id = %s", [link, table_id])
            server_hits: dict[int, tuple[object, ...]] = {}
            server_who: dict[int, str] = {}
            for r in cur.fetchall():
                server_hits[int(str(r[0]))] = tuple(r[1:-2])
                server_who[int(str(r[0]))] = _names(r[-2:])
            cur.execute("SELECT hit_id, table_id, round_id, seat FROM link_hits WHERE "
                        "link = %s", [link])
            every_hit = {int(str(r[0])): (str(r[1]), r[2], r[3]) for r in cur}
            cur.execute("SELECT cards_on_server FROM link_games WHERE link = %s", [link])
            cards = bool((cur.fetchone() or (False,))[0])
        where = f"link {link} table {table_id}"
        for key in sorted(set(mine) | set(theirs)):
            round_id, deal_no, _spot, seat = key
            what = f"{where} round {round_id} (deal {deal_no}) seat {seat}"
            if key not in theirs:
                out.append(f"{what}: the table took a {format_cents(mine[key])} jackpot wager "
                           "the server does not have")
            elif key not in mine:
                out.append(f"{what}: the server holds a {format_cents(theirs[key])} wager the "
                           "table never took")
            elif mine[key] != theirs[key]:
                out.append(f"{what}: the table took {format_cents(mine[key])}, the server "
                           f"holds {format_cents(theirs[key])}")
        reported: dict[int, tuple[object, ...]] = {}  # tray pays paid here, link down
        for r in trays:
            if (r[0], r[1]) != (link, table_id):
                continue
            place = (int(r[2]), int(r[3]), int(r[4]))
            found = [(n, h) for n, h in server_hits.items()
                     if (int(str(h[0])), int(str(h[1])), int(str(h[2]))) == place]
            what = (f"{where} round {place[0]} seat {place[2]}: a "
                    f"{format_cents(int(r[5]))} tray pay paid at the table while the link was "
                    "down")
            if not found:
                out.append(f"{what}: " + (
                    "not on the server (the link reads the cards itself and refuses a pay "
                    "with no card it read: the link administrator decides)" if cards else
                    "not reported to the server yet (it is, when the table next reaches the "
                    "link)"))
                continue
            number, theirs_hit = found[0]
            reported[number] = theirs_hit
            if int(str(theirs_hit[4])) != int(r[5]):
                out.append(f"{what}: the server records it as "
                           f"{format_cents(int(str(theirs_hit[4])))} (its hit {number})")
            if server_who[number] != _names(r[6:8]):
                out.append(f"{what}: confirmed by {_names(r[6:8])} at the table, by "
                           f"{server_who[number]} on the server (its hit {number})")
        recorded = {int(r[1]): tuple(r[2:-2]) for r in hits if r[0] == link}
        recorded_who = {int(r[1]): _names(r[-2:]) for r in hits if r[0] == link}
        for number in reported:
            server_hits.pop(number, None)
        for number in sorted(set(recorded) | set(server_hits)):
            at_table, on_server = recorded.get(number), server_hits.get(number)
            if on_server is None:
                other = every_hit.get(number)
                tail = (f"; the server gave number {number} to table {other[0]}'s round "
                        f"{other[1]} seat {other[2]}: one number, two hits" if other else "")
                assert at_table is not None
                out.append(f"{where} hit {number} (round {at_table[0]} seat {at_table[2]}, "
                           f"{format_cents(int(at_table[4]))}): paid at the table, the server "
                           f"does not have it{tail}")
            elif at_table is None:
                out.append(f"{where} hit {number} (round {on_server[0]} seat {on_server[2]}): "
                           "on the server, not recorded at the table (an ask still open?)")
            elif tuple(None if v is None else int(str(v)) for v in on_server) != at_table:
                out.append(f"{where} hit {number}: the table recorded {at_table}, the server "
                           f"{on_server} (round, spot, seat, line, amount, from meter, from "
                           "tray, meter before, after)")
            if at_table is not None and on_server is not None and (
                    recorded_who[number] != server_who[number]):
                out.append(f"{where} hit {number}: confirmed by {recorded_who[number]} at the "
                           f"table, by {server_who[number]} on the server")
    return out


def _every_link(conn: Connection, in_file: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each (link, table) to compare: the file's, and for each of its tables every link the
    server puts it on or holds its rows for. A table on two links that played only one said
    "the same as the server" while a review's login put 1,000 made-up wagers and a hit
    under its name on the other."""
    names = sorted({table_id for _link, table_id in in_file})
    with conn.cursor() as cur:
        cur.execute("SELECT link, table_id FROM link_table_links WHERE table_id = ANY(%s) "
                    "UNION SELECT link, table_id FROM link_contributions "
                    "WHERE table_id = ANY(%s) "
                    "UNION SELECT link, table_id FROM link_hits WHERE table_id = ANY(%s)",
                    [names, names, names])
        on_server = {(str(r[0]), str(r[1])) for r in cur.fetchall()}
    return sorted(in_file | on_server)


def _names(who: tuple[object, ...]) -> str:
    """Who confirmed, as both sides record it: one employee id, or two joined by '+'."""
    return "+".join(str(w) for w in who if w is not None)


def reconcile(conn: Connection, path: Path) -> list[str]:
    """:func:`differences` in one read-only, repeatable-read transaction."""
    with conn.transaction():
        conn.execute(b"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return differences(conn, path)
