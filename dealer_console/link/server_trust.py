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
no table, or no administrator, gets ``insufficient_privilege``.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.jackpot.paytable import FixedPay, MeterPay, load

ADMIN_ROLE = "dealer_link_admin"
TABLE_ROLE = "dealer_link_table"
REFUSED = "LK001"

_DEFINER = "SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp"

_TABLES = ("link_games", "link_levels", "link_tables", "link_contributions", "link_hits",
           "link_ledger", "link_lines", "link_table_logins", "link_confirmers",
           "link_admin_log", "link_migrations")
_OWN_ROWS = ("link_tables", "link_contributions", "link_hits")
"""Tables whose rows belong to one table (``table_id``): row security lets a table login at
its own rows only (and at the ledger's, read-only)."""

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
    # one console per table: its sender holds this for its connection's life
    f"""
    CREATE FUNCTION link_claim(p_link text, p_claimed text) RETURNS void LANGUAGE plpgsql
    {_DEFINER} AS $$
    DECLARE me text := link_me(p_claimed);
    BEGIN
        IF NOT pg_try_advisory_lock(19531, hashtext(p_link || '/' || me)) THEN
            RAISE EXCEPTION 'another console is connected to link % as table %: two tables '
                'with one name would lose wagers, so this one is refused until the other '
                'stops (each table needs its own name and login)', p_link, me
                USING ERRCODE = '{REFUSED}';
        END IF;
    END $$
    """,
    # a table says it is there, and what it has recorded of the link
    f"""
    CREATE FUNCTION link_hello(p_link text, p_claimed text, p_seen_hit bigint)
    RETURNS TABLE (table_id text, held bigint, went_back text) LANGUAGE plpgsql {_DEFINER}
    AS $$
    DECLARE
        me text := link_me(p_claimed);
        reached bigint;
        called boolean;
    BEGIN
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
        IF p_seen_hit IS NOT NULL AND p_seen_hit > reached THEN
            -- the table recorded a hit number the server never reached: the server has gone
            -- back in time (a restore). Numbers go on after the table's, never repeating.
            PERFORM setval('link_hits_hit_id_seq', p_seen_hit);
            went_back := format('the link server has gone back in time: table %s recorded '
                'its hit number %s, the server had reached only %s (restored from an older '
                'copy?); hits it lost must be put back by the link administrator '
                '("dealer-console link reconcile")', me, p_seen_hit, reached);
            INSERT INTO link_admin_log (link, what, detail, reason)
            VALUES (p_link, 'went back in time', went_back, 'told by the table on reconnecting');
        END IF;
        RETURN NEXT;
    END $$
    """,
)

