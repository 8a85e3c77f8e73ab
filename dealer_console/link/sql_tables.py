"""The two functions a table writes through (migration ``0003_trust``, ``server_trust.py``):
its wagers accepted in one call, and its hit computed and paid by the server.

Both lock the link's meters in position order, for that one statement only.
"""

from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_console.link.sql_base import REFUSED

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
    UPDATE link_sessions SET seen_at = clock_timestamp()  -- its sender's pass
        WHERE link = p_link AND table_id = me AND pid = pg_backend_pid();
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
    PERFORM link_check_copy();  -- a restored copy numbers its hits after the next million
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
