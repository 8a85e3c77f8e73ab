"""Migration ``0016_accepted_wagers``: the administrator takes a table's honest wagers that the
play bound refuses for good (``dealer-console link accept-wagers``).

The bound (migration ``0013_bounded_play``) refuses, for good, the wagers of a table whose
PC's clock was more than 30 minutes slow when it joined the link or stepped back more than
30 minutes after it sent, and of a table whose hour a stolen login filled. The table's sender
sends its outbox in order and a call is taken whole or not at all, so the first such wager
keeps every later one out and the table's link down for ever (no jackpot wagers at its START
GAME). Now the administrator reads the table's own database (its outbox: the evidence of what
it took) and, with a reason, accepts exactly the wagers the server lacks of that table on that
link (:data:`ACCEPT`: ``link_accepted_wagers``, a line in ``link_admin_log``). Each is
named by its key, its amount and the time text the table wrote, and the table's own sender
then delivers them through ``link_contribute`` as any wager (the meters, the ledger and the
audit's arithmetic unchanged); :data:`CHECK_PLAY` lets exactly those through:

- a wager the administrator accepted is not held to the times (not before the table joined,
  not behind its latest) nor to the hour's count: the bound's refusal is what was overridden;
- every other wager is held to the bound as before, counted with the accepted ones (a new
  wager in an hour they filled is refused), so a stolen login gains nothing by an
  acceptance: it can only send the very wagers the administrator accepted;
- an hour is counted only where the call adds a wager not accepted: a call that adds nothing
  there (the sender sending again a batch the server took, after a lost answer) is not
  refused for an hour the administrator's acceptance filled.

:data:`ACCEPT` refuses (nothing written) a table not on the link, an amount not the game's,
a time that is no time or is ahead of the server's clock (taken by itself once the server's
clock reaches it), more than :data:`~dealer_link.server_play_bound.MOST_A_CALL` wagers at
once, a set that by itself plays more rounds in an hour than the link's bound (no table's own
play), and a wager accepted before with another time. Only an administrator's login may call
it; a table's login has no right on the table. ``link audit`` (and ``link rounds-an-hour``,
lowering the bound) counts a table's hours without the wagers the administrator accepted
(they are the administrator's, kept with who and why).
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link.server_play_bound import _SLACK_SQL, ACCEPTED_PAST_THE_BOUND, MOST_A_CALL
from dealer_link.server_play_bound import CHECK_PLAY as _RELEASED
from dealer_link.server_rounds_an_hour import SET_ROUNDS as _SET_ROUNDS
from dealer_link.sql_edit import edited

NAME = "0016_accepted_wagers"

_ACCEPTED = """NOT EXISTS (SELECT 1 FROM link_accepted_wagers a
                WHERE a.link = p_link AND a.table_id = me AND a.round_id = u.r
                AND a.deal_no = u.d AND a.spot = u.sp AND a.seat = u.se AND a.taken_at = u.tk)"""
_HELD = """NOT EXISTS (SELECT 1 FROM link_contributions c WHERE c.link = p_link
                AND c.table_id = me AND c.round_id = u.r AND c.deal_no = u.d
                AND c.spot = u.sp AND c.seat = u.se)"""

CHECK_PLAY = edited(
    _RELEASED,
    ("                AND c.spot = u.sp AND c.seat = u.se)\n        ) n WHERE",
     "                AND c.spot = u.sp AND c.seat = u.se)\n"
     f"            AND {_ACCEPTED}\n        ) n WHERE"),
    ("        ) x WHERE x.hour IN (SELECT date_trunc('hour', link_claimed_time(tk) AT TIME "
     "ZONE 'UTC')\n                             FROM unnest(p_taken) tk)",
     f"""        ) x WHERE x.hour IN (
            SELECT date_trunc('hour', link_claimed_time(u.tk) AT TIME ZONE 'UTC')
            FROM unnest(p_round, p_deal, p_spot, p_seat, p_taken) AS u(r, d, sp, se, tk)
            WHERE {_HELD}
            AND {_ACCEPTED})"""))
"""``link_check_play`` letting through exactly the wagers the administrator accepted."""

_FROM = "                FROM link_contributions c WHERE c.link = p_link\n"
SET_ROUNDS = edited(_SET_ROUNDS,
                    (_FROM, _FROM + f"                AND NOT {ACCEPTED_PAST_THE_BOUND}\n"))
"""``link rounds-an-hour`` holds a lower bound to the table's play as ``link audit`` counts
it: without the wagers the administrator accepted past the bound."""

ACCEPT = f"""
    CREATE FUNCTION link_accept_wagers(p_link text, p_table text, p_round bigint[],
        p_deal integer[], p_spot integer[], p_seat integer[], p_wager bigint[],
        p_taken text[], p_reason text) RETURNS integer LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        g link_games%ROWTYPE;
        n integer := coalesce(cardinality(p_round), 0);
        bad record;
        added record;
    BEGIN
        PERFORM link_need_admin(p_reason);
        SELECT * INTO g FROM link_games WHERE link = p_link;
        IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM link_table_links l
                                    WHERE l.table_id = p_table AND l.link = p_link) THEN
            RAISE EXCEPTION 'table % is not on link % (or the link is not installed): its '
                'sender could deliver nothing', left(p_table, 64), left(p_link, 64)
                USING ERRCODE = '{REFUSED}';
        END IF;
        IF n NOT BETWEEN 1 AND {MOST_A_CALL} OR n <> ALL (ARRAY[cardinality(p_deal),
                cardinality(p_spot), cardinality(p_seat), cardinality(p_wager),
                cardinality(p_taken)]) THEN
            RAISE EXCEPTION 'from 1 to {MOST_A_CALL} wagers are accepted at once, each '
                'with its round, deal, spot, seat, amount and time, not %', n
                USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT u.r, u.w, u.tk, link_claimed_time(u.tk) AS claimed INTO bad
            FROM unnest(p_round, p_deal, p_spot, p_seat, p_wager, p_taken)
                AS u(r, d, sp, se, w, tk)
            WHERE u.w IS DISTINCT FROM g.wager_cents OR u.sp NOT IN (1, 2)
                OR u.se NOT BETWEEN 1 AND 7 OR u.r IS NULL OR u.d IS NULL
                OR link_claimed_time(u.tk) IS NULL
                OR link_claimed_time(u.tk) > clock_timestamp() + {_SLACK_SQL}
            ORDER BY 4 NULLS FIRST LIMIT 1;
        IF FOUND AND bad.w IS DISTINCT FROM g.wager_cents THEN
            RAISE EXCEPTION 'table % round %: a wager of % cents, not the % cents link % '
                'takes: not accepted', p_table, bad.r, bad.w, g.wager_cents, p_link
                USING ERRCODE = '{REFUSED}';
        ELSIF FOUND AND bad.claimed IS NULL THEN
            RAISE EXCEPTION 'table % round %: its wager''s time (%) is not a time a console '
                'records (no console wrote it): not accepted', p_table, bad.r, left(bad.tk, 40)
                USING ERRCODE = '{REFUSED}';
        ELSIF FOUND AND bad.claimed > clock_timestamp() + {_SLACK_SQL} THEN
            RAISE EXCEPTION 'table % round %: its wager was taken at % by the table''s clock, '
                'ahead of the link server''s (%): the server takes it by itself once its '
                'clock reaches it; set the table PC''s clock right', p_table, bad.r,
                bad.claimed, clock_timestamp() USING ERRCODE = '{REFUSED}';
        ELSIF FOUND THEN
            RAISE EXCEPTION 'table % round %: no round, deal, spot or seat a table has: not '
                'accepted', p_table, bad.r USING ERRCODE = '{REFUSED}';
        END IF;
        IF (SELECT count(DISTINCT (r, d, sp, se)) FROM unnest(p_round, p_deal, p_spot,
                p_seat) AS u(r, d, sp, se)) <> n THEN
            RAISE EXCEPTION 'a wager named twice: not accepted' USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT x.hour, count(*) AS rounds INTO bad FROM (
            SELECT DISTINCT date_trunc('hour', link_claimed_time(u.tk) AT TIME ZONE 'UTC')
                AS hour, u.r, u.d FROM unnest(p_round, p_deal, p_taken) AS u(r, d, tk)
        ) x GROUP BY x.hour HAVING count(*) > g.rounds_an_hour ORDER BY x.hour LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'table %: % rounds in the hour from % UTC by its clock among the '
                'wagers to accept, more than the % an hour a table of link % plays: no '
                'table''s own play; not accepted', p_table, bad.rounds, bad.hour,
                g.rounds_an_hour, p_link USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT u.r, a.taken_at, u.tk INTO bad
            FROM unnest(p_round, p_deal, p_spot, p_seat, p_taken) AS u(r, d, sp, se, tk)
            JOIN link_accepted_wagers a ON a.link = p_link AND a.table_id = p_table
                AND a.round_id = u.r AND a.deal_no = u.d AND a.spot = u.sp AND a.seat = u.se
            WHERE a.taken_at <> u.tk LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'table % round %: accepted before as taken at %, now as %: not '
                'accepted', p_table, bad.r, left(bad.taken_at, 40), left(bad.tk, 40)
                USING ERRCODE = '{REFUSED}';
        END IF;
        WITH newly AS (
            INSERT INTO link_accepted_wagers (link, table_id, round_id, deal_no, spot, seat,
                                              wager_cents, taken_at, reason)
            SELECT p_link, p_table, u.r, u.d, u.sp, u.se, u.w, u.tk, p_reason
            FROM unnest(p_round, p_deal, p_spot, p_seat, p_wager, p_taken)
                AS u(r, d, sp, se, w, tk)
            WHERE NOT EXISTS (SELECT 1 FROM link_contributions c WHERE c.link = p_link
                AND c.table_id = p_table AND c.round_id = u.r AND c.deal_no = u.d
                AND c.spot = u.sp AND c.seat = u.se)
            ON CONFLICT DO NOTHING
            RETURNING round_id, wager_cents, taken_at
        )
        SELECT count(*) AS wagers, sum(wager_cents) AS cents, min(round_id) AS first,
               max(round_id) AS last, min(link_claimed_time(taken_at)) AS since,
               max(link_claimed_time(taken_at)) AS until INTO added FROM newly;
        IF added.wagers > 0 THEN
            INSERT INTO link_admin_log (link, what, detail, reason) VALUES (p_link,
                'accepted wagers', format('table %s: %s wagers (%s cents) of rounds %s to %s, '
                'taken %s to %s by its clock: accepted past the play bound', p_table,
                added.wagers, added.cents, added.first, added.last, added.since, added.until),
                p_reason);
        END IF;
        RETURN added.wagers;
    END $$
    """

SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE link_accepted_wagers (
        link text NOT NULL REFERENCES link_games (link),
        table_id text NOT NULL,
        round_id bigint NOT NULL,
        deal_no integer NOT NULL,
        spot integer NOT NULL CHECK (spot IN (1, 2)),
        seat integer NOT NULL CHECK (seat BETWEEN 1 AND 7),
        wager_cents bigint NOT NULL CHECK (wager_cents > 0),
        taken_at text NOT NULL,
        actor text NOT NULL DEFAULT session_user,
        reason text NOT NULL CHECK (length(btrim(reason)) > 0),
        accepted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (link, table_id, round_id, deal_no, spot, seat)
    )
    """,
    "CREATE TRIGGER link_accepted_wagers_append_only BEFORE UPDATE OR DELETE ON "
    "link_accepted_wagers FOR EACH ROW EXECUTE FUNCTION link_append_only()",
    "CREATE TRIGGER link_accepted_wagers_no_truncate BEFORE TRUNCATE ON "
    "link_accepted_wagers FOR EACH STATEMENT EXECUTE FUNCTION link_no_truncate()",
    CHECK_PLAY,
    SET_ROUNDS,
    ACCEPT,
)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0016_accepted_wagers`` (see the module doc)."""
    for statement in SCHEMA:
        cur.execute(statement.encode())
    admin, auditor = sql.Identifier(ADMIN_ROLE), sql.Identifier("dealer_link_auditor")
    cur.execute(b"REVOKE ALL ON TABLE link_accepted_wagers FROM PUBLIC")
    cur.execute(b"ALTER TABLE link_accepted_wagers ENABLE ROW LEVEL SECURITY")
    cur.execute(sql.SQL("GRANT SELECT ON link_accepted_wagers TO {}, {}").format(admin,
                                                                                auditor))
    cur.execute(sql.SQL("CREATE POLICY link_read ON link_accepted_wagers FOR SELECT TO {}, "
                        "{} USING (true)").format(admin, auditor))
    signature = ("link_accept_wagers(text, text, bigint[], integer[], integer[], integer[], "
                 "bigint[], text[], text)")
    cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO {{}}").format(admin))
