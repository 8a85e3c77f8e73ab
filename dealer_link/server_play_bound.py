"""Migration ``0013_bounded_play``: one table's login adds to a link's meters at most what a
table playing flat out could.

Before it, ``link_contribute`` took any wagers a table's login sent: an outside review sent
200,000 made-up rounds in one call, the shared meter rose by $30,000 and the next honest hit
on the link (another table's) paid it; ``link audit`` said OK. The server cannot see the
cards, but it can hold what a table sends to what a table can play. A table's wagers carry
the time its own clock recorded them (``taken_at``); the server keeps it read
(``claimed_at``) and, for each wager it has not had before:

- the time is a time (ISO 8601 with its zone, as every console writes it);
- it is not more than :data:`SLACK` ahead of the server's clock (a table PC's clock a little
  fast is taken; one far ahead waits until the server's clock reaches it);
- it is not more than :data:`SLACK` before the table was put on the link, nor before the
  latest wager the server took from it (a table sends its wagers in the order it took them):
  a made-up wager cannot fill the hours the table did not play;
- the table's rounds (a round number with its deal: up to 7 seats on 2 spots each) in any
  hour of its claimed time stay within the link's ``rounds_an_hour`` (:data:`ROUNDS_AN_HOUR`
  unless its administrator sets another);
- one call sends at most :data:`MOST_A_CALL` wagers (the sender sends 500).

So a stolen login can add, from the moment it is used, what a table playing every hour flat
out adds (and that table's hours then fill, which is seen), while a table's honest backlog
(wagers owed when it closed, or sent again after a restore) keeps the times it was played and
is taken whenever it comes. A refusal is ``REFUSED`` in words, nothing of the call accepted;
the table's sender keeps the wagers owed and its link down with the server's reason.
``link audit`` names a table whose accepted wagers do not fit (those taken before this
migration too: :func:`implausible`).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta

import psycopg

from dealer_console.link.sql_base import REFUSED
from dealer_link import server_links
from dealer_link.sql_edit import edited, released

NAME = "0013_bounded_play"

ROUNDS_AN_HOUR = 120
"""The most rounds a table plays in an hour by default: one every 30 s, faster than a dealer
deals, sets and settles seven hands (a busy table plays some 25 an hour round the clock)."""
SLACK = timedelta(minutes=30)
"""How far a table PC's clock may be off the server's, or step back, and its wagers taken."""
MOST_A_CALL = 5000
"""The most wagers one call may send (the sender sends at most 500 at a time)."""

_SLACK_SQL = f"interval '{int(SLACK.total_seconds())} seconds'"

CLAIMED_TIME = """
    CREATE FUNCTION link_claimed_time(p_taken text) RETURNS timestamptz LANGUAGE plpgsql
    STABLE SET search_path = pg_catalog, public, pg_temp AS $$
    BEGIN  -- a console writes ISO 8601 with its zone; anything else is no time
        IF p_taken IS NULL OR p_taken !~
           '^\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,6})?(Z|[+-]\\d\\d:?\\d\\d)$' THEN
            RETURN NULL;
        END IF;
        RETURN p_taken::timestamptz;
    EXCEPTION WHEN OTHERS THEN  -- a 30 February
        RETURN NULL;
    END $$
    """

CHECK_PLAY = f"""
    CREATE FUNCTION link_check_play(p_link text, me text, p_round bigint[], p_deal integer[],
        p_spot integer[], p_seat integer[], p_taken text[]) RETURNS void LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp AS $$
    DECLARE
        most integer;
        since timestamptz;
        latest timestamptz;
        bad record;
    BEGIN
        IF cardinality(p_round) > {MOST_A_CALL} THEN
            RAISE EXCEPTION 'table %: % wagers in one call, more than the % a table sends at '
                'once', me, cardinality(p_round), {MOST_A_CALL} USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT g.rounds_an_hour INTO most FROM link_games g WHERE g.link = p_link;
        SELECT least(t.first_contact, l.added_at) INTO since FROM link_tables t
            LEFT JOIN link_table_links l ON l.table_id = t.table_id AND l.link = t.link
            WHERE t.link = p_link AND t.table_id = me;
        SELECT max(c.claimed_at) INTO latest FROM link_contributions c
            WHERE c.link = p_link AND c.table_id = me;
        IF latest IS NULL THEN  -- only wagers from before this bound: when they came
            SELECT max(c.accepted_at) INTO latest FROM link_contributions c
                WHERE c.link = p_link AND c.table_id = me;
        END IF;
        SELECT n.r, n.tk, n.claimed INTO bad FROM (
            SELECT u.r, u.tk, link_claimed_time(u.tk) AS claimed
            FROM unnest(p_round, p_deal, p_spot, p_seat, p_taken) AS u(r, d, sp, se, tk)
            WHERE NOT EXISTS (SELECT 1 FROM link_contributions c WHERE c.link = p_link
                AND c.table_id = me AND c.round_id = u.r AND c.deal_no = u.d
                AND c.spot = u.sp AND c.seat = u.se)
        ) n WHERE n.claimed IS NULL OR n.claimed > clock_timestamp() + {_SLACK_SQL}
            OR n.claimed < since - {_SLACK_SQL} OR n.claimed < latest - {_SLACK_SQL}
        ORDER BY n.claimed NULLS FIRST LIMIT 1;
        IF FOUND AND bad.claimed IS NULL THEN
            RAISE EXCEPTION 'table % round %: its wager''s time (%) is not a time a console '
                'records', me, bad.r, left(bad.tk, 40) USING ERRCODE = '{REFUSED}';
        ELSIF FOUND AND bad.claimed > clock_timestamp() + {_SLACK_SQL} THEN
            RAISE EXCEPTION 'table % round %: its wager was taken at % by the table''s clock, '
                'ahead of the link server''s (%) by more than %: it is taken once the '
                'server''s clock reaches it; set the table PC''s clock right', me, bad.r,
                bad.claimed, clock_timestamp(), {_SLACK_SQL} USING ERRCODE = '{REFUSED}';
        ELSIF FOUND AND bad.claimed < since - {_SLACK_SQL} THEN
            RAISE EXCEPTION 'table % round %: its wager was taken at % by the table''s clock, '
                'before the table was put on link % (%)', me, bad.r, bad.claimed, p_link,
                since USING ERRCODE = '{REFUSED}';
        ELSIF FOUND THEN
            RAISE EXCEPTION 'table % round %: its wager was taken at % by the table''s clock, '
                'more than % before the latest the link took from it (%): a table sends its '
                'wagers in the order it took them', me, bad.r, bad.claimed, {_SLACK_SQL},
                latest USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT x.hour, count(*) AS rounds INTO bad FROM (
            SELECT date_trunc('hour', c.claimed_at AT TIME ZONE 'UTC') AS hour, c.round_id,
                   c.deal_no
            FROM link_contributions c WHERE c.link = p_link AND c.table_id = me
                AND c.claimed_at >= (SELECT min(link_claimed_time(tk)) FROM unnest(p_taken) tk)
                                    - interval '1 hour'
                AND c.claimed_at <= (SELECT max(link_claimed_time(tk)) FROM unnest(p_taken) tk)
                                    + interval '1 hour'
            UNION
            SELECT date_trunc('hour', link_claimed_time(u.tk) AT TIME ZONE 'UTC'), u.r, u.d
            FROM unnest(p_round, p_deal, p_taken) AS u(r, d, tk)
        ) x WHERE x.hour IN (SELECT date_trunc('hour', link_claimed_time(tk) AT TIME ZONE 'UTC')
                             FROM unnest(p_taken) tk)
        GROUP BY x.hour HAVING count(*) > most ORDER BY x.hour LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'table %: % rounds taken in the hour from % UTC by its clock, more '
                'than the % an hour a table of link % plays; the link administrator checks '
                'that table''s login and database ("dealer-console link reconcile")', me,
                bad.rounds, bad.hour, most, p_link USING ERRCODE = '{REFUSED}';
        END IF;
    END $$
    """

CONTRIBUTE = edited(
    released(server_links.ON_ITS_LINK, "FUNCTION link_contribute("),
    ("    WITH input AS (",
     "    PERFORM link_check_play(p_link, me, p_round, p_deal, p_spot, p_seat, p_taken);\n"
     "    WITH input AS ("),
    ("                                        wager_cents, taken_at)\n"
     "        SELECT p_link, me, r, d, sp, se, w, tk FROM input ORDER BY ord",
     "                                        wager_cents, taken_at, claimed_at)\n"
     "        SELECT p_link, me, r, d, sp, se, w, tk, link_claimed_time(tk) FROM input\n"
     "        ORDER BY ord"))

SCHEMA: tuple[str, ...] = (
    f"ALTER TABLE link_games ADD COLUMN rounds_an_hour integer NOT NULL "
    f"DEFAULT {ROUNDS_AN_HOUR} CHECK (rounds_an_hour > 0)",
    "ALTER TABLE link_contributions ADD COLUMN claimed_at timestamptz",
    "CREATE INDEX link_contributions_claimed ON link_contributions (link, table_id, "
    "claimed_at)",
    CLAIMED_TIME,
    CHECK_PLAY,
    "REVOKE ALL ON FUNCTION link_claimed_time(text) FROM PUBLIC",
    "REVOKE ALL ON FUNCTION link_check_play(text, text, bigint[], integer[], integer[], "
    "integer[], text[]) FROM PUBLIC",
    CONTRIBUTE,
)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0013_bounded_play`` (see the module doc)."""
    for statement in SCHEMA:
        cur.execute(statement.encode())


