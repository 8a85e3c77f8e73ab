"""The link's trust boundary in PostgreSQL (migration ``0003_trust``): who may do what.

- **A table** logs in with a login of its own (``link add-table``), a member of
  :data:`TABLE_ROLE`. It has no right on any table or sequence: it reaches the data only
  through the functions below (``SECURITY DEFINER``, ``search_path`` pinned), which take its
  identity from the login (``session_user`` looked up in ``link_table_logins``), never from a
  value it sends, and act on its own rows. Row-level security is a second wall: were a table
  login ever granted a right on a table by mistake, it would see and write its own rows only.
- **The server decides every award**: :func:`link_confirm_hit` computes it from its own meters
  and the paytable lines installed with the game (``link_lines``), and checks the confirmers
  against its own list (``link_confirmers``) and the game's executive threshold and two-person
  level. What the table says a card may confirm only ever narrows that.
- **A link administrator** (a member of :data:`ADMIN_ROLE`) installs games, changes
  thresholds, resets and adjusts meters, adds tables and confirmers; each change is an entry
  with who (the login) and why (a reason, required): the ledger for a meter, ``link_admin_log``
  for the rest.

Refusals raise SQLSTATE :data:`REFUSED` ("the link refused, nothing written"); a login that is
no table, or no administrator, gets ``insufficient_privilege``. The tables' writing functions
are in ``sql_tables.py``, the administrator's in ``sql_admin.py``; this module holds the rest
and applies them all.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.jackpot_values.paytable import FixedPay, MeterPay, load
from dealer_console.link.sql_admin import ADMIN
from dealer_console.link.sql_base import ADMIN_ROLE, HIT_GAP, HOLD_S, REFUSED, TABLE_ROLE
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_console.link.sql_tables import CONFIRM_HIT, CONTRIBUTE

__all__ = ["ADMIN_ROLE", "REFUSED", "TABLE_ROLE", "bound_hello", "line_values", "migrate"]

_TABLES = ("link_games", "link_levels", "link_tables", "link_contributions", "link_hits",
           "link_incarnation",
           "link_ledger", "link_lines", "link_table_logins", "link_confirmers",
           "link_admin_log", "link_sessions", "link_migrations")
_OWN_ROWS = ("link_tables", "link_contributions", "link_hits", "link_sessions")
"""Tables whose rows belong to one table (``table_id``): row security lets a table login at
its own rows only (and at the ledger's, read-only)."""

# a table says it is there, and what it has recorded of the link (migration 0003, and again
# in 0004, which bounds the hit number a table may move the server's numbering to)
HELLO = f"""
    CREATE OR REPLACE FUNCTION link_hello(p_link text, p_claimed text, p_seen_hit bigint)
    RETURNS TABLE (table_id text, held bigint, went_back text) LANGUAGE plpgsql {_DEFINER}
    AS $$
    DECLARE
        me text := link_me(p_claimed);
        reached bigint;
        called boolean;
    BEGIN
        PERFORM link_check_copy();
        IF NOT EXISTS (SELECT 1 FROM link_games g WHERE g.link = p_link) THEN
            RAISE EXCEPTION 'link % is not installed on the server', p_link
                USING ERRCODE = '{REFUSED}';
        END IF;
        INSERT INTO link_tables AS t (link, table_id) VALUES (p_link, me)
            ON CONFLICT ON CONSTRAINT link_tables_pkey DO UPDATE SET last_contact = now();
        table_id := me;
        SELECT count(*) INTO held FROM link_contributions c
            WHERE c.link = p_link AND c.table_id = me;
        SELECT s.last_value, s.is_called INTO reached, called FROM link_hits_hit_id_seq s;
        IF NOT called THEN
            reached := 0;
        END IF;
        IF p_seen_hit IS NOT NULL AND p_seen_hit > reached + {HIT_GAP} THEN
            -- no restore loses a million hits: a number that far on is no hit this link
            -- gave, and moving the numbers there would let one table end them for all
            RAISE EXCEPTION 'table % says it recorded link hit number %, more than % beyond '
                'the last number this server gave (%): not accepted; the link '
                'administrator checks that table''s database ("dealer-console link '
                'reconcile")', me, p_seen_hit, {HIT_GAP}, reached
                USING ERRCODE = '{REFUSED}';
        END IF;
        IF p_seen_hit IS NOT NULL AND p_seen_hit > reached THEN
            -- numbers go on after the table's, never repeating one it holds
            PERFORM setval('link_hits_hit_id_seq', p_seen_hit);
        END IF;
        IF p_seen_hit IS NOT NULL AND NOT EXISTS (SELECT 1 FROM link_hits h
                WHERE h.hit_id = p_seen_hit AND h.link = p_link AND h.table_id = me) THEN
            -- the table recorded a hit the server does not have: it has gone back in time
            went_back := format('the link server has gone back in time: table %s recorded '
                'its hit number %s, which the server does not have (restored from an older '
                'copy?); hits it lost must be put back by the link administrator '
                '("dealer-console link reconcile")', me, p_seen_hit);
            IF NOT EXISTS (SELECT 1 FROM link_admin_log a WHERE a.link = p_link
                           AND a.what = 'went back in time' AND a.detail = went_back) THEN
                INSERT INTO link_admin_log (link, what, detail, reason)
                VALUES (p_link, 'went back in time', went_back,
                        'told by the table on reconnecting');
            END IF;
        END IF;
        RETURN NEXT;
    END $$
    """


_SCHEMA: tuple[str, ...] = (
    "ALTER TABLE link_games ADD COLUMN two_person_above_cents bigint "
    "CHECK (two_person_above_cents >= 0)",
    "ALTER TABLE link_games ADD COLUMN fixed_level text",
    """
    CREATE TABLE link_lines (
        link text NOT NULL REFERENCES link_games (link),
        line_no integer NOT NULL CHECK (line_no >= 1),
        label text NOT NULL,
        level text,
        percent_num bigint CHECK (percent_num > 0),
        percent_den bigint CHECK (percent_den > 0),
        for_one bigint CHECK (for_one > 0),
        PRIMARY KEY (link, line_no),
        CHECK ((level IS NULL) = (for_one IS NOT NULL)),
        CHECK ((level IS NULL) = (percent_num IS NULL AND percent_den IS NULL))
    )
    """,
    """
    CREATE TABLE link_table_logins (
        login text PRIMARY KEY,
        table_id text NOT NULL UNIQUE,
        added_by text NOT NULL DEFAULT session_user,
        added_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    """
    CREATE TABLE link_confirmers (
        employee_id text PRIMARY KEY,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('supervisor', 'executive')),
        enabled boolean NOT NULL DEFAULT true,
        changed_by text NOT NULL DEFAULT session_user,
        changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    """
    CREATE TABLE link_admin_log (
        entry bigserial PRIMARY KEY,
        link text,
        what text NOT NULL,
        detail text NOT NULL,
        actor text NOT NULL DEFAULT session_user,
        reason text NOT NULL CHECK (length(btrim(reason)) > 0),
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    "CREATE TRIGGER link_admin_log_append_only BEFORE UPDATE OR DELETE ON link_admin_log "
    "FOR EACH ROW EXECUTE FUNCTION link_append_only()",
    "ALTER TABLE link_ledger ADD COLUMN actor text",
    "ALTER TABLE link_ledger ALTER COLUMN actor SET DEFAULT session_user",
    "ALTER TABLE link_ledger ADD COLUMN reason text",
    "ALTER TABLE link_ledger DROP CONSTRAINT link_ledger_kind_check",
    "ALTER TABLE link_ledger ADD CONSTRAINT link_ledger_kind_check "
    "CHECK (kind IN ('seed', 'contribution', 'award', 'reset', 'adjustment'))",
    "ALTER TABLE link_hits ADD COLUMN second_employee_id text",
    # who is asking: the table of the login, never a value sent
    f"""
    CREATE FUNCTION link_login_table() RETURNS text LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT table_id FROM link_table_logins WHERE login = session_user
    $$
    """,
    f"""
    CREATE FUNCTION link_me(p_claimed text) RETURNS text LANGUAGE plpgsql STABLE {_DEFINER}
    AS $$
    DECLARE t text := link_login_table();
    BEGIN
        IF t IS NULL THEN
            RAISE EXCEPTION 'the login % is not a table of this link: a link administrator '
                'adds a table with "dealer-console link add-table"', session_user
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF p_claimed IS NOT NULL AND p_claimed <> t THEN
            RAISE EXCEPTION 'this login is table % on the link, not %: set '
                'DEALER_CONSOLE_TABLE_ID to the name its login was made for', t, p_claimed
                USING ERRCODE = '{REFUSED}';
        END IF;
        RETURN t;
    END $$
    """,
    f"""
    CREATE FUNCTION link_need_admin(p_reason text) RETURNS void LANGUAGE plpgsql STABLE
    {_DEFINER} AS $$
    BEGIN
        IF NOT pg_has_role(session_user, '{ADMIN_ROLE}', 'MEMBER') THEN
            RAISE EXCEPTION 'only a link administrator may change the link (the login % is '
                'not one)', session_user USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF p_reason IS NULL OR length(btrim(p_reason)) = 0 THEN
            RAISE EXCEPTION 'a change to the link needs a reason (why), in words'
                USING ERRCODE = '{REFUSED}';
        END IF;
    END $$
    """,
    # what anyone on the link may read: the game, its meters, its lines, its hits
    f"""
    CREATE FUNCTION link_game(p_link text) RETURNS TABLE (paytable text, mode text,
        wager_cents bigint, fixed_from_meter boolean, executive_threshold_cents bigint,
        two_person_above_cents bigint) LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT paytable, mode, wager_cents, fixed_from_meter, executive_threshold_cents,
               two_person_above_cents FROM link_games WHERE link = p_link
    $$
    """,
    f"""
    CREATE FUNCTION link_meters(p_link text) RETURNS TABLE (level text, seed_cents bigint,
        contribution_ppm integer, reserve_ppm integer, meter_micro bigint,
        reserve_micro bigint) LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT level, seed_cents, contribution_ppm, reserve_ppm, meter_micro, reserve_micro
        FROM link_levels WHERE link = p_link ORDER BY position
    $$
    """,
    f"""
    CREATE FUNCTION link_hits_of(p_link text) RETURNS SETOF link_hits LANGUAGE sql STABLE
    {_DEFINER} AS $$
        SELECT * FROM link_hits WHERE link = p_link ORDER BY hit_id
    $$
    """,
    # one console per table: its sender holds the table's place for its connection's life
    """
    CREATE TABLE link_sessions (
        link text NOT NULL,
        table_id text NOT NULL,
        pid integer NOT NULL,
        login text NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        seen_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (link, table_id)
    )
    """,
    f"""
    CREATE FUNCTION link_claim(p_link text, p_claimed text) RETURNS void LANGUAGE plpgsql
    {_DEFINER} AS $$
    DECLARE
        me text := link_me(p_claimed);
        s link_sessions%ROWTYPE;
    BEGIN
        INSERT INTO link_sessions (link, table_id, pid, login)
            VALUES (p_link, me, pg_backend_pid(), session_user) ON CONFLICT DO NOTHING;
        SELECT * INTO s FROM link_sessions WHERE link = p_link AND table_id = me FOR UPDATE;
        -- the holder is another process of the same login, still connected (the process id
        -- and its user are what pg_stat_activity shows the link's owner) and still passing
        -- (its sender notes each pass): a connection left behind by a table that went away
        -- does not hold the place longer than {HOLD_S} s
        IF s.pid <> pg_backend_pid()
           AND s.seen_at > clock_timestamp() - interval '{HOLD_S} seconds' AND EXISTS (
                SELECT 1 FROM pg_stat_activity a WHERE a.pid = s.pid
                AND a.usename = s.login) THEN
            RAISE EXCEPTION 'another console is connected to link % as table %: two tables '
                'with one name would lose wagers, so this one is refused until the other '
                'stops (each table needs its own name and login)', p_link, me
                USING ERRCODE = '{REFUSED}';
        END IF;
        UPDATE link_sessions SET pid = pg_backend_pid(), login = session_user,
            claimed_at = clock_timestamp(), seen_at = clock_timestamp()
            WHERE link = p_link AND table_id = me;
    END $$
    """,
    # the database this link lives in: a restored copy is another (a new database's oid)
    """
    CREATE TABLE link_incarnation (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        db_oid oid NOT NULL,
        since timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    "INSERT INTO link_incarnation (db_oid) SELECT oid FROM pg_database "
    "WHERE datname = current_database()",
    f"""
    CREATE FUNCTION link_check_copy() RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        here oid;
        was oid;
        reached bigint;
        after bigint;
    BEGIN
        SELECT oid INTO here FROM pg_database WHERE datname = current_database();
        SELECT db_oid INTO was FROM link_incarnation FOR UPDATE;
        IF was IS NOT DISTINCT FROM here THEN
            RETURN;
        END IF;
        -- a restored copy (pg_restore into a new database): tables may hold hit numbers it
        -- never reached, so its numbers go on from the next million, never repeating one
        SELECT last_value INTO reached FROM link_hits_hit_id_seq;
        after := (reached / {HIT_GAP} + 1) * {HIT_GAP};
        PERFORM setval('link_hits_hit_id_seq', after);
        UPDATE link_incarnation SET db_oid = here, since = clock_timestamp();
        INSERT INTO link_admin_log (what, detail, reason) VALUES ('went back in time',
            format('the link''s database is a restored copy (its hit numbers had reached %s):'
                   ' they go on after %s so that none repeats; run "dealer-console link '
                   'reconcile" on each table''s database', reached, after),
            'found on the copy''s first use');
    END $$
    """,
    # a table's idle pass: its last contact, nothing else
    f"""
    CREATE FUNCTION link_touch(p_link text, p_claimed text) RETURNS void LANGUAGE sql
    {_DEFINER} AS $$
        UPDATE link_tables SET last_contact = now()
        WHERE link = p_link AND table_id = link_me(p_claimed);
        UPDATE link_sessions SET seen_at = clock_timestamp()
        WHERE link = p_link AND table_id = link_me(p_claimed) AND pid = pg_backend_pid();
    $$
    """,
    HELLO,
)

_READ = ("link_game(text)", "link_meters(text)", "link_hits_of(text)")
_FOR_TABLES = ("link_hello(text, text, bigint)", "link_claim(text, text)",
               "link_touch(text, text)",
               "link_contribute(text, text, bigint[], integer[], integer[], integer[], "
               "bigint[], text[])",
               "link_confirm_hit(text, text, bigint, integer, integer, integer, text, text, "
               "bigint)")
_FOR_ADMINS = ("link_install_game(text, text, bigint, boolean, text, bigint, bigint, jsonb, "
               "jsonb, text)", "link_set_thresholds(text, bigint, bigint, text)",
               "link_adjust(text, text, text, bigint, text)",
               "link_register_login(text, text, text)",
               "link_set_confirmer(text, text, text, boolean, text)")


def _role(cur: psycopg.Cursor[tuple[object, ...]], name: str) -> sql.Identifier:
    cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name])
    if cur.fetchone() is None:
        cur.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(name)))
    return sql.Identifier(name)


