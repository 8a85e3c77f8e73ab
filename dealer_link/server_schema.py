"""The link's schema in PostgreSQL, as numbered migrations (``dealer-console link init``).

A migration already released is never edited; a later schema is a new entry of
:data:`MIGRATIONS`. Each runs in its own transaction under an advisory lock, so two
``link init`` at once apply it once. Money is integers: cents, and meters in millionths of a
cent (``bigint``: up to $92 billion on one meter). The ledger, the contributions and the hits
are append-only (triggers refuse UPDATE and DELETE); ``link_levels`` holds the meters as they
stand, each change written with its ledger row in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable

import psycopg
from psycopg import sql

from dealer_link import (
    server_accepted_wagers,
    server_cards,
    server_every_card,
    server_in_force,
    server_links,
    server_play_bound,
    server_rounds_an_hour,
    server_stuck,
    server_trust,
    server_went_back,
    server_went_back_review,
)

AUDITOR_ROLE = "dealer_link_auditor"
"""A role that can read every link table and write none (``GRANT dealer_link_auditor TO
someone``): what an auditor or a regulator's reporting tool logs in with."""

_LOCK = 0x5047_4C4B  # advisory lock key: "PGLK"

_APPEND_ONLY = ("link_contributions", "link_ledger", "link_hits")

_V1: tuple[str, ...] = (
    """
    CREATE TABLE link_games (
        link text PRIMARY KEY,
        paytable text NOT NULL,
        mode text NOT NULL CHECK (mode = 'progressive'),
        wager_cents bigint NOT NULL CHECK (wager_cents > 0),
        fixed_from_meter boolean NOT NULL,
        executive_threshold_cents bigint NOT NULL CHECK (executive_threshold_cents >= 0),
        installed_at timestamptz NOT NULL DEFAULT now(),
        installed_by text NOT NULL
    )
    """,
    """
    CREATE TABLE link_levels (
        link text NOT NULL REFERENCES link_games (link),
        level text NOT NULL,
        position integer NOT NULL,
        seed_cents bigint NOT NULL CHECK (seed_cents >= 0),
        contribution_ppm integer NOT NULL CHECK (contribution_ppm BETWEEN 0 AND 1000000),
        reserve_ppm integer NOT NULL CHECK (reserve_ppm BETWEEN 0 AND 1000000),
        meter_micro bigint NOT NULL CHECK (meter_micro >= 0),
        reserve_micro bigint NOT NULL CHECK (reserve_micro >= 0),
        PRIMARY KEY (link, level),
        UNIQUE (link, position)
    )
    """,
    """
    CREATE TABLE link_tables (
        link text NOT NULL REFERENCES link_games (link),
        table_id text NOT NULL,
        first_contact timestamptz NOT NULL DEFAULT now(),
        last_contact timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (link, table_id)
    )
    """,
    # One row per jackpot wager a table took at START GAME; the key is the idempotency key,
    # so a wager sent twice (a lost reply, a sender killed before it noted the delivery) is
    # accepted once.
    """
    CREATE TABLE link_contributions (
        link text NOT NULL,
        table_id text NOT NULL,
        round_id bigint NOT NULL,
        deal_no integer NOT NULL,
        spot integer NOT NULL CHECK (spot IN (1, 2)),
        seat integer NOT NULL CHECK (seat BETWEEN 1 AND 7),
        wager_cents bigint NOT NULL CHECK (wager_cents > 0),
        taken_at text NOT NULL,
        accepted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (link, table_id, round_id, deal_no, spot, seat),
        FOREIGN KEY (link, table_id) REFERENCES link_tables (link, table_id)
    )
    """,
    """
    CREATE TABLE link_hits (
        hit_id bigserial PRIMARY KEY,
        link text NOT NULL REFERENCES link_games (link),
        table_id text NOT NULL,
        round_id bigint NOT NULL,
        spot integer NOT NULL,
        seat integer NOT NULL,
        line_no integer NOT NULL,
        line_label text NOT NULL,
        level text,
        amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
        from_meter_cents bigint NOT NULL CHECK (from_meter_cents >= 0),
        from_tray_cents bigint NOT NULL CHECK (from_tray_cents >= 0),
        meter_before_micro bigint,
        meter_after_micro bigint,
        employee_id text NOT NULL,
        confirmed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (link, table_id, round_id, spot, seat),
        CHECK (amount_cents = from_meter_cents + from_tray_cents)
    )
    """,
    """
    CREATE TABLE link_ledger (
        entry bigserial PRIMARY KEY,
        link text NOT NULL,
        level text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('seed', 'contribution', 'award', 'reset')),
        table_id text,
        round_id bigint,
        deal_no integer,
        spot integer,
        seat integer,
        hit_id bigint REFERENCES link_hits (hit_id),
        meter_delta_micro bigint NOT NULL,
        reserve_delta_micro bigint NOT NULL,
        meter_after_micro bigint NOT NULL CHECK (meter_after_micro >= 0),
        reserve_after_micro bigint NOT NULL CHECK (reserve_after_micro >= 0),
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (link, level) REFERENCES link_levels (link, level)
    )
    """,
    "CREATE INDEX link_ledger_level ON link_ledger (link, level, entry)",
    """
    CREATE FUNCTION link_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
    END $$
    """,
    *(f"CREATE TRIGGER {t}_append_only BEFORE UPDATE OR DELETE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION link_append_only()" for t in _APPEND_ONLY),
)