ACCEPTED_PAST_THE_BOUND = """EXISTS (SELECT 1 FROM link_accepted_wagers a
    WHERE a.link = c.link AND a.table_id = c.table_id AND a.round_id = c.round_id
    AND a.deal_no = c.deal_no AND a.spot = c.spot AND a.seat = c.seat
    AND a.taken_at = c.taken_at)"""
"""Contribution ``c`` is one the administrator accepted past the bound (migration
``0016_accepted_wagers``, ``link accept-wagers``): the administrator's, kept with who and why,
not counted as the table's play."""


def _when(taken: str) -> datetime | None:
    """A wager's time as its console wrote it (None: not a time with its zone)."""
    try:
        at = datetime.fromisoformat(taken)
    except ValueError:
        return None
    return at if at.tzinfo is not None else None


_HOURS = f"""
SELECT c.link, c.table_id, date_trunc('hour', c.claimed_at AT TIME ZONE 'UTC'),
       count(DISTINCT (c.round_id, c.deal_no)), g.rounds_an_hour
FROM link_contributions c JOIN link_games g ON g.link = c.link
WHERE c.claimed_at IS NOT NULL AND NOT {ACCEPTED_PAST_THE_BOUND} GROUP BY 1, 2, 3, 5
HAVING count(DISTINCT (c.round_id, c.deal_no)) > g.rounds_an_hour
"""
_BEFORE = """
SELECT c.link, c.table_id, c.round_id, c.deal_no, c.taken_at, c.accepted_at, g.rounds_an_hour
FROM link_contributions c JOIN link_games g ON g.link = c.link WHERE c.claimed_at IS NULL
"""