def _lines_of_installed(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Games installed before this migration: their lines, from the shipped paytables."""
    cur.execute("SELECT link, paytable FROM link_games")
    for link, name in cur.fetchall():
        paytable = load(str(name))
        cur.execute("UPDATE link_games SET fixed_level = %s WHERE link = %s",
                    [paytable.levels[-1], link])
        for number, line in enumerate(paytable.lines, 1):
            cur.execute("INSERT INTO link_lines VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        [link, number, line.label, *line_values(line.pay)])


def line_values(pay: MeterPay | FixedPay) -> tuple[str | None, int | None, int | None,
                                                    int | None]:
    """(level, percent numerator, denominator, N for 1) of a paytable line's pay."""
    if isinstance(pay, MeterPay):
        return pay.level, pay.percent.numerator, pay.percent.denominator, None
    return None, None, None, pay.for_one


def bound_hello(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0004_bounded_hello``: a table's hello moves the server's hit numbers only to
    a number a restore could have lost (an outside review sent the largest bigint: no table of
    the link got a hit number again, and every hit's mark was held as maybe paid)."""
    cur.execute(HELLO.encode())


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0003_trust``: the roles, the functions, the revoked rights, row security."""
    for statement in (*_SCHEMA, CONTRIBUTE, CONFIRM_HIT, *ADMIN):
        cur.execute(statement.encode())
    _lines_of_installed(cur)
    admin, table = _role(cur, ADMIN_ROLE), _role(cur, TABLE_ROLE)
    auditor = sql.Identifier("dealer_link_auditor")
    cur.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(admin))
    for statement in ("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC",
                      "REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC",
                      "REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC",
                      "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
                      # a function a later migration makes is no one's until granted
                      "ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC"):
        cur.execute(statement.encode())
    cur.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}, {}").format(admin, table))
    for name in _TABLES:
        t = sql.Identifier(name)
        cur.execute(sql.SQL("GRANT SELECT ON {} TO {}, {}").format(t, admin, auditor))
        if name == "link_migrations":
            continue
        cur.execute(sql.SQL("ALTER TABLE {} ENABLE ROW LEVEL SECURITY").format(t))
        cur.execute(sql.SQL("CREATE POLICY link_read ON {} FOR SELECT TO {}, {} USING (true)"
                            ).format(t, admin, auditor))
        if name in _OWN_ROWS:
            cur.execute(sql.SQL(
                "CREATE POLICY link_own_rows ON {} TO {} USING (table_id = link_login_table()) "
                "WITH CHECK (table_id = link_login_table())").format(t, table))
        elif name == "link_ledger":
            cur.execute(sql.SQL(
                "CREATE POLICY link_own_rows ON {} FOR SELECT TO {} "
                "USING (table_id = link_login_table())").format(t, table))
        elif name in ("link_games", "link_levels", "link_lines"):
            cur.execute(sql.SQL("CREATE POLICY link_game_read ON {} FOR SELECT TO {} "
                                "USING (true)").format(t, table))
    everyone = sql.SQL(", ").join([admin, table, auditor])
    for signature in _READ:
        cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO ") + everyone)
    for signature in ("link_login_table()", "link_me(text)"):
        cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO ") + everyone)
    for signature in _FOR_TABLES:
        cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO {{}}").format(table))
    for signature in _FOR_ADMINS:
        cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO {{}}").format(admin))
    cur.execute(sql.SQL("GRANT EXECUTE ON FUNCTION link_need_admin(text) TO {}").format(admin))