CONTRIBUTE = f"""
CREATE FUNCTION link_contribute(p_link text, p_claimed text, p_round bigint[],
    p_deal integer[], p_spot integer[], p_seat integer[], p_wager bigint[], p_taken text[])
RETURNS integer LANGUAGE plpgsql {_DEFINER} AS $$
DECLARE
    me text := link_me(p_claimed);
    wager bigint;
    n integer;
BEGIN
    SELECT wager_cents INTO wager FROM link_games WHERE link = p_link;
    IF wager IS NULL THEN
        RAISE EXCEPTION 'link % is not installed on the server', p_link
            USING ERRCODE = '{REFUSED}';
    END IF;
    IF EXISTS (SELECT 1 FROM unnest(p_wager) w WHERE w IS DISTINCT FROM wager) THEN
        RAISE EXCEPTION 'table %: a wager of another amount than the % cents link % takes',
            me, wager, p_link USING ERRCODE = '{REFUSED}';
    END IF;
    -- the meters locked in position order (as a hit locks them): held for this call only
    PERFORM 1 FROM link_levels WHERE link = p_link ORDER BY position FOR UPDATE;
    INSERT INTO link_tables (link, table_id) VALUES (p_link, me)
        ON CONFLICT (link, table_id) DO UPDATE SET last_contact = now();
    WITH input AS (
        SELECT DISTINCT ON (r, d, sp, se) r, d, sp, se, w, tk, ord
        FROM unnest(p_round, p_deal, p_spot, p_seat, p_wager, p_taken)
             WITH ORDINALITY AS u(r, d, sp, se, w, tk, ord)
        ORDER BY r, d, sp, se, ord
    ), accepted AS (
        INSERT INTO link_contributions (link, table_id, round_id, deal_no, spot, seat,
                                        wager_cents, taken_at)
        SELECT p_link, me, r, d, sp, se, w, tk FROM input ORDER BY ord
        ON CONFLICT DO NOTHING
        RETURNING round_id, deal_no, spot, seat, wager_cents
    ), ordered AS (
        SELECT a.*, i.ord FROM accepted a JOIN input i
            ON (i.r, i.d, i.sp, i.se) = (a.round_id, a.deal_no, a.spot, a.seat)
    ), moved AS (
        INSERT INTO link_ledger (link, level, kind, table_id, round_id, deal_no, spot, seat,
                                 meter_delta_micro, reserve_delta_micro, meter_after_micro,
                                 reserve_after_micro)
        SELECT p_link, l.level, 'contribution', me, o.round_id, o.deal_no, o.spot, o.seat,
               o.wager_cents * l.contribution_ppm, o.wager_cents * l.reserve_ppm,
               l.meter_micro + SUM(o.wager_cents * l.contribution_ppm)
                   OVER (PARTITION BY l.level ORDER BY o.ord),
               l.reserve_micro + SUM(o.wager_cents * l.reserve_ppm)
                   OVER (PARTITION BY l.level ORDER BY o.ord)
        FROM ordered o CROSS JOIN link_levels l
        WHERE l.link = p_link
        ORDER BY o.ord, l.position
        RETURNING level, meter_delta_micro, reserve_delta_micro
    ), levels AS (
        UPDATE link_levels l SET meter_micro = l.meter_micro + s.dm,
                                 reserve_micro = l.reserve_micro + s.dr
        FROM (SELECT level, SUM(meter_delta_micro) dm, SUM(reserve_delta_micro) dr
              FROM moved GROUP BY level) s
        WHERE l.link = p_link AND l.level = s.level
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM ordered) + 0 * (SELECT count(*) FROM levels) INTO n;
    RETURN n;
END $$
"""