def _v1(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    for statement in _V1:
        cur.execute(statement.encode())


def _v2_auditor(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """The read-only role: SELECT on every link table, nothing else."""
    cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [AUDITOR_ROLE])
    if cur.fetchone() is None:
        cur.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(AUDITOR_ROLE)))
    cur.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(
        sql.Identifier(AUDITOR_ROLE)))
    for table in ("link_games", "link_levels", "link_tables", *_APPEND_ONLY,
                  "link_migrations"):
        cur.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(
            sql.Identifier(table), sql.Identifier(AUDITOR_ROLE)))


MIGRATIONS: tuple[tuple[str, Callable[[psycopg.Cursor[tuple[object, ...]]], None]], ...] = (
    ("0001_link", _v1),
    ("0002_read_only_auditor", _v2_auditor),
    ("0003_trust", server_trust.migrate),
    ("0004_bounded_hello", server_trust.bound_hello),
    ("0005_cards_on_server", server_cards.migrate),
    ("0006_stuck_locks", server_stuck.migrate),
    ("0007_table_links", server_links.migrate),
    ("0008_in_force", server_in_force.migrate),
    ("0009_one_statement", server_stuck.one_statement),
    (server_every_card.NAME, server_every_card.migrate),
    ("0011_waiting_its_turn", server_stuck.waiting_its_turn),
    (server_went_back.NAME, server_went_back.migrate),
    (server_play_bound.NAME, server_play_bound.migrate),
    (server_rounds_an_hour.NAME, server_rounds_an_hour.migrate),
    (server_went_back_review.NAME, server_went_back_review.migrate),
    (server_accepted_wagers.NAME, server_accepted_wagers.migrate),
)


def apply(conn: psycopg.Connection[tuple[object, ...]]) -> list[str]:
    """Apply the migrations not yet applied; returns their names (empty: up to date)."""
    applied_now: list[str] = []
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])
        cur.execute("CREATE TABLE IF NOT EXISTS link_migrations (name text PRIMARY KEY, "
                    "applied_at timestamptz NOT NULL DEFAULT now())")
        cur.execute("SELECT name FROM link_migrations")
        done = {str(r[0]) for r in cur.fetchall()}
        if any(name not in done for name, _ in MIGRATIONS):
            _quiet_hits(cur)
        for name, step in MIGRATIONS:
            if name in done:
                continue
            step(cur)
            cur.execute("INSERT INTO link_migrations (name) VALUES (%s)", [name])
            applied_now.append(name)
    return applied_now


def _quiet_hits(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """An upgrade while tables play: the hits first, whole. A migration that adds a trigger
    to ``link_hits`` and then alters it, with a hit being paid in between (it reads the hits,
    then waits to write its own behind the trigger's lock), deadlocked, and a hit paid while
    the row's shape changed failed (an outside review: 7 of 25 upgrades under six playing
    tables). Taken first, the lock waits for the hits being paid, and the next wait for the
    upgrade's end."""
    cur.execute("SELECT to_regclass('link_hits') IS NOT NULL")
    row = cur.fetchone()
    if row is not None and row[0]:
        cur.execute("LOCK TABLE link_hits IN ACCESS EXCLUSIVE MODE")


def pending(conn: psycopg.Connection[tuple[object, ...]]) -> list[str]:
    """The migrations this console knows that the server has not applied."""
    with conn.cursor() as cur:
        cur.execute("SELECT to_regclass('link_migrations') IS NOT NULL")
        row = cur.fetchone()
        if row is None or not row[0]:
            return [name for name, _ in MIGRATIONS]
        cur.execute("SELECT name FROM link_migrations")
        done = {str(r[0]) for r in cur.fetchall()}
    conn.rollback()
    return [name for name, _ in MIGRATIONS if name not in done]
