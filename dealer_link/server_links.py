"""Migration ``0007_table_links``: a table's login acts only on the links its administrator
put it on.

Before it, a table's login was a table of the whole link database: it could say hello to,
claim its place on, contribute to and have hits paid on any link installed there, including
the progressive of another pit it was never meant to feed. Now ``link_table_links`` holds
which links each table plays (``link add-table --link``, ``link table-link``; each change a
line in ``link_admin_log`` with who and why), and a trigger on every table that holds a
table's rows (its contact, its session, its contributions, its hits, its card passes) refuses
a row of a table for a link it is not on, whoever writes it. A trigger rather than a check in
each function: it holds for the functions of later migrations too, and for any row a table's
login could ever write; one index lookup a row. A table that only reports to the pit needs no
link.

Each function a table calls with a link checks first, before any lock, card or rule, that
the table is on it (``link_me_on``), so the table is told so in those words; the trigger
stays as the wall behind them. The functions that read a link (its game, meters, hits,
whether it reads cards) give a table only the links it is on; ``link_end_stuck`` is a
table's only for a link it is on.

On upgrade, each table keeps the links it had already reached (``link_tables``); a login
that had reached none gets the database's one link when it has exactly one (what its
administrator can only have meant) and otherwise none. Each such line is logged too.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_console.link.sql_tables import CONTRIBUTE
from dealer_link import server_cards, server_stuck, server_trust
from dealer_link.sql_edit import edited, released

WRITTEN_BY_TABLES = ("link_tables", "link_sessions", "link_contributions", "link_hits",
                     "link_card_passes")
"""The tables whose rows a table's login writes, each with its ``link`` and ``table_id``."""

_MIGRATED = "migration 0007_table_links"

NOT_ON = """'table % is not on link %: the link administrator puts a table on a link with '
        '"dealer-console link table-link % %"'"""
"""The refusal's words (with the table and link, twice), as an SQL literal."""

SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE link_table_links (
        table_id text NOT NULL REFERENCES link_table_logins (table_id),
        link text NOT NULL REFERENCES link_games (link),
        added_by text NOT NULL DEFAULT session_user,
        added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (table_id, link)
    )
    """,
    f"""
    CREATE FUNCTION link_on_its_links() RETURNS trigger LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM link_table_links l
                       WHERE l.table_id = NEW.table_id AND l.link = NEW.link) THEN
            RAISE EXCEPTION {NOT_ON}, NEW.table_id, left(NEW.link, 64), NEW.table_id,
                left(NEW.link, 64) USING ERRCODE = '{REFUSED}';
        END IF;
        RETURN NEW;
    END $$
    """,
    *(f"CREATE TRIGGER {t}_on_its_links BEFORE INSERT OR UPDATE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION link_on_its_links()" for t in WRITTEN_BY_TABLES),
    f"""
    CREATE FUNCTION link_set_table_link(p_table_id text, p_link text, p_on boolean,
        p_reason text) RETURNS boolean LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        PERFORM link_need_admin(p_reason);
        IF NOT EXISTS (SELECT 1 FROM link_table_logins WHERE table_id = p_table_id) THEN
            RAISE EXCEPTION 'table % has no login on this server: "dealer-console link '
                'add-table" makes it', left(p_table_id, 64) USING ERRCODE = '{REFUSED}';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM link_games WHERE link = p_link) THEN
            RAISE EXCEPTION 'link % is not installed on the server', left(p_link, 64)
                USING ERRCODE = '{REFUSED}';
        END IF;
        IF p_on THEN
            INSERT INTO link_table_links (table_id, link) VALUES (p_table_id, p_link)
                ON CONFLICT DO NOTHING;
        ELSE
            DELETE FROM link_table_links WHERE table_id = p_table_id AND link = p_link;
        END IF;
        IF NOT FOUND THEN
            RETURN false;
        END IF;
        INSERT INTO link_admin_log (link, what, detail, reason) VALUES (p_link, 'table link',
            format('table %s %s link %s', p_table_id,
                   CASE WHEN p_on THEN 'may act on' ELSE 'may no longer act on' END, p_link),
            p_reason);
        RETURN true;
    END $$
    """,
)


ME_ON = f"""
    CREATE FUNCTION link_me_on(p_link text, p_claimed text) RETURNS text LANGUAGE plpgsql
    STABLE {_DEFINER} AS $$
    DECLARE t text := link_me(p_claimed);
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM link_table_links l
                       WHERE l.table_id = t AND l.link = p_link) THEN
            RAISE EXCEPTION {NOT_ON}, t, left(p_link, 64), t, left(p_link, 64)
                USING ERRCODE = '{REFUSED}';
        END IF;
        RETURN t;
    END $$
    """
MAY_READ = f"""
    CREATE FUNCTION link_may_read(p_link text) RETURNS boolean LANGUAGE plpgsql STABLE
    {_DEFINER} AS $$
    BEGIN
        IF link_login_table() IS NOT NULL THEN
            PERFORM link_me_on(p_link, NULL);
        END IF;
        RETURN true;
    END $$
    """
"""A table's login reads only the links it is on (refused in words); anyone else reads all."""

