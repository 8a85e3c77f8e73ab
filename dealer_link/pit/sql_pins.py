"""The wrong-PIN lock across the floor, on the link's server.

A table counts the wrong PINs typed at it (``employees/pins.py``: five in 24 hours lock the
PIN there). Where the tables keep the casino's staff list, a guesser could spread guesses
over the floor: four at each table. So each table also reports each wrong PIN it recorded
(``pit_pin_wrong``, the table from its login), and the server counts them per employee over
every table: at :data:`FLOOR_LOCK_AFTER` within 24 hours since the PIN was last set, it takes
the PIN off the list (a change of the list like any, in ``pit_staff_log``), so every table
applies "no PIN on file" and refuses a confirmation that needs one until an executive sets a
new PIN at the pit.

- A report is counted once: the table's own log entry names it (``UNIQUE (login, entry)``),
  so a report sent again after a lost answer is not a second wrong PIN.
- One table's login counts for at most ``FLOOR_LOCK_AFTER - 1``: a table's own guesses are
  its own lock's business, and a table login in the wrong hands, reporting wrong PINs that
  were never typed, cannot take anyone's PIN off the floor alone.
- The reports are append-only, as every trace of the pit.
"""

from __future__ import annotations

from dealer_console.employees.pins import LOCK_AFTER, LOCK_WINDOW
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_console.link.sql_base import TABLE_ROLE

FLOOR_LOCK_AFTER = LOCK_AFTER
"""Wrong PINs of one employee over all the tables that take the PIN off the list."""
_HOURS = int(LOCK_WINDOW.total_seconds() // 3600)

PIN_SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE pit_pin_failures (
        entry bigserial PRIMARY KEY,
        login text NOT NULL DEFAULT session_user,
        table_id text NOT NULL,
        employee_id text NOT NULL,
        table_entry bigint NOT NULL,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (login, table_entry)
    )
    """,
    "CREATE INDEX pit_pin_failures_employee ON pit_pin_failures (employee_id, at)",
    "CREATE TRIGGER pit_pin_failures_append_only BEFORE UPDATE OR DELETE ON pit_pin_failures "
    "FOR EACH ROW EXECUTE FUNCTION link_append_only()",
    f"""
    CREATE FUNCTION pit_pin_wrong(p_employee text, p_entry bigint) RETURNS text
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        t text := link_login_table();
        n integer;
        v bigint;
        m text;
    BEGIN
        IF t IS NULL THEN
            RAISE EXCEPTION 'only a table reports a wrong PIN typed at it'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pit_staff s WHERE s.employee_id = p_employee) THEN
            RETURN 'not on the list';
        END IF;
        INSERT INTO pit_pin_failures (table_id, employee_id, table_entry)
            VALUES (t, p_employee, p_entry) ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
            RETURN 'counted before';
        END IF;
        PERFORM 1 FROM pit_staff s WHERE s.employee_id = p_employee FOR UPDATE;
        SELECT COALESCE(sum(least(per.c, {FLOOR_LOCK_AFTER - 1})), 0) INTO n FROM (
            SELECT count(*) AS c FROM pit_pin_failures f
            WHERE f.employee_id = p_employee
              AND f.at > clock_timestamp() - interval '{_HOURS} hours'
              AND f.at > COALESCE((SELECT max(l.recorded_at) FROM pit_staff_log l
                                   WHERE l.employee_id = p_employee
                                     AND (l.detail LIKE '%new PIN%'
                                          OR l.detail LIKE 'PIN taken off%')), '-infinity')
            GROUP BY f.login) per;
        IF n < {FLOOR_LOCK_AFTER}
           OR (SELECT s.pin_hash FROM pit_staff s WHERE s.employee_id = p_employee) IS NULL THEN
            RETURN 'counted';
        END IF;
        v := nextval('pit_staff_version');
        m := encode(gen_random_bytes(8), 'hex');
        UPDATE pit_staff s SET pin_hash = NULL, version = v, mark = m
        WHERE s.employee_id = p_employee;
        INSERT INTO pit_staff_log (version, mark, employee_id, detail, by_employee, reason)
        VALUES (v, m, p_employee, format('PIN taken off after %s wrong PINs at the tables '
                '(the last at table %s)', n, t), NULL,
                'wrong PINs across the floor: an executive sets a new PIN');
        RETURN 'locked';
    END $$
    """,
)
"""Created after the staff list and ``link_login_table`` (``sql.py``'s ``SCHEMA``)."""

PIN_TABLES = ("pit_pin_failures",)
PIN_GRANTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pit_pin_wrong(text, bigint)", (TABLE_ROLE,)),
)
