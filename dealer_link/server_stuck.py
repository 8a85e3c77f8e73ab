"""Migration ``0006_stuck_locks``: a table's login that holds the link's locks in a
transaction it never ends no longer stops every other table.

The link's functions lock the meters (and a few rows more) for one statement only. A table's
login can call one inside a transaction of its own and then wait: ``BEGIN``, ``SELECT
link_contribute(...)`` with nothing to contribute, and no ``COMMIT``. Every other table's
wagers and hits then wait on the meters until their statements time out, for as long as
that connection lives. A session's own settings cannot prevent it (it may set them back),
nor can a check at the start of a transaction (several statements in one query pass it).

So the tables end it. A table whose statement timed out waiting calls :data:`SCHEMA`'s
``link_end_stuck``: the server ends each table login's connection that holds a lock on a link
or pit table, is not a single statement waiting for a link or pit lock another holds (an honest
table's statement waits its turn so; :data:`WAITING_ITS_TURN`), and either holds it in a
transaction of several statements (the link's own calls are single statements: an honest table
never does) or has held it in one statement for over :data:`STUCK_S` seconds (the link's
statements take milliseconds). Waiting on some other lock (an advisory lock of its own, say)
does not spare it. Each ended connection is a line in ``link_admin_log`` naming the table, at
most :data:`LINES_PER_MINUTE` a minute for a table (the rest are ended unwritten). Reading
other logins' transactions and ending their connections needs the link's owner to be a member
of ``pg_read_all_stats`` and ``pg_signal_backend`` (``docs/link.md``, "Set-up"): without them
the call says so and ends nothing.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED, TABLE_ROLE
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link import server_trust
from dealer_link.sql_edit import edited, released

STUCK_S = 2
"""A single statement holding a link lock longer than this is stuck."""
LINES_PER_MINUTE = 20
"""Lines one table's stuck connections may write in ``link_admin_log`` a minute."""

SCHEMA: tuple[str, ...] = (
    # the table logins' connections stuck holding a link or pit table's lock
    f"""
    CREATE FUNCTION link_lock_holders() RETURNS TABLE (pid integer, table_id text,
        why text) LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT DISTINCT a.pid, t.table_id,
            CASE WHEN a.state LIKE 'idle in transaction%'
                   OR a.xact_start < a.query_start
                 THEN 'held the link''s locks in a transaction of its own'
                 ELSE 'held the link''s locks in one statement for over {STUCK_S} s' END
        FROM pg_locks l
        JOIN pg_database d ON d.oid = l.database AND d.datname = current_database()
        JOIN pg_class c ON c.oid = l.relation
        JOIN pg_stat_activity a ON a.pid = l.pid
        JOIN link_table_logins t ON t.login = a.usename
        WHERE l.granted AND l.pid <> pg_backend_pid()
          AND (c.relname LIKE 'link\\_%' OR c.relname LIKE 'pit\\_%')
          AND (a.state LIKE 'idle in transaction%' OR a.xact_start < a.query_start
               OR a.query_start < clock_timestamp() - interval '{STUCK_S} seconds')
          AND NOT EXISTS (  -- waiting in line behind a holder of the link's locks
              SELECT 1 FROM unnest(pg_blocking_pids(l.pid)) AS b(pid)
              JOIN pg_locks bl ON bl.pid = b.pid AND bl.granted
              JOIN pg_class bc ON bc.oid = bl.relation
              WHERE bc.relname LIKE 'link\\_%' OR bc.relname LIKE 'pit\\_%')
    $$
    """,
    f"""
    CREATE FUNCTION link_end_stuck(p_link text) RETURNS text LANGUAGE plpgsql {_DEFINER}
    AS $$
    DECLARE
        r record;
        said text[] := '{{}}';
        line text;
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
        IF NOT pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER')
           OR NOT pg_has_role(current_user, 'pg_signal_backend', 'MEMBER') THEN
            RETURN 'cannot look for a stuck connection: the link''s owner needs '
                'pg_read_all_stats and pg_signal_backend (docs/link.md, "Set-up")';
        END IF;
        FOR r IN SELECT * FROM link_lock_holders() LOOP
            IF pg_terminate_backend(r.pid) THEN
                line := format('ended a connection of table %s that %s', r.table_id, r.why);
                said := said || line;
                IF (SELECT count(*) FROM link_admin_log a WHERE a.what = 'stuck connection'
                        AND a.detail LIKE format('ended a connection of table %s %%',
                                                 r.table_id)
                        AND a.recorded_at > clock_timestamp() - interval '1 minute')
                   < {LINES_PER_MINUTE} THEN
                    INSERT INTO link_admin_log (link, what, detail, reason)
                    VALUES (p_link, 'stuck connection', line, format(
                        'found by %s waiting for the link',
                        coalesce('table ' || link_login_table(), session_user)));
                END IF;
            END IF;
        END LOOP;
        RETURN nullif(array_to_string(said, '; '), '');
    END $$
    """,
)


