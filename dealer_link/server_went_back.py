"""Migration ``0012_bounded_went_back``: a table's "the server went back in time" is bounded.

A table's hello names the last link hit it recorded; a number the server does not have means
the server was restored from an older copy, and its numbering goes on after the table's
(``link_hello``, ``0004_bounded_hello`` bounds one jump to :data:`HIT_GAP`). Nothing bounded
how often: an outside review sent 300 hellos, each a million past the last, and moved every
table's hit numbers to 300,000,005, with 300 lines in ``link_admin_log`` telling the
administrator to put back hits no one lost, and ``link audit`` said OK. Now each such claim
is kept (``link_went_back_claims``) and:

- a table has one standing claim a link: it says its number again freely, but another
  number only after a hit of its own numbered after the first (an honest table's last hit
  changes only so), else refused;
- all tables together move the numbering at most :data:`HIT_GAP` a day past where it stood
  before the day's first move;
- ``link audit`` names each claim that moved the numbering to a hit the server does not
  hold (a restored copy, a new database, numbers after the next million and is moved by no
  honest table: only a restore in place, or a made-up number, does it).
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, HIT_GAP, REFUSED
from dealer_link import server_links
from dealer_link.sql_edit import edited, released

NAME = "0012_bounded_went_back"

_MOVE = """        IF p_seen_hit IS NOT NULL AND p_seen_hit > reached THEN
            -- numbers go on after the table's, never repeating one it holds
            PERFORM setval('link_hits_hit_id_seq', p_seen_hit);
        END IF;
"""

_CLAIM = f"""        IF p_seen_hit IS NOT NULL AND NOT EXISTS (SELECT 1 FROM link_hits h
                WHERE h.hit_id = p_seen_hit AND h.link = p_link AND h.table_id = me)
           AND NOT EXISTS (SELECT 1 FROM link_went_back_claims w WHERE w.link = p_link
                AND w.table_id = me AND w.seen_hit = p_seen_hit) THEN
            LOCK TABLE link_went_back_claims IN SHARE ROW EXCLUSIVE MODE;  -- one at a time
            SELECT w.seen_hit INTO standing FROM link_went_back_claims w
                WHERE w.link = p_link AND w.table_id = me AND NOT EXISTS (
                    SELECT 1 FROM link_hits h WHERE h.link = p_link AND h.table_id = me
                    AND h.hit_id > w.seen_hit) LIMIT 1;
            IF FOUND THEN
                RAISE EXCEPTION 'table % already said the link server had gone back in time '
                    '(its hit number %) and has had no hit since: another number (%) is not '
                    'accepted; the link administrator checks that table''s database '
                    '("dealer-console link reconcile")', me, standing, p_seen_hit
                    USING ERRCODE = '{REFUSED}';
            END IF;
            SELECT min(w.reached) INTO base FROM link_went_back_claims w
                WHERE w.seen_hit > w.reached
                AND w.claimed_at > clock_timestamp() - interval '1 day';
            IF p_seen_hit > coalesce(base, reached) + {HIT_GAP} THEN
                RAISE EXCEPTION 'table % says it recorded link hit number %: the tables'' '
                    'hellos may move the hit numbers at most % a day past where they stood '
                    '(%): not accepted; the link administrator checks that table''s database '
                    '("dealer-console link reconcile")', me, p_seen_hit, {HIT_GAP},
                    coalesce(base, reached) USING ERRCODE = '{REFUSED}';
            END IF;
            INSERT INTO link_went_back_claims (link, table_id, seen_hit, reached)
                VALUES (p_link, me, p_seen_hit, reached);
        END IF;
"""

HELLO = edited(released(server_links.ON_ITS_LINK, "FUNCTION link_hello("),
               (_MOVE, _CLAIM + _MOVE),
               ("        called boolean;\n",
                "        called boolean;\n        standing bigint;\n        base bigint;\n"))

SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE link_went_back_claims (
        link text NOT NULL,
        table_id text NOT NULL,
        seen_hit bigint NOT NULL,
        reached bigint NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (link, table_id, seen_hit)
    )
    """,
    "CREATE TRIGGER link_went_back_claims_append_only BEFORE UPDATE OR DELETE ON "
    "link_went_back_claims FOR EACH ROW EXECUTE FUNCTION link_append_only()",
    "CREATE TRIGGER link_went_back_claims_no_truncate BEFORE TRUNCATE ON link_went_back_claims "
    "FOR EACH STATEMENT EXECUTE FUNCTION link_no_truncate()",
    HELLO,
)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0012_bounded_went_back`` (see the module doc)."""
    for statement in SCHEMA:
        cur.execute(statement.encode())
    admin, auditor = sql.Identifier(ADMIN_ROLE), sql.Identifier("dealer_link_auditor")
    cur.execute(b"REVOKE ALL ON TABLE link_went_back_claims FROM PUBLIC")
    cur.execute(b"ALTER TABLE link_went_back_claims ENABLE ROW LEVEL SECURITY")
    cur.execute(sql.SQL("GRANT SELECT ON link_went_back_claims TO {}, {}").format(admin,
                                                                                 auditor))
    cur.execute(sql.SQL("CREATE POLICY link_read ON link_went_back_claims FOR SELECT TO {}, "
                        "{} USING (true)").format(admin, auditor))
