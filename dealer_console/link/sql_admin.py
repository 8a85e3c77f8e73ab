"""The link administrator's functions (migration ``0003_trust``, ``server_trust.py``): each
checks the login is one and writes who and why."""

from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_console.link.sql_base import REFUSED

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