CONFIRM_HIT = f"""
CREATE FUNCTION link_confirm_hit(p_link text, p_claimed text, p_round bigint,
    p_spot integer, p_seat integer, p_line integer, p_employee text, p_second text,
    p_most bigint) RETURNS SETOF link_hits LANGUAGE plpgsql {_DEFINER} AS $$
DECLARE
    me text := link_me(p_claimed);
    g link_games%ROWTYPE;
    ln link_lines%ROWTYPE;
    lv link_levels%ROWTYPE;
    h link_hits%ROWTYPE;
    c1 link_confirmers%ROWTYPE;
    c2 link_confirmers%ROWTYPE;
    lvl text;
    amount bigint;
    from_meter bigint := 0;
    full_pay boolean := false;
    before_m bigint;
    after_m bigint;
    shown text;
BEGIN
    SELECT * INTO g FROM link_games WHERE link = p_link;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'link % is not installed on the server', p_link
            USING ERRCODE = '{REFUSED}';
    END IF;
    -- the order across tables: the first to lock the meters is the first paid
    PERFORM 1 FROM link_levels WHERE link = p_link ORDER BY position FOR UPDATE;
    SELECT * INTO h FROM link_hits WHERE link = p_link AND table_id = me
        AND round_id = p_round AND spot = p_spot AND seat = p_seat;
    IF FOUND THEN  -- asked again (a lost answer): the hit already paid, never a second
        RETURN NEXT h;
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM link_contributions WHERE link = p_link AND table_id = me
                   AND round_id = p_round AND spot = p_spot AND seat = p_seat) THEN
        RAISE EXCEPTION 'table % round % seat %: the link has not received this seat''s '
            'jackpot wager yet; wait a moment and swipe again', me, p_round, p_seat
            USING ERRCODE = '{REFUSED}';
    END IF;
    SELECT * INTO ln FROM link_lines WHERE link = p_link AND line_no = p_line;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'link %''s paytable has no line %', p_link, p_line
            USING ERRCODE = '{REFUSED}';
    END IF;
    IF ln.level IS NOT NULL THEN  -- a percentage of a meter, rounded down to the cent
        lvl := ln.level;
        SELECT * INTO lv FROM link_levels WHERE link = p_link AND level = lvl;
        amount := div(lv.meter_micro::numeric * ln.percent_num,
                      ln.percent_den::numeric * 100 * 1000000)::bigint;
        from_meter := amount;
        full_pay := ln.percent_num = 100 * ln.percent_den;
    ELSE  -- N for 1 on the fixed wager: from the tray, or off the meter as far as it goes
        amount := ln.for_one * g.wager_cents;
        IF g.fixed_from_meter THEN
            lvl := g.fixed_level;
            SELECT * INTO lv FROM link_levels WHERE link = p_link AND level = lvl;
            from_meter := least(amount, lv.meter_micro / 1000000);
        END IF;
    END IF;
    shown := '$' || to_char(amount / 100, 'FM999,999,999,999,990') || '.'
             || lpad((amount % 100)::text, 2, '0');
    SELECT * INTO c1 FROM link_confirmers WHERE employee_id = p_employee AND enabled;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'employee % may not confirm a linked jackpot: the link does not know '
            'them (a link administrator adds who may confirm, "dealer-console link '
            'add-confirmer")', p_employee USING ERRCODE = '{REFUSED}';
    END IF;
    IF p_second IS NOT NULL THEN
        SELECT * INTO c2 FROM link_confirmers WHERE employee_id = p_second AND enabled;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'employee % may not confirm a linked jackpot: the link does not '
                'know them', p_second USING ERRCODE = '{REFUSED}';
        END IF;
        IF c2.employee_id = c1.employee_id THEN
            RAISE EXCEPTION 'the same person cannot confirm twice' USING ERRCODE = '{REFUSED}';
        END IF;
    END IF;
    IF g.two_person_above_cents IS NOT NULL AND amount > g.two_person_above_cents THEN
        IF p_second IS NULL OR c1.role = c2.role THEN
            RAISE EXCEPTION 'the shared meter has moved: % now pays %, which needs two people, '
                'a supervisor and an executive', ln.label, shown USING ERRCODE = '{REFUSED}';
        END IF;
    ELSIF amount > g.executive_threshold_cents AND c1.role <> 'executive'
          AND coalesce(c2.role, '') <> 'executive' THEN
        RAISE EXCEPTION 'the shared meter has moved: % now pays %, more than a supervisor '
            'may confirm; an executive''s card is needed', ln.label, shown
            USING ERRCODE = '{REFUSED}';
    END IF;
    IF p_most IS NOT NULL AND amount > p_most THEN
        RAISE EXCEPTION 'the shared meter has moved: % now pays %, more than this card may '
            'confirm; an executive''s card is needed', ln.label, shown
            USING ERRCODE = '{REFUSED}';
    END IF;
    IF lvl IS NOT NULL THEN
        before_m := lv.meter_micro;
        after_m := lv.meter_micro - from_meter * 1000000;
        IF full_pay THEN
            after_m := after_m + lv.seed_cents * 1000000 + lv.reserve_micro;
        END IF;
    END IF;
    INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, line_label, level,
        amount_cents, from_meter_cents, from_tray_cents, meter_before_micro,
        meter_after_micro, employee_id, second_employee_id)
    VALUES (p_link, me, p_round, p_spot, p_seat, p_line, ln.label, lvl, amount, from_meter,
        amount - from_meter, before_m, after_m, c1.employee_id, c2.employee_id)
    RETURNING * INTO h;
    IF lvl IS NOT NULL THEN
        UPDATE link_levels SET meter_micro = meter_micro - from_meter * 1000000
            WHERE link = p_link AND level = lvl RETURNING * INTO lv;
        INSERT INTO link_ledger (link, level, kind, table_id, round_id, spot, seat, hit_id,
            meter_delta_micro, reserve_delta_micro, meter_after_micro, reserve_after_micro)
        VALUES (p_link, lvl, 'award', me, p_round, p_spot, p_seat, h.hit_id,
            -from_meter * 1000000, 0, lv.meter_micro, lv.reserve_micro);
        IF full_pay THEN  -- seed plus reserve (Washington, Rules of Play item 4)
            INSERT INTO link_ledger (link, level, kind, table_id, round_id, spot, seat,
                hit_id, meter_delta_micro, reserve_delta_micro, meter_after_micro,
                reserve_after_micro)
            VALUES (p_link, lvl, 'reset', me, p_round, p_spot, p_seat, h.hit_id,
                lv.seed_cents * 1000000 + lv.reserve_micro, -lv.reserve_micro,
                lv.meter_micro + lv.seed_cents * 1000000 + lv.reserve_micro, 0);
            UPDATE link_levels SET meter_micro = meter_micro + seed_cents * 1000000
                + reserve_micro, reserve_micro = 0 WHERE link = p_link AND level = lvl;
        END IF;
    END IF;
    RETURN NEXT h;
END $$
"""

