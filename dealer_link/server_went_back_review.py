"""Migration ``0015_went_back_reviews``: the administrator looks at a "the server went back in
time" claim and says so (``dealer-console link went-back``).

A table's hello that names a hit the server lacks is a claim (``link_went_back_claims``,
migration ``0012_bounded_went_back``): a table has one standing claim a link, and all the
tables' claims move the hit numbers at most a million a day. A stolen table login can spend
that million, and an honest table's claim after a restore in place is then refused, its link
down "until the administrator has looked"; ``link audit`` names the stolen login's claim for
ever. Now the administrator, with a reason, either:

- **acknowledges** a claim the server took: looked at (a restore in place, or a login dealt
  with); ``link audit`` no longer names it;
- **grants** a claim the server refused: the administrator's own claim for that table and
  number is written, and the hit numbers go on after it, as the table's hello would have
  moved them (no further than a million past the server's last number: no restore loses
  more). The table's next hello finds its claim there ("the same number again is nothing
  new") and its link comes back. A grant is looked at, so the audit does not name it.

Each is a row of ``link_went_back_reviews`` (one a claim, append-only: a review is never
changed or taken back) and a line of ``link_admin_log``; the claims table stays append-only,
a grant adding a row. Only a link administrator's login may call :data:`REVIEW`; a table's
hello is unchanged, so everything a table's login could do before, it still can, and no more.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, HIT_GAP, REFUSED
from dealer_console.link.sql_base import DEFINER as _DEFINER

NAME = "0015_went_back_reviews"

_KEY = "x.link = p_link AND x.table_id = p_table AND x.seen_hit = p_seen"

REVIEW = f"""
    CREATE FUNCTION link_review_went_back(p_link text, p_table text, p_seen bigint,
        p_grant boolean, p_reason text) RETURNS bigint LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        w link_went_back_claims%ROWTYPE;
        r link_went_back_reviews%ROWTYPE;
        reached bigint;
        called boolean;
    BEGIN
        PERFORM link_need_admin(p_reason);
        IF p_seen IS NULL OR p_seen < 1 OR p_grant IS NULL THEN
            RAISE EXCEPTION 'a claim is a table''s hit number, 1 or more, acknowledged or '
                'granted' USING ERRCODE = '{REFUSED}';
        END IF;
        LOCK TABLE link_went_back_claims IN SHARE ROW EXCLUSIVE MODE;  -- as a hello's claim
        SELECT * INTO r FROM link_went_back_reviews x WHERE {_KEY};
        IF FOUND THEN
            RAISE EXCEPTION 'table %''s claim of hit number % on link % was % by % at %: '
                'nothing changed', p_table, p_seen, p_link, r.verdict, r.actor,
                r.recorded_at USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT * INTO w FROM link_went_back_claims x WHERE {_KEY};
        IF NOT p_grant THEN
            IF NOT FOUND THEN
                RAISE EXCEPTION 'table % has made no claim of hit number % on link %: '
                    '"dealer-console link went-back" lists the claims; one the server '
                    'refused is granted (--grant), not acknowledged', left(p_table, 64),
                    p_seen, left(p_link, 64) USING ERRCODE = '{REFUSED}';
            END IF;
            INSERT INTO link_went_back_reviews (link, table_id, seen_hit, verdict, reason)
                VALUES (p_link, p_table, p_seen, 'acknowledged', p_reason);
            INSERT INTO link_admin_log (link, what, detail, reason) VALUES (p_link,
                'went back reviewed', format('table %s''s claim of hit number %s (the '
                'numbers stood at %s): acknowledged', p_table, p_seen, w.reached), p_reason);
            RETURN w.reached;
        END IF;
        IF FOUND THEN
            RAISE EXCEPTION 'the server took table %''s claim of hit number % on link % '
                'already (at %): acknowledge it instead', p_table, p_seen, p_link,
                w.claimed_at USING ERRCODE = '{REFUSED}';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM link_table_links l WHERE l.table_id = p_table
                       AND l.link = p_link) THEN
            RAISE EXCEPTION 'table % is not on link % (or the link is not installed): its '
                'hello would be refused whatever it claims', left(p_table, 64),
                left(p_link, 64) USING ERRCODE = '{REFUSED}';
        END IF;
        IF EXISTS (SELECT 1 FROM link_hits h WHERE h.hit_id = p_seen AND h.link = p_link
                   AND h.table_id = p_table) THEN
            RAISE EXCEPTION 'hit number % is table %''s own on the server: its hello names '
                'it with no claim, nothing to grant', p_seen, p_table
                USING ERRCODE = '{REFUSED}';
        END IF;
        PERFORM link_check_copy();  -- a restored copy's numbers first go on a million
        SELECT s.last_value, s.is_called INTO reached, called FROM link_hits_hit_id_seq s;
        IF NOT called THEN
            reached := 0;
        END IF;
        IF p_seen > reached + {HIT_GAP} THEN
            RAISE EXCEPTION 'hit number % is more than % beyond the last number this server '
                'gave (%): no restore loses that many hits; not granted', p_seen, {HIT_GAP},
                reached USING ERRCODE = '{REFUSED}';
        END IF;
        INSERT INTO link_went_back_claims (link, table_id, seen_hit, reached)
            VALUES (p_link, p_table, p_seen, reached);
        INSERT INTO link_went_back_reviews (link, table_id, seen_hit, verdict, reason)
            VALUES (p_link, p_table, p_seen, 'granted', p_reason);
        IF p_seen > reached THEN  -- as the table's hello would: none of its numbers repeats
            PERFORM setval('link_hits_hit_id_seq', p_seen);
        END IF;
        INSERT INTO link_admin_log (link, what, detail, reason) VALUES (p_link,
            'went back reviewed', format('table %s''s claim of hit number %s granted: the hit '
            'numbers go on after %s (they stood at %s)', p_table, p_seen,
            greatest(p_seen, reached), reached), p_reason);
        RETURN reached;
    END $$
    """

SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE link_went_back_reviews (
        link text NOT NULL,
        table_id text NOT NULL,
        seen_hit bigint NOT NULL,
        verdict text NOT NULL CHECK (verdict IN ('acknowledged', 'granted')),
        actor text NOT NULL DEFAULT session_user,
        reason text NOT NULL CHECK (length(btrim(reason)) > 0),
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (link, table_id, seen_hit),
        FOREIGN KEY (link, table_id, seen_hit)
            REFERENCES link_went_back_claims (link, table_id, seen_hit)
    )
    """,
    "CREATE TRIGGER link_went_back_reviews_append_only BEFORE UPDATE OR DELETE ON "
    "link_went_back_reviews FOR EACH ROW EXECUTE FUNCTION link_append_only()",
    "CREATE TRIGGER link_went_back_reviews_no_truncate BEFORE TRUNCATE ON "
    "link_went_back_reviews FOR EACH STATEMENT EXECUTE FUNCTION link_no_truncate()",
    REVIEW,
)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0015_went_back_reviews`` (see the module doc)."""
    for statement in SCHEMA:
        cur.execute(statement.encode())
    admin, auditor = sql.Identifier(ADMIN_ROLE), sql.Identifier("dealer_link_auditor")
    cur.execute(b"REVOKE ALL ON TABLE link_went_back_reviews FROM PUBLIC")
    cur.execute(b"ALTER TABLE link_went_back_reviews ENABLE ROW LEVEL SECURITY")
    cur.execute(sql.SQL("GRANT SELECT ON link_went_back_reviews TO {}, {}").format(admin,
                                                                                  auditor))
    cur.execute(sql.SQL("CREATE POLICY link_read ON link_went_back_reviews FOR SELECT TO {}, "
                        "{} USING (true)").format(admin, auditor))
    signature = "link_review_went_back(text, text, bigint, boolean, text)"
    cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO {{}}").format(admin))
