"""Migration ``0010_every_hit_carded``: where the link reads the cards, every hit needs them.

Before it, ``link_confirm_hit`` asked for a server-issued pass only when the pay came off a
meter: a fixed pay from the tray was taken as "a tray pay reported after the link was down,
its card read at the table". The server has no proof of that: a table's login can stop
calling, call again and report a tray hit as paid while it was down (nothing the table sends,
its wager's time included, is the server's own knowledge). An outside review recorded a
$2,500 "5 aces" tray hit naming an executive with no card. So with the switch on, every new
hit needs a pass for each confirmer; a repeated ask for a hit already paid still gets it
with no card. A tray pay paid at the table while the link was down is then refused when
reported (the sender tells the supervisor and the administrator; ``link reconcile`` names
it), and ``link audit`` names a tray hit paid since this migration with no card read.
"""

from __future__ import annotations

import psycopg

from dealer_link import server_cards, server_links
from dealer_link.sql_edit import edited, released

NAME = "0010_every_hit_carded"

_CONFIRM = edited(
    released(server_links.ON_ITS_LINK, "p_most bigint, p_pass text"),
    ("""
           AND (g.fixed_from_meter OR EXISTS (SELECT 1 FROM link_lines l
                WHERE l.link = p_link AND l.line_no = p_line AND l.level IS NOT NULL)) THEN""",
     "\n           THEN  -- every hit, off the meter or from the tray"))

_USE_PASS = edited(
    released(server_cards.SCHEMA, "FUNCTION link_use_pass("),
    ("""'link % pays off its meter only on a card the server reads: this '
                'table''s console sent none for employee % (a console from before: update it)'""",
     """'link % pays a hit (off its meter or from the tray) only on a card the server '
                'reads: this table''s console sent none for employee % (a console from '
                'before: update it; a tray pay paid at the table while the link was down '
                'cannot show one: "dealer-console link reconcile" names it for the link '
                'administrator)'"""))

SCHEMA: tuple[str, ...] = (_USE_PASS, _CONFIRM)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0010_every_hit_carded`` (see the module doc)."""
    for statement in SCHEMA:
        cur.execute(statement.encode())