ADMIN: tuple[str, ...] = (
    f"""
    CREATE FUNCTION link_install_game(p_link text, p_paytable text, p_wager bigint,
        p_fixed_from_meter boolean, p_fixed_level text, p_threshold bigint,
        p_two_person bigint, p_levels jsonb, p_lines jsonb, p_reason text)
    RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        PERFORM link_need_admin(p_reason);
        INSERT INTO link_games (link, paytable, mode, wager_cents, fixed_from_meter,
            executive_threshold_cents, installed_by, two_person_above_cents, fixed_level)
        VALUES (p_link, p_paytable, 'progressive', p_wager, p_fixed_from_meter, p_threshold,
            session_user, p_two_person, p_fixed_level);
        INSERT INTO link_levels (link, level, position, seed_cents, contribution_ppm,
            reserve_ppm, meter_micro, reserve_micro)
        SELECT p_link, x.level, x.position, x.seed_cents, x.contribution_ppm, x.reserve_ppm,
               x.seed_cents * 1000000, 0
        FROM jsonb_to_recordset(p_levels) AS x(level text, position integer,
            seed_cents bigint, contribution_ppm integer, reserve_ppm integer);
        INSERT INTO link_lines (link, line_no, label, level, percent_num, percent_den,
            for_one)
        SELECT p_link, x.line_no, x.label, x.level, x.percent_num, x.percent_den, x.for_one
        FROM jsonb_to_recordset(p_lines) AS x(line_no integer, label text, level text,
            percent_num bigint, percent_den bigint, for_one bigint);
        INSERT INTO link_ledger (link, level, kind, meter_delta_micro, reserve_delta_micro,
            meter_after_micro, reserve_after_micro, reason)
        SELECT p_link, level, 'seed', meter_micro, 0, meter_micro, 0, p_reason
        FROM link_levels WHERE link = p_link ORDER BY position;
        INSERT INTO link_admin_log (link, what, detail, reason)
        VALUES (p_link, 'install', p_paytable, p_reason);
    END $$
    """,
    f"""
    CREATE FUNCTION link_set_thresholds(p_link text, p_threshold bigint, p_two_person bigint,
        p_reason text) RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE g link_games%ROWTYPE;
    BEGIN
        PERFORM link_need_admin(p_reason);
        SELECT * INTO g FROM link_games WHERE link = p_link FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'link % is not installed', p_link USING ERRCODE = '{REFUSED}';
        END IF;
        UPDATE link_games SET executive_threshold_cents = p_threshold,
            two_person_above_cents = p_two_person WHERE link = p_link;
        INSERT INTO link_admin_log (link, what, detail, reason) VALUES (p_link, 'thresholds',
            format('executive threshold %s -> %s cents; two-person level %s -> %s cents',
                   g.executive_threshold_cents, p_threshold,
                   coalesce(g.two_person_above_cents::text, 'none'),
                   coalesce(p_two_person::text, 'none')), p_reason);
    END $$
    """,
    f"""
    CREATE FUNCTION link_adjust(p_link text, p_level text, p_kind text, p_delta bigint,
        p_reason text) RETURNS bigint LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE lv link_levels%ROWTYPE; dm bigint; dr bigint := 0;
    BEGIN
        PERFORM link_need_admin(p_reason);
        PERFORM 1 FROM link_levels WHERE link = p_link ORDER BY position FOR UPDATE;
        SELECT * INTO lv FROM link_levels WHERE link = p_link AND level = p_level;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'link % has no meter %', p_link, p_level
                USING ERRCODE = '{REFUSED}';
        END IF;
        IF p_kind = 'reset' THEN  -- to seed plus reserve, the reserve to zero
            dm := lv.seed_cents * 1000000 + lv.reserve_micro - lv.meter_micro;
            dr := -lv.reserve_micro;
        ELSIF p_kind = 'adjustment' THEN
            dm := p_delta;
        ELSE
            RAISE EXCEPTION 'a meter is reset or adjusted, not %', p_kind
                USING ERRCODE = '{REFUSED}';
        END IF;
        IF lv.meter_micro + dm < 0 THEN
            RAISE EXCEPTION 'the meter % would go below zero', p_level
                USING ERRCODE = '{REFUSED}';
        END IF;
        UPDATE link_levels SET meter_micro = meter_micro + dm, reserve_micro = reserve_micro
            + dr WHERE link = p_link AND level = p_level RETURNING * INTO lv;
        INSERT INTO link_ledger (link, level, kind, meter_delta_micro, reserve_delta_micro,
            meter_after_micro, reserve_after_micro, reason)
        VALUES (p_link, p_level, p_kind, dm, dr, lv.meter_micro, lv.reserve_micro, p_reason);
        RETURN lv.meter_micro;
    END $$
    """,
    f"""
    CREATE FUNCTION link_register_login(p_login text, p_table_id text, p_reason text)
    RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        PERFORM link_need_admin(p_reason);
        IF EXISTS (SELECT 1 FROM link_table_logins WHERE table_id = p_table_id
                   AND login <> p_login) THEN
            RAISE EXCEPTION 'table % already has a login of its own on this link', p_table_id
                USING ERRCODE = '{REFUSED}';
        END IF;
        INSERT INTO link_table_logins (login, table_id) VALUES (p_login, p_table_id)
            ON CONFLICT (login) DO NOTHING;
        IF NOT EXISTS (SELECT 1 FROM link_table_logins WHERE login = p_login
                       AND table_id = p_table_id) THEN
            RAISE EXCEPTION 'the login % is already another table''s', p_login
                USING ERRCODE = '{REFUSED}';
        END IF;
        INSERT INTO link_admin_log (what, detail, reason)
        VALUES ('table', format('table %s logs in as %s', p_table_id, p_login), p_reason);
    END $$
    """,
    f"""
    CREATE FUNCTION link_set_confirmer(p_employee text, p_name text, p_role text,
        p_enabled boolean, p_reason text) RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        PERFORM link_need_admin(p_reason);
        INSERT INTO link_confirmers (employee_id, name, role, enabled)
        VALUES (p_employee, p_name, p_role, p_enabled)
        ON CONFLICT (employee_id) DO UPDATE SET name = excluded.name, role = excluded.role,
            enabled = excluded.enabled, changed_by = session_user,
            changed_at = clock_timestamp();
        INSERT INTO link_admin_log (what, detail, reason) VALUES ('confirmer',
            format('%s (%s) %s, %s', p_employee, p_name, p_role,
                   CASE WHEN p_enabled THEN 'may confirm' ELSE 'may no longer confirm' END),
            p_reason);
    END $$
    """,
)

_READ = ("link_game(text)", "link_meters(text)", "link_hits_of(text)")
_FOR_TABLES = ("link_hello(text, text, bigint)", "link_claim(text, text)",
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
                      "REVOKE CREATE ON SCHEMA public FROM PUBLIC"):
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
