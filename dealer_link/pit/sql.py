"""The pit's part of the link's server (migration ``pit_0001``, applied by ``link init``).

- **Reports.** A table calls :data:`REPORT` (``pit_report``) with what the pit needs of it;
  the server takes the table from the login (``link_me``, ``server_trust.py``), never from a
  value sent, so a table can only write its own row. The server stamps the row with its own
  clock: the pit reads each report's age from the server, so no clock of a table or of the
  podium PC decides whether a heartbeat is lost.
- **The pit's login** (a member of :data:`PIT_ROLE`) may call ``pit_reports`` (read every
  table's report) and the same writing functions a table calls with a card (acknowledge an
  alert, change the staff list); it has no right on any table, sequence or link function.
- **Cards are checked by the server.** The staff list (``pit_staff``) holds each card as a
  bcrypt verifier (pgcrypto's ``crypt``) and a 16-bit tag (an HMAC keyed by a secret given
  only to the tables' logins, for their replicas) that narrows a swipe to a few rows: an
  acknowledgement names the employee the server found from the card, never one the caller
  names.
"""

from __future__ import annotations

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED, TABLE_ROLE
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link.pit.sql_cards import CARD_SCHEMA, CARD_TABLES, STAFF_ROLES
from dealer_link.pit.sql_pins import PIN_GRANTS, PIN_SCHEMA, PIN_TABLES

PIT_ROLE = "dealer_pit"
"""The group of the podium's logins: read the reports, write only through a card."""
AUDITOR_ROLE = "dealer_link_auditor"
MIGRATION = "pit_0001"

_TABLES = ("pit_reports", "pit_acks", "pit_ack_log", "pit_staff", "pit_staff_log", *CARD_TABLES,
           *PIN_TABLES)

