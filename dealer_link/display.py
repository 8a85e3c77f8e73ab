"""What screens and reports show of a link, as plain data (like ``jackpot/display.py``).

A screen never queries the server on the GUI thread: it calls these from a worker (or the
sender's thread) and draws the frozen result. :func:`linked_meters` is the meter display's
amounts for a link (whole cents, rounded down as on any meter); :func:`linked_hits` each hit
in the server's order with the table it was on; :func:`with_linked_meters` the table's meter
display with its linked games' amounts from the server; :func:`link_status` what
``link status`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from dealer_console.jackpot.display import LevelAmount, MeterDisplay
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.jackpot_values.meters import MICRO
from dealer_link import server
from dealer_link.server import Connection


@dataclass(frozen=True, slots=True)
class TableOnLink:
    table_id: str
    last_contact: str
    wagers: int
    wagered_cents: int
    hits: int


@dataclass(frozen=True, slots=True)
class LinkShown:
    link: str
    paytable: str
    meters: tuple[LevelAmount, ...]
    tables: tuple[TableOnLink, ...]
    went_back: tuple[str, ...] = ()
    """Each time a table found the server had gone back in time (a restore), in words."""
    on_link: tuple[str, ...] = ()
    """The tables whose logins may act on the link now (``link_table_links``)."""


def linked_meters(conn: Connection, link: str) -> tuple[LevelAmount, ...]:
    """The link's meters as the monitor shows them: whole cents, rounded down."""
    return tuple(LevelAmount(level, state.meter_micro // MICRO)
                 for level, state in server.meter_states(conn, link).items())


def with_linked_meters(display: MeterDisplay, links: Mapping[int, str], conn: Connection
                       ) -> MeterDisplay:
    """``display`` (read from the table database) with each linked game (``links``: sensor
    spot to link) marked with its link and its amounts taken from the link's server: the
    table's own rows for a linked game are not what the players win."""
    wanted = {links[g.spot] for g in display.games if g.spot in links}
    amounts = {link: linked_meters(conn, link) for link in sorted(wanted)}
    return replace(display, games=tuple(
        replace(g, linked=links[g.spot], meters=amounts[links[g.spot]])
        if g.spot in links else g for g in display.games))


def linked_hits(conn: Connection, link: str) -> list[LinkedHit]:
    """Every hit on the link, oldest first, each with its ``table_id``."""
    return server.hits(conn, link)


def link_status(conn: Connection) -> list[LinkShown]:
    out = []
    with conn.cursor() as cur:
        cur.execute("SELECT link, paytable FROM link_games ORDER BY link")
        games = cur.fetchall()
        for link, paytable in games:
            cur.execute(
                "SELECT t.table_id, to_char(t.last_contact AT TIME ZONE 'UTC', "
                "'YYYY-MM-DD HH24:MI:SS \"UTC\"'), "
                "(SELECT COUNT(*) FROM link_contributions c WHERE c.link = t.link "
                " AND c.table_id = t.table_id), "
                "(SELECT COALESCE(SUM(wager_cents), 0) FROM link_contributions c "
                " WHERE c.link = t.link AND c.table_id = t.table_id), "
                "(SELECT COUNT(*) FROM link_hits h WHERE h.link = t.link "
                " AND h.table_id = t.table_id) "
                "FROM link_tables t WHERE t.link = %s ORDER BY t.table_id", [link])
            tables = tuple(TableOnLink(str(r[0]), str(r[1]), int(str(r[2])), int(str(r[3])),
                                       int(str(r[4]))) for r in cur.fetchall())
            cur.execute("SELECT to_char(recorded_at AT TIME ZONE 'UTC', "
                        "'YYYY-MM-DD HH24:MI:SS \"UTC\"') || ': ' || detail FROM link_admin_log "
                        "WHERE (link = %s OR link IS NULL) AND what = 'went back in time' "
                        "ORDER BY entry",
                        [link])
            went_back = tuple(str(r[0]) for r in cur.fetchall())
            cur.execute("SELECT table_id FROM link_table_links WHERE link = %s "
                        "ORDER BY table_id", [link])
            on_link = tuple(str(r[0]) for r in cur.fetchall())
            out.append(LinkShown(str(link), str(paytable), linked_meters(conn, str(link)),
                                 tables, went_back, on_link))
    return out