_ME = ("link_me(p_claimed)", "link_me_on(p_link, p_claimed)")
ON_ITS_LINK: tuple[str, ...] = (
    ME_ON,
    MAY_READ,
    edited(server_trust.HELLO, _ME),
    edited(released(server_trust._SCHEMA, "FUNCTION link_claim("), _ME),
    edited(released(server_trust._SCHEMA, "FUNCTION link_touch("), _ME),
    edited(CONTRIBUTE, _ME),
    edited(released(server_cards.SCHEMA, "FUNCTION link_present_card("), _ME),
    edited(released(server_cards.SCHEMA, "p_most bigint, p_pass text"), _ME),
    edited(released(server_trust._SCHEMA, "FUNCTION link_game("),
           ("WHERE link = p_link", "WHERE link = p_link AND link_may_read(p_link)")),
    edited(released(server_trust._SCHEMA, "FUNCTION link_meters("),
           ("WHERE link = p_link", "WHERE link = p_link AND link_may_read(p_link)")),
    edited(released(server_trust._SCHEMA, "FUNCTION link_hits_of("),
           ("WHERE link = p_link", "WHERE link = p_link AND link_may_read(p_link)")),
    edited(released(server_cards.SCHEMA, "FUNCTION link_reads_cards("),
           ("WHERE g.link = p_link", "WHERE g.link = p_link AND link_may_read(p_link)")),
    edited(released(server_stuck.SCHEMA, "FUNCTION link_end_stuck("),
           ("        IF NOT EXISTS (SELECT 1 FROM link_games g WHERE g.link = p_link) THEN",
            "        IF link_login_table() IS NOT NULL THEN\n"
            "            PERFORM link_me_on(p_link, NULL);\n"
            "        END IF;\n"
            "        IF NOT EXISTS (SELECT 1 FROM link_games g WHERE g.link = p_link) THEN")),
)
"""The table's functions, each checking first that the table is on the link it names."""


def _grant_links_already_used(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Each table keeps what it could do and did: the links it had reached; a login that had
    reached none, the database's only link."""
    cur.execute(f"""
        WITH reached AS (
            SELECT DISTINCT t.table_id, t.link FROM link_tables t
            JOIN link_table_logins l ON l.table_id = t.table_id
            JOIN link_games g ON g.link = t.link
        ), only_link AS (
            SELECT l.table_id, (SELECT link FROM link_games) AS link FROM link_table_logins l
            WHERE (SELECT count(*) FROM link_games) = 1
              AND NOT EXISTS (SELECT 1 FROM link_tables t WHERE t.table_id = l.table_id)
        ), given AS (
            INSERT INTO link_table_links (table_id, link)
            SELECT table_id, link FROM reached UNION SELECT table_id, link FROM only_link
            RETURNING table_id, link
        )
        INSERT INTO link_admin_log (link, what, detail, reason)
        SELECT g.link, 'table link', format('table %s may act on link %s', g.table_id, g.link),
            CASE WHEN EXISTS (SELECT 1 FROM reached r WHERE r.table_id = g.table_id
                              AND r.link = g.link)
                 THEN '{_MIGRATED}: a link the table had reached before'
                 ELSE '{_MIGRATED}: the only link on the server, and the table had reached '
                      'none' END
        FROM given g ORDER BY g.table_id, g.link
        """.encode())


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0007_table_links`` (see the module doc)."""
    for statement in (*SCHEMA, *ON_ITS_LINK):
        cur.execute(statement.encode())
    admin, auditor = sql.Identifier(ADMIN_ROLE), sql.Identifier("dealer_link_auditor")
    cur.execute(b"REVOKE ALL ON TABLE link_table_links FROM PUBLIC")
    cur.execute(b"ALTER TABLE link_table_links ENABLE ROW LEVEL SECURITY")
    cur.execute(sql.SQL("GRANT SELECT ON link_table_links TO {}, {}").format(admin, auditor))
    cur.execute(sql.SQL("CREATE POLICY link_read ON link_table_links FOR SELECT TO {}, {} "
                        "USING (true)").format(admin, auditor))
    for signature in ("link_on_its_links()", "link_set_table_link(text, text, boolean, text)",
                      "link_me_on(text, text)", "link_may_read(text)"):
        cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    cur.execute(sql.SQL("GRANT EXECUTE ON FUNCTION link_set_table_link(text, text, boolean, "
                        "text) TO {}").format(admin))
    _grant_links_already_used(cur)