def implausible(cur: psycopg.Cursor[tuple[object, ...]]) -> list[str]:
    """Each table whose accepted wagers no table could have played: more rounds in an hour of
    its clock than its link's bound; and, of those taken before this migration, a time that is
    no time or was ahead of the server's when it came. One line a table and link."""
    over: dict[tuple[str, str], list[tuple[datetime, int, int]]] = defaultdict(list)
    cur.execute(_HOURS.encode())
    for link, table, hour, rounds, most in cur.fetchall():
        assert isinstance(hour, datetime)
        over[(str(link), str(table))].append((hour, int(str(rounds)), int(str(most))))
    old: dict[tuple[str, str, datetime], set[tuple[int, int]]] = defaultdict(set)
    no_time: dict[tuple[str, str], int] = defaultdict(int)
    ahead: dict[tuple[str, str], int] = defaultdict(int)
    most_of: dict[str, int] = {}
    cur.execute(_BEFORE.encode())
    for link, table, round_id, deal, taken, accepted, most in cur.fetchall():
        key = (str(link), str(table))
        most_of[key[0]] = int(str(most))
        at = _when(str(taken))
        if at is None:
            no_time[key] += 1
            continue
        if isinstance(accepted, datetime) and at > accepted + SLACK:
            ahead[key] += 1
        hour = at.astimezone(UTC).replace(minute=0, second=0, microsecond=0, tzinfo=None)
        old[(*key, hour)].add((int(str(round_id)), int(str(deal))))
    for (link, table, hour), rounds in old.items():
        if len(rounds) > most_of[link]:
            over[(link, table)].append((hour, len(rounds), most_of[link]))
    problems: list[str] = []
    for key in sorted(set(over) | set(no_time) | set(ahead)):
        link, table = key
        said: list[str] = []
        if over.get(key):
            hour, rounds, most = max(over[key], key=lambda h: h[1])
            said.append(f"more rounds than the {most} an hour a table plays in "
                        f"{len(over[key])} hour(s) of its clock (the most: {rounds} in the "
                        f"hour from {hour:%Y-%m-%d %H:00} UTC)")
        if no_time.get(key):
            said.append(f"{no_time[key]} wager(s) with no time a console records")
        if ahead.get(key):
            said.append(f"{ahead[key]} wager(s) taken by its clock more than "
                        f"{int(SLACK.total_seconds() // 60)} minutes after the server took them")
        problems.append(f"link {link}: table {table}'s accepted wagers are more than a table "
                        f"plays: {'; '.join(said)}; if that table did not play them its "
                        "login made them up (\"link reconcile\" on its database)")
    return problems