ONE_STATEMENT = edited(released(SCHEMA, "FUNCTION link_lock_holders("),
                       ("a.xact_start < a.query_start",
                        "a.xact_start < a.query_start - interval '1 second'"))
"""Migration ``0009_one_statement``: a single statement is not "a transaction of its own".
A statement sent with parameters (as every table's call is, through the extended protocol)
starts its transaction a little before the statement itself, so "the transaction began
before the statement" held for every honest call, and a table that timed out ended the
others' calls in flight, each logged as stuck (an outside review: 92 of 191 such calls in
ten seconds). The transaction must have begun over a second before its statement; a
transaction of several statements is still caught while idle between them, or by its
statement running over :data:`STUCK_S` seconds."""


_SPARED = """          AND NOT EXISTS (  -- waiting in line behind a holder of the link's locks
              SELECT 1 FROM unnest(pg_blocking_pids(l.pid)) AS b(pid)
              JOIN pg_locks bl ON bl.pid = b.pid AND bl.granted
              JOIN pg_class bc ON bc.oid = bl.relation
              WHERE bc.relname LIKE 'link\\_%' OR bc.relname LIKE 'pit\\_%')"""

_ITS_TURN = """          AND NOT (  -- one statement waiting for a link or pit lock another holds
              a.xact_start >= a.query_start - interval '1 second'
              AND EXISTS (SELECT 1 FROM pg_locks w LEFT JOIN pg_class wc ON wc.oid = w.relation
                  WHERE w.pid = l.pid AND NOT w.granted
                    AND ((w.locktype IN ('relation', 'tuple')
                          AND (wc.relname LIKE 'link\\_%' OR wc.relname LIKE 'pit\\_%'))
                         OR (w.locktype = 'transactionid' AND EXISTS (  -- a row's holder
                             SELECT 1 FROM unnest(pg_blocking_pids(l.pid)) AS b(pid)
                             JOIN pg_locks bl ON bl.pid = b.pid AND bl.granted
                             JOIN pg_class bc ON bc.oid = bl.relation
                             WHERE bc.relname LIKE 'link\\_%'
                                OR bc.relname LIKE 'pit\\_%')))))"""
WAITING_ITS_TURN = edited(ONE_STATEMENT, (_SPARED, _ITS_TURN))
"""Migration ``0011_waiting_its_turn``: only a table's single statement waiting for a link or
pit lock is spared. Before it, a connection was spared when any connection it waited for held
any lock on a link table: a review's login held the meters in a transaction of its own and
waited on an advisory lock of its own second connection, which had read a link table; each
timed-out table ended only the second one, and the meters stayed held for as long as it
liked. Waiting on an advisory (or any other) lock, or in a transaction of several
statements, now spares no one."""

UNLOCKED_COPY_CHECK = edited(
    released(server_trust._SCHEMA, "FUNCTION link_check_copy("),
    ("""        SELECT db_oid INTO was FROM link_incarnation FOR UPDATE;
        IF was IS NOT DISTINCT FROM here THEN
            RETURN;
        END IF;""",
     """        SELECT db_oid INTO was FROM link_incarnation;  -- every hit's: no lock
        IF was IS NOT DISTINCT FROM here THEN
            RETURN;
        END IF;
        SELECT db_oid INTO was FROM link_incarnation FOR UPDATE;  -- a copy's first use
        IF was IS NOT DISTINCT FROM here THEN
            RETURN;
        END IF;"""))
"""Also ``0011_waiting_its_turn``: every hit of every link checked the copy with the one
server-wide ``link_incarnation`` row locked, so a table of another pit that held it (a
``link_hello`` in a transaction of its own) stalled every link's hits. The row is read
unlocked, and locked only on a restored copy's first use."""


def waiting_its_turn(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0011_waiting_its_turn`` (:data:`WAITING_ITS_TURN`,
    :data:`UNLOCKED_COPY_CHECK`)."""
    cur.execute(WAITING_ITS_TURN.encode())
    cur.execute(UNLOCKED_COPY_CHECK.encode())


def one_statement(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0009_one_statement`` (:data:`ONE_STATEMENT`)."""
    cur.execute(ONE_STATEMENT.encode())


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0006_stuck_locks`` (see the module doc)."""
    for statement in SCHEMA:
        cur.execute(statement.encode())
    for signature in ("link_lock_holders()", "link_end_stuck(text)"):
        cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    cur.execute(sql.SQL("GRANT EXECUTE ON FUNCTION link_end_stuck(text) TO {}, {}").format(
        sql.Identifier(TABLE_ROLE), sql.Identifier(ADMIN_ROLE)))
