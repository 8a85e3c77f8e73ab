"""The server as the witness of each table's records (migration ``pit_0003_witness``).

A table's file can be swapped for an older copy of itself (its journal deleted, so nothing at
the table tells): the copy passes the table's own checks, and every round played since it was
made is gone from the evidence. The table cannot see this; someone outside it can. Each table
already reports to the server every two seconds, so with each report it also says where its
event log ends (the newest event's number and chained hash, ``storage/eventlog.py``) and
what its log holds at the point the server last vouched for (the *mark*). The server:

- keeps, per table, the furthest point of its log it has seen follow on from the one before
  (``pit_witness``), moving it on only when the table's log holds the mark unchanged, and the
  last :data:`POINTS_KEPT` points it vouched for (``pit_witness_points``);
- writes a *records alert* (``pit_rewinds``, append-only) when a report's log ends before the
  mark (``back``: an older copy, a restore, a new file), or holds something else at the mark
  or at one of those points (``fork``: a copy that has played on, another file under the same
  login answering with a mark a little behind);
- lets these two tables change only through its functions (a trigger; the schema's owner
  can still set the functions' flag by hand, a deliberate step);
- keeps the mark where it was found while an alert is open, so the evidence stays, and no
  later play of the copy can make the alert go away;
- lets only an executive's card clear it, with a reason, at the pit (``pit_rewind_clear``,
  written in ``pit_rewind_clears``, append-only). The next report starts the witness again.
  A restore after a failed disk is such a case, and now leaves a trace with who and why.

A table that sends no point (an older release, or a table whose file cannot be read) is not
judged. A table reports on its own login (``link_me``): it cannot speak for another table.
Only what the server has seen is protected: rounds played while the table could not report,
then lost to an older copy taken before them, leave no trace here.
"""

from __future__ import annotations

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED, TABLE_ROLE
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link.pit.sql import PIT_ROLE
from dealer_link.pit.sql import SCHEMA as _PIT_0001
from dealer_link.pit.sql_cards import ALERT_KINDS, ALERT_KINDS_V1, CARD_SCHEMA, _in
from dealer_link.sql_edit import edited, released

WITNESS_MIGRATION = "pit_0003_witness"
HASH_PATTERN = "^[0-9a-f]{64}$"
"""An event's chained hash: sha256, in hex (``storage/eventlog.event_hash``)."""
REASON_MAX = 200
POINTS_KEPT = 64
"""The last points vouched for, per table, that a report's mark is checked against: a second
file under the same login answers with a mark a little behind the first's."""
WITNESS_TABLES = ("pit_witness", "pit_witness_points", "pit_rewinds", "pit_rewind_clears")
_WRITER = "PERFORM set_config('pit.witness_writer', 'on', true);"
"""Set by the two functions that may change the witness, for its guard (``pit_witness_guard``):
a change by hand needs a deliberate step, and is no accident."""