SCHEMA: tuple[str, ...] = (
    "CREATE EXTENSION IF NOT EXISTS pgcrypto",
    """
    CREATE TABLE pit_reports (
        table_id text PRIMARY KEY,
        phase text NOT NULL,
        round_id bigint,
        round_text text NOT NULL,
        table_open boolean NOT NULL,
        self_test text NOT NULL,
        devices jsonb NOT NULL,
        link_state text NOT NULL,
        jackpots_waiting integer NOT NULL CHECK (jackpots_waiting >= 0),
        drop_cents bigint NOT NULL,
        hold_cents bigint NOT NULL,
        events jsonb NOT NULL,
        reported_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    """
    CREATE TABLE pit_acks (
        table_id text NOT NULL,
        kind text NOT NULL,
        employee_id text NOT NULL,
        name text NOT NULL,
        login text NOT NULL DEFAULT session_user,
        acked_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (table_id, kind)
    )
    """,
    """
    CREATE TABLE pit_ack_log (
        entry bigserial PRIMARY KEY,
        table_id text NOT NULL,
        kind text NOT NULL,
        employee_id text NOT NULL,
        login text NOT NULL DEFAULT session_user,
        acked_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    """
    CREATE TABLE pit_secret (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        key bytea NOT NULL DEFAULT gen_random_bytes(32)
    )
    """,
    "INSERT INTO pit_secret DEFAULT VALUES",
    "CREATE SEQUENCE pit_staff_version",
    f"""
    CREATE TABLE pit_staff (
        employee_id text PRIMARY KEY CHECK (length(employee_id) BETWEEN 1 AND 64),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        role text NOT NULL CHECK (role IN ({", ".join(f"'{r}'" for r in STAFF_ROLES)})),
        card_tag text NOT NULL,
        card_crypt text NOT NULL,
        card_hash text NOT NULL,
        enabled boolean NOT NULL,
        version bigint NOT NULL,
        mark text NOT NULL,
        pin_hash text
    )
    """,
    """
    CREATE TABLE pit_staff_log (
        entry bigserial PRIMARY KEY,
        version bigint NOT NULL,
        mark text NOT NULL,
        employee_id text NOT NULL,
        detail text NOT NULL,
        by_employee text,
        login text NOT NULL DEFAULT session_user,
        reason text NOT NULL CHECK (length(btrim(reason)) > 0),
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    *(f"CREATE TRIGGER {t}_append_only BEFORE UPDATE OR DELETE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION link_append_only()" for t in ("pit_ack_log",
                                                                   "pit_staff_log")),
    f"""
    CREATE FUNCTION pit_tag(p_track text) RETURNS text LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT substr(encode(hmac(convert_to(p_track, 'UTF8'), (SELECT key FROM pit_secret),
                                  'sha256'), 'hex'), 1, 4)
    $$
    """,
    # who may call a card's function: a table, the pit, or a link administrator
    f"""
    CREATE FUNCTION pit_caller() RETURNS text LANGUAGE plpgsql STABLE {_DEFINER} AS $$
    DECLARE t text := link_login_table();
    BEGIN
        IF t IS NOT NULL THEN
            RETURN 'table ' || t;
        END IF;
        IF pg_has_role(session_user, '{ADMIN_ROLE}', 'MEMBER') THEN
            RETURN 'the link administrator';
        END IF;
        IF pg_has_role(session_user, '{PIT_ROLE}', 'MEMBER') THEN
            RETURN 'the pit';
        END IF;
        RAISE EXCEPTION 'the login % is neither a table, the pit nor a link administrator',
            session_user USING ERRCODE = 'insufficient_privilege';
    END $$
    """,
    f"""
    CREATE FUNCTION pit_report(p_phase text, p_round bigint, p_round_text text,
        p_open boolean, p_self_test text, p_devices jsonb, p_link text, p_waiting integer,
        p_drop bigint, p_hold bigint, p_events jsonb) RETURNS void LANGUAGE plpgsql
    {_DEFINER} AS $$
    DECLARE
        me text := link_me(NULL);
        active text[] := ARRAY[]::text[];
    BEGIN
        IF length(p_phase) > 40 OR length(p_round_text) > 2000 OR length(p_self_test) > 500
           OR length(p_link) > 500 OR jsonb_typeof(p_devices) <> 'array'
           OR jsonb_typeof(p_events) <> 'array' OR jsonb_array_length(p_devices) > 16
           OR jsonb_array_length(p_events) > 20 OR length(p_events::text) > 8000
           OR length(p_devices::text) > 4000 OR p_waiting < 0 THEN
            RAISE EXCEPTION 'table %: a report out of bounds (its texts, devices or events '
                'too long)', me USING ERRCODE = '{REFUSED}';
        END IF;
        INSERT INTO pit_reports AS r (table_id, phase, round_id, round_text, table_open,
            self_test, devices, link_state, jackpots_waiting, drop_cents, hold_cents, events)
        VALUES (me, p_phase, p_round, p_round_text, p_open, p_self_test, p_devices, p_link,
                p_waiting, p_drop, p_hold, p_events)
        ON CONFLICT (table_id) DO UPDATE SET phase = EXCLUDED.phase,
            round_id = EXCLUDED.round_id, round_text = EXCLUDED.round_text,
            table_open = EXCLUDED.table_open, self_test = EXCLUDED.self_test,
            devices = EXCLUDED.devices, link_state = EXCLUDED.link_state,
            jackpots_waiting = EXCLUDED.jackpots_waiting, drop_cents = EXCLUDED.drop_cents,
            hold_cents = EXCLUDED.hold_cents, events = EXCLUDED.events,
            reported_at = clock_timestamp();
        -- an acknowledgement lasts while its alert does: one that cleared is forgotten, so
        -- its return is loud again (a report is the heartbeat: a lost one has returned)
        IF p_waiting > 0 THEN active := active || 'jackpot'::text; END IF;
        IF NOT p_open THEN active := active || 'closed'::text; END IF;
        IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_devices) d
                   WHERE NOT COALESCE((d ->> 'ok')::boolean, false)) THEN
            active := active || 'device'::text;
        END IF;
        IF p_link NOT IN ('up', 'none') THEN active := active || 'link'::text; END IF;
        DELETE FROM pit_acks WHERE table_id = me AND NOT (kind = ANY (active));
    END $$
    """,
    f"""
    CREATE FUNCTION pit_reports() RETURNS TABLE (table_id text, phase text, round_id bigint,
        round_text text, table_open boolean, self_test text, devices jsonb, link_state text,
        jackpots_waiting integer, drop_cents bigint, hold_cents bigint, events jsonb,
        age_ms bigint, acks jsonb) LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT r.table_id, r.phase, r.round_id, r.round_text, r.table_open, r.self_test,
               r.devices, r.link_state, r.jackpots_waiting, r.drop_cents, r.hold_cents,
               r.events,
               (extract(epoch FROM clock_timestamp() - r.reported_at) * 1000)::bigint,
               COALESCE((SELECT jsonb_object_agg(a.kind, jsonb_build_object(
                   'employee', a.employee_id, 'name', a.name,
                   'at', to_char(a.acked_at, 'HH24:MI:SS')))
                   FROM pit_acks a WHERE a.table_id = r.table_id), '{{}}'::jsonb)
        FROM pit_reports r ORDER BY r.table_id
    $$
    """,
    f"""
    CREATE FUNCTION pit_staff_since(p_version bigint) RETURNS TABLE (employee_id text,
        name text, role text, card_tag text, card_hash text, enabled boolean, version bigint,
        mark text, pin_hash text)
    LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT s.employee_id, s.name, s.role, s.card_tag, s.card_hash, s.enabled, s.version,
               s.mark, s.pin_hash
        FROM pit_staff s WHERE s.version > p_version AND pit_caller() IS NOT NULL
        ORDER BY s.version
    $$
    """,
    # whether the server still holds the change a table applied last: after a restore from
    # a backup the numbers start again below it and mean other changes (each has a random
    # mark no restore brings back)
    f"""
    CREATE FUNCTION pit_staff_holds(p_version bigint, p_mark text) RETURNS boolean
    LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT pit_caller() IS NOT NULL AND (p_version = 0 OR EXISTS (
            SELECT 1 FROM pit_staff_log l WHERE l.version = p_version AND l.mark = p_mark))
    $$
    """,
    *CARD_SCHEMA,
    *PIN_SCHEMA,
)

_KEY = f"""
CREATE FUNCTION pit_staff_key() RETURNS bytea LANGUAGE sql STABLE {_DEFINER} AS $$
    SELECT key FROM pit_secret WHERE link_login_table() IS NOT NULL
$$
"""
"""The tag's key, for a table keeping the casino's list: it computes a swipe's tag as the
server does (16 bits of an HMAC, ``employees/cardhash.py``'s form), which narrows a swipe to a
few cards and on its own identifies nobody."""

_GRANTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pit_report(text, bigint, text, boolean, text, jsonb, text, integer, bigint, bigint, "
     "jsonb)", (TABLE_ROLE,)),
    ("pit_reports()", (PIT_ROLE, ADMIN_ROLE)),
    ("pit_acknowledge(text, text, text)", (PIT_ROLE, TABLE_ROLE)),
    ("pit_staff_set(text, text, text, text, text, text, boolean, text, text)",
     (PIT_ROLE, TABLE_ROLE, ADMIN_ROLE)),
    ("pit_card_unlock(text, text)", (ADMIN_ROLE,)),
    ("pit_staff_since(bigint)", (TABLE_ROLE,)),
    ("pit_staff_holds(bigint, text)", (TABLE_ROLE,)),
    ("pit_staff_key()", (TABLE_ROLE,)),
    *PIN_GRANTS,
)
