"""Migration ``0006_stuck_locks``: a table's login that holds the link's locks in a
transaction it never ends no longer stops every other table.

The link's functions lock the meters (and a few rows more) for one statement only. A table's
login can call one inside a transaction of its own and then wait: ``BEGIN``, ``SELECT
link_contribute(...)`` with nothing to contribute, and no ``COMMIT``. Every other table's
wagers and hits then wait on the meters until their statements time out, for as long as
that connection lives. A session's own settings cannot prevent it (it may set them back),
nor can a check at the start of a transaction (several statements in one query pass it).

So the tables end it. A table whose statement timed out waiting calls
:data:`END_STUCK`: the server looks twice, :data:`STUCK_S` apart, at the table logins'
connections holding a lock on a link or pit table without waiting for one themselves; one
holding it in the same transaction both times is stuck (the link's own statements hold
their locks for milliseconds) and is ended (``pg_terminate_backend``), with a line in
``link_admin_log`` naming the table. Ending another role's connection needs the link's owner
to be a member of ``pg_signal_backend`` (``docs/link.md``, "Set-up"): without it the line says
so and nothing is ended.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED, TABLE_ROLE
from dealer_console.link.sql_base import DEFINER as _DEFINER

STUCK_S = 1
"""How long apart the two looks are: a transaction holding a link lock through both is
stuck."""

SCHEMA: tuple[str, ...] = (
    # the table logins' connections holding a link or pit table's lock, waiting for none
    f"""
    CREATE FUNCTION link_lock_holders() RETURNS TABLE (pid integer, xact text,
        table_id text) LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT DISTINCT l.pid, l.virtualtransaction, t.table_id
        FROM pg_locks l
        JOIN pg_database d ON d.oid = l.database AND d.datname = current_database()
        JOIN pg_class c ON c.oid = l.relation
        JOIN pg_stat_activity a ON a.pid = l.pid
        JOIN link_table_logins t ON t.login = a.usename
        WHERE l.granted AND l.pid <> pg_backend_pid()
          AND (c.relname LIKE 'link\\_%' OR c.relname LIKE 'pit\\_%')
          AND NOT EXISTS (SELECT 1 FROM pg_locks w WHERE w.pid = l.pid AND NOT w.granted)
    $$
    """,
    f"""
    CREATE FUNCTION link_end_stuck(p_link text) RETURNS text LANGUAGE plpgsql {_DEFINER}
    AS $$
    DECLARE
        first text[];
        r record;
        said text[] := '{{}}';
    BEGIN
        IF link_login_table() IS NULL
           AND NOT pg_has_role(session_user, '{ADMIN_ROLE}', 'MEMBER') THEN
            RAISE EXCEPTION 'only a table or a link administrator may end a stuck connection'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM link_games g WHERE g.link = p_link) THEN
            RAISE EXCEPTION 'link % is not installed on the server', p_link
                USING ERRCODE = '{REFUSED}';
        END IF;
        first := ARRAY(SELECT h.pid || '/' || h.xact FROM link_lock_holders() h);
        IF cardinality(first) = 0 THEN
            RETURN NULL;
        END IF;
        PERFORM pg_sleep({STUCK_S});
        FOR r IN SELECT DISTINCT h.pid, h.table_id FROM link_lock_holders() h
                 WHERE h.pid || '/' || h.xact = ANY (first) LOOP
            BEGIN
                IF pg_terminate_backend(r.pid) THEN
                    said := said || format('ended a connection of table %s that held the '
                        'link''s locks in a transaction it did not end', r.table_id);
                END IF;
            EXCEPTION WHEN insufficient_privilege THEN
                said := said || format('could not end a connection of table %s that holds the '
                    'link''s locks in a transaction it does not end: the link''s owner needs '
                    'pg_signal_backend (docs/link.md, "Set-up")', r.table_id);
            END;
        END LOOP;
        IF cardinality(said) = 0 THEN
            RETURN NULL;
        END IF;
        INSERT INTO link_admin_log (link, what, detail, reason)
            SELECT p_link, 'stuck connection', s, format('found by %s waiting for the link',
                coalesce('table ' || link_login_table(), session_user)) FROM unnest(said) s;
        RETURN array_to_string(said, '; ');
    END $$
    """,
)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0006_stuck_locks`` (see the module doc)."""
    for statement in SCHEMA:
        cur.execute(statement.encode())
    for signature in ("link_lock_holders()", "link_end_stuck(text)"):
        cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    cur.execute(sql.SQL("GRANT EXECUTE ON FUNCTION link_end_stuck(text) TO {}, {}").format(
        sql.Identifier(TABLE_ROLE), sql.Identifier(ADMIN_ROLE)))
