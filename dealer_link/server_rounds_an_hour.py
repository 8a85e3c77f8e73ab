"""Migration ``0014_rounds_an_hour``: a link's play bound set by a command, not in SQL.

``link_games.rounds_an_hour`` (migration ``0013_bounded_play``) bounds how much one table's
login, its password file taken, can add to the shared meters; its administrator set it with
``UPDATE link_games`` by hand. Now ``dealer-console link rounds-an-hour LINK [N]`` shows and
sets it through :data:`SET_ROUNDS`, an administrator's function like the others: who and why
in ``link_admin_log`` with the bound before and after (and the row's change in
``link_settings_history``, as any change of ``link_games``). It refuses:

- a bound below 1 (every wager refused) or above :data:`MOST_ROUNDS_AN_HOUR`;
- a bound below the most rounds a table of the link has already played in an hour of its
  clock: ``link audit`` holds every hour of the history to the bound as it stands, so that
  table's honest play would then be named as made up.

It does not wait for the meters: a wager is held to the bound in one statement, so a call
being taken as the bound changes is held to the one before or the one after, never to half.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED
from dealer_console.link.sql_base import DEFINER as _DEFINER

NAME = "0014_rounds_an_hour"

MOST_ROUNDS_AN_HOUR = 600
"""The highest bound the command sets: a round every 6 s. No table deals, sets and settles
seven hands of Pai Gow that fast (a busy table plays some 25 an hour, the default is 120);
a number above it is a slip (1200 for 120) or the bound switched off, and each round more an
hour is 14 wagers more that one stolen table login may add to the meters."""

WAGERS_A_ROUND = 14
"""The most jackpot wagers one round holds: 7 seats on 2 spots."""

SET_ROUNDS = f"""
    CREATE FUNCTION link_set_rounds_an_hour(p_link text, p_rounds integer, p_reason text)
    RETURNS integer LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        was integer;
        played record;
    BEGIN
        PERFORM link_need_admin(p_reason);
        IF p_rounds IS NULL OR p_rounds < 1 OR p_rounds > {MOST_ROUNDS_AN_HOUR} THEN
            RAISE EXCEPTION 'a table plays from 1 to {MOST_ROUNDS_AN_HOUR} rounds an hour '
                '(a round every 6 s at most), not %', p_rounds USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT g.rounds_an_hour INTO was FROM link_games g WHERE g.link = p_link;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'link % is not installed', left(p_link, 64)
                USING ERRCODE = '{REFUSED}';
        END IF;
        IF was = p_rounds THEN
            RETURN was;
        END IF;
        IF p_rounds < was THEN  -- the history's busiest hour (read once, only to lower it)
            SELECT x.table_id, x.hour, count(*) AS rounds INTO played FROM (
                SELECT DISTINCT c.table_id, date_trunc('hour', coalesce(c.claimed_at,
                           link_claimed_time(c.taken_at)) AT TIME ZONE 'UTC') AS hour,
                       c.round_id, c.deal_no
                FROM link_contributions c WHERE c.link = p_link
            ) x WHERE x.hour IS NOT NULL GROUP BY 1, 2 ORDER BY 3 DESC, 2, 1 LIMIT 1;
            IF FOUND AND played.rounds > p_rounds THEN
                RAISE EXCEPTION 'table % played % rounds in the hour from % UTC by its '
                    'clock: with a bound of % "link audit" would name that play as made up; '
                    'set % or more', played.table_id, played.rounds, played.hour, p_rounds,
                    played.rounds USING ERRCODE = '{REFUSED}';
            END IF;
        END IF;
        UPDATE link_games SET rounds_an_hour = p_rounds WHERE link = p_link;
        INSERT INTO link_admin_log (link, what, detail, reason) VALUES (p_link,
            'rounds an hour', format('the most rounds a table plays in an hour: %s -> %s',
                                     was, p_rounds), p_reason);
        RETURN was;
    END $$
    """


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0014_rounds_an_hour`` (see the module doc)."""
    cur.execute(SET_ROUNDS.encode())
    signature = "link_set_rounds_an_hour(text, integer, text)"
    cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO {{}}").format(
        sql.Identifier(ADMIN_ROLE)))