WITNESS_SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE pit_witness (
        table_id text PRIMARY KEY,
        seq bigint NOT NULL CHECK (seq >= 0),
        hash text NOT NULL,
        seen_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    """
    CREATE TABLE pit_witness_points (
        table_id text NOT NULL,
        seq bigint NOT NULL,
        hash text NOT NULL,
        PRIMARY KEY (table_id, seq)
    )
    """,
    """
    CREATE FUNCTION pit_witness_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('pit.witness_writer', true) IS DISTINCT FROM 'on' THEN
            RAISE EXCEPTION '% is the server''s witness of the tables'' records: it changes '
                'only through pit_witness and pit_rewind_clear', TG_TABLE_NAME;
        END IF;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$
    """,
    *(f"CREATE TRIGGER {t}_guard BEFORE INSERT OR UPDATE OR DELETE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION pit_witness_guard()" for t in ("pit_witness",
                                                                    "pit_witness_points")),
    """
    CREATE TABLE pit_rewinds (
        entry bigserial PRIMARY KEY,
        table_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('back', 'fork')),
        witnessed_seq bigint NOT NULL,
        witnessed_hash text NOT NULL,
        witnessed_at timestamptz NOT NULL,
        reported_seq bigint NOT NULL,
        reported_hash text NOT NULL,
        login text NOT NULL DEFAULT session_user,
        found_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    f"""
    CREATE TABLE pit_rewind_clears (
        entry bigserial PRIMARY KEY,
        rewind bigint NOT NULL UNIQUE REFERENCES pit_rewinds (entry),
        table_id text NOT NULL,
        employee_id text NOT NULL,
        name text NOT NULL,
        login text NOT NULL DEFAULT session_user,
        reason text NOT NULL CHECK (reason ~ '[[:alnum:]]' AND length(reason) <= {REASON_MAX}),
        cleared_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    *(f"CREATE TRIGGER {t}_append_only BEFORE UPDATE OR DELETE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION link_append_only()" for t in ("pit_rewinds",
                                                                   "pit_rewind_clears")),
    *(f"CREATE TRIGGER {t}_no_truncate BEFORE TRUNCATE ON {t} "
      "FOR EACH STATEMENT EXECUTE FUNCTION link_no_truncate()" for t in WITNESS_TABLES),
    f"""
    CREATE FUNCTION pit_rewind_open(p_table text) RETURNS boolean LANGUAGE sql STABLE
    {_DEFINER} AS $$
        SELECT EXISTS (SELECT 1 FROM pit_rewinds r WHERE r.table_id = p_table
            AND NOT EXISTS (SELECT 1 FROM pit_rewind_clears c WHERE c.rewind = r.entry))
    $$
    """,
    # the table's point: its log's end and what it holds at the mark the server answered last
    f"""
    CREATE FUNCTION pit_witness(p_seq bigint, p_hash text, p_at_seq bigint, p_at_hash text)
    RETURNS bigint LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        me text := link_me(NULL);
        w pit_witness;
        vouched text;
    BEGIN
        {_WRITER}
        IF p_seq IS NULL OR p_seq < 0 OR p_hash IS NULL OR p_hash !~ '{HASH_PATTERN}'
           OR (p_at_hash IS NOT NULL AND p_at_hash !~ '{HASH_PATTERN}') THEN
            RAISE EXCEPTION 'table %: where its records end is out of bounds (an event''s '
                'number and its sha256 in hex)', me USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT * INTO w FROM pit_witness WHERE table_id = me FOR UPDATE;
        IF NOT FOUND THEN
            INSERT INTO pit_witness (table_id, seq, hash) VALUES (me, p_seq, p_hash)
                ON CONFLICT (table_id) DO NOTHING;  -- two at once: the first is the start
            INSERT INTO pit_witness_points VALUES (me, p_seq, p_hash) ON CONFLICT DO NOTHING;
            RETURN p_seq;
        END IF;
        -- a mark behind the newest: what the server vouched for there (none: one from before
        -- a clearing, or a server restored from an older copy: nothing to judge)
        SELECT p.hash INTO vouched FROM pit_witness_points p
            WHERE p.table_id = me AND p.seq = p_at_seq AND p_at_seq < w.seq;
        IF pit_rewind_open(me) THEN
            RETURN w.seq;  -- the mark stays the evidence until an executive clears it
        END IF;
        IF p_seq < w.seq OR (p_seq = w.seq AND p_hash <> w.hash)
           OR (p_at_seq = w.seq AND p_at_hash IS DISTINCT FROM w.hash)
           OR (vouched IS NOT NULL AND p_at_hash IS DISTINCT FROM vouched) THEN
            INSERT INTO pit_rewinds (table_id, kind, witnessed_seq, witnessed_hash,
                witnessed_at, reported_seq, reported_hash)
            VALUES (me, CASE WHEN p_seq < w.seq THEN 'back' ELSE 'fork' END, w.seq, w.hash,
                    w.seen_at, p_seq, p_hash);
            DELETE FROM pit_acks WHERE table_id = me AND kind = 'rewind';
            RETURN w.seq;
        END IF;
        IF p_seq > w.seq AND p_at_seq = w.seq THEN
            UPDATE pit_witness SET seq = p_seq, hash = p_hash, seen_at = clock_timestamp()
            WHERE table_id = me;
            INSERT INTO pit_witness_points VALUES (me, p_seq, p_hash) ON CONFLICT DO NOTHING;
            DELETE FROM pit_witness_points WHERE table_id = me AND seq < (
                SELECT min(k.seq) FROM (SELECT p.seq FROM pit_witness_points p
                    WHERE p.table_id = me ORDER BY p.seq DESC LIMIT {POINTS_KEPT}) k);
            RETURN p_seq;
        END IF;
        RETURN w.seq;  -- nothing new, or the table did not yet say what it holds at the mark
    END $$
    """,
    # the open records alerts, for the pit's screen
    f"""
    CREATE FUNCTION pit_rewinds() RETURNS TABLE (table_id text, entry bigint, kind text,
        witnessed_seq bigint, witnessed_at text, reported_seq bigint, found_at text)
    LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT r.table_id, r.entry, r.kind, r.witnessed_seq,
               to_char(r.witnessed_at, 'YYYY-MM-DD HH24:MI:SS'), r.reported_seq,
               to_char(r.found_at, 'YYYY-MM-DD HH24:MI:SS')
        FROM pit_rewinds r
        WHERE NOT EXISTS (SELECT 1 FROM pit_rewind_clears c WHERE c.rewind = r.entry)
        ORDER BY r.table_id, r.entry
    $$
    """,
    f"""
    CREATE FUNCTION pit_rewind_clear(p_entry bigint, p_track text, p_reason text,
        OUT refusal text, OUT cleared_by text) LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        caller text := pit_caller();
        p_table text := (SELECT r.table_id FROM pit_rewinds r WHERE r.entry = p_entry);
        action text := format('clear records alert %s of table %s', p_entry,
                              left(p_table, 64));
        who pit_staff;
        gate record;
    BEGIN
        {_WRITER}
        IF p_reason IS NULL OR p_reason !~ '[[:alnum:]]' OR length(p_reason) > {REASON_MAX}
        THEN
            refusal := 'clearing a records alert needs a reason, in words (at most '
                '{REASON_MAX})';
            RETURN;
        END IF;
        IF p_table IS NULL OR EXISTS (SELECT 1 FROM pit_rewind_clears c
                                      WHERE c.rewind = p_entry) THEN
            refusal := pit_card_refuse(caller, action, format('records alert %s is not open '
                '(cleared already, or no such alert): look at the table again', p_entry),
                false);
            RETURN;
        END IF;
        SELECT * INTO gate FROM pit_card_gate(caller, action, p_track);
        who := gate.who;
        refusal := gate.refusal;
        IF refusal IS NOT NULL THEN
            RETURN;
        END IF;
        IF who.role <> 'executive' THEN
            refusal := pit_card_refuse(caller, action, format('%s is a %s: a records alert '
                'is cleared on an executive''s card', who.name, who.role), true);
            RETURN;
        END IF;
        PERFORM 1 FROM pit_witness WHERE table_id = p_table FOR UPDATE;
        INSERT INTO pit_rewind_clears (rewind, table_id, employee_id, name, reason)
            VALUES (p_entry, p_table, who.employee_id, who.name, btrim(p_reason));
        -- the next report starts the witness again
        DELETE FROM pit_witness WHERE table_id = p_table;
        DELETE FROM pit_witness_points WHERE table_id = p_table;
        DELETE FROM pit_acks WHERE table_id = p_table AND kind = 'rewind';
        cleared_by := who.name;
    END $$
    """,
    # an acknowledgement of a records alert lasts while the alert is open
    edited(released(_PIT_0001, "FUNCTION pit_report("),
           ("IF p_link NOT IN ('up', 'none') THEN active := active || 'link'::text; END IF;",
            "IF p_link NOT IN ('up', 'none') THEN active := active || 'link'::text; END IF;\n"
            "        IF pit_rewind_open(me) THEN active := active || 'rewind'::text; END IF;")),
    edited(released(CARD_SCHEMA, "FUNCTION pit_acknowledge("),
           (f"p_kind NOT IN ({_in(ALERT_KINDS_V1)})", f"p_kind NOT IN ({_in(ALERT_KINDS)})")),
    "REVOKE ALL ON pit_witness, pit_witness_points, pit_rewinds, pit_rewind_clears "
    "FROM PUBLIC",
    *(f"REVOKE ALL ON FUNCTION {f} FROM PUBLIC" for f in (
        "pit_rewind_open(text)", "pit_witness(bigint, text, bigint, text)", "pit_rewinds()",
        "pit_rewind_clear(bigint, text, text)")),
)

WITNESS_GRANTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pit_witness(bigint, text, bigint, text)", (TABLE_ROLE,)),
    ("pit_rewinds()", (PIT_ROLE, ADMIN_ROLE)),
    ("pit_rewind_clear(bigint, text, text)", (PIT_ROLE,)),
)
