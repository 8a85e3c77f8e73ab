"""Migration ``0008_in_force``: each hit keeps the rules it was paid under, and every change of
who may confirm and of a game's thresholds is kept, however it was made.

Before it, ``link audit`` could check a hit's confirmers only against the list as it stands:
a supervisor made an executive for one large hit and back again left every hit looking right,
and a change written straight into ``link_confirmers`` or ``link_games`` (as the schema's
owner can) left no line anywhere. Now:

- a trigger on ``link_hits`` writes into each new hit, in its own transaction, the role each
  confirmer held then (none for one unknown or disabled) and the game's executive threshold
  and two-person level, whatever wrote the row; ``link audit`` holds every hit to them
  (``jackpot/confirm_rules.who_falls_short``, the table's own rule);
- triggers on ``link_confirmers``, ``link_games`` and ``link_table_links`` write each row's
  change (before and after, who, when) into the append-only ``link_settings_history``;
- a change of a game's thresholds, or of who may confirm, now waits for the meters as a hit
  does (the hit holds them from its start to its commit), so what a hit's function applied
  and what its row records are the same rules: before, an administrator's change that landed
  between the two made the audit doubt a hit paid rightly;
- no one empties these tables or the append-only ones with ``TRUNCATE`` (a trigger refuses
  it: a row-by-row trigger never sees a TRUNCATE).

Hits paid before this migration have no such record (``rules_kept`` false).
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_admin import ADMIN
from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link.sql_edit import edited, released

KEPT = ("link_confirmers", "link_games", "link_table_links")
"""The settings whose every change is kept in ``link_settings_history``."""

SCHEMA: tuple[str, ...] = (
    "ALTER TABLE link_hits ADD COLUMN employee_role text",
    "ALTER TABLE link_hits ADD COLUMN second_role text",
    "ALTER TABLE link_hits ADD COLUMN executive_threshold_cents bigint",
    "ALTER TABLE link_hits ADD COLUMN two_person_above_cents bigint",
    "ALTER TABLE link_hits ADD COLUMN rules_kept boolean NOT NULL DEFAULT false",
    f"""
    CREATE FUNCTION link_hit_in_force() RETURNS trigger LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        NEW.employee_role := (SELECT c.role FROM link_confirmers c
                              WHERE c.employee_id = NEW.employee_id AND c.enabled);
        NEW.second_role := (SELECT c.role FROM link_confirmers c
                            WHERE c.employee_id = NEW.second_employee_id AND c.enabled);
        SELECT g.executive_threshold_cents, g.two_person_above_cents
            INTO NEW.executive_threshold_cents, NEW.two_person_above_cents
            FROM link_games g WHERE g.link = NEW.link;
        NEW.rules_kept := true;
        RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER link_hits_in_force BEFORE INSERT ON link_hits "
    "FOR EACH ROW EXECUTE FUNCTION link_hit_in_force()",
    """
    CREATE TABLE link_settings_history (
        entry bigserial PRIMARY KEY,
        setting text NOT NULL,
        change text NOT NULL CHECK (change IN ('INSERT', 'UPDATE', 'DELETE')),
        before jsonb,
        after jsonb,
        actor text NOT NULL DEFAULT session_user,
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    "CREATE TRIGGER link_settings_history_append_only BEFORE UPDATE OR DELETE ON "
    "link_settings_history FOR EACH ROW EXECUTE FUNCTION link_append_only()",
    f"""
    CREATE FUNCTION link_keep_setting() RETURNS trigger LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        INSERT INTO link_settings_history (setting, change, before, after)
        VALUES (TG_TABLE_NAME, TG_OP,
                CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END,
                CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END);
        RETURN NULL;
    END $$
    """,
    *(f"CREATE TRIGGER {t}_kept AFTER INSERT OR UPDATE OR DELETE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION link_keep_setting()" for t in KEPT),
)


_NEED = "        PERFORM link_need_admin(p_reason);\n"
WAIT_S = 2
"""How long a change of the rules waits for the meters before it is refused: a link stuck
behind a connection that holds them must not stall every other link's hits behind the
change (a review: a hit on another link waited 3.3 s, and with a holder no table can end,
for ever)."""


def _meters_first(which: str, what: str) -> str:
    """The meters locked first, waiting at most :data:`WAIT_S` seconds (then refused), the
    session's own lock timeout put back after."""
    return (f"""        PERFORM set_config('dealer_link.lock_timeout_was',
                           current_setting('lock_timeout'), true);
        PERFORM set_config('lock_timeout', '{WAIT_S}s', true);
        BEGIN
            PERFORM 1 FROM link_levels{which} ORDER BY link, position FOR UPDATE;
        EXCEPTION WHEN lock_not_available THEN
            RAISE EXCEPTION '{what} held by a hit or wagers being sent: nothing changed; '
                'try again in a moment' USING ERRCODE = '{REFUSED}';
        END;
        PERFORM set_config('lock_timeout', current_setting('dealer_link.lock_timeout_was'),
                           true);
""")


LOCKED_CHANGES: tuple[str, ...] = (
    edited(released(ADMIN, "FUNCTION link_set_thresholds("), (_NEED, _NEED + _meters_first(
        " WHERE link = p_link", "the link''s meters are"))),
    edited(released(ADMIN, "FUNCTION link_set_confirmer("), (_NEED, _NEED + _meters_first(
        "", "a link''s meters are"))),
)
"""The administrator's changes of the rules a hit is paid under, each waiting (for at most
:data:`WAIT_S` seconds) for the meters, every link's for who may confirm, as a hit's
payment does."""

NOT_EMPTIED = ("link_contributions", "link_hits", "link_ledger", "link_admin_log",
               "link_card_passes", "link_settings_history", *KEPT)
NO_TRUNCATE: tuple[str, ...] = (
    """
    CREATE FUNCTION link_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '% keeps every row as evidence: TRUNCATE refused', TG_TABLE_NAME;
    END $$
    """,
    *(f"CREATE TRIGGER {t}_no_truncate BEFORE TRUNCATE ON {t} "
      "FOR EACH STATEMENT EXECUTE FUNCTION link_no_truncate()" for t in NOT_EMPTIED),
)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0008_in_force`` (see the module doc)."""
    for statement in (*SCHEMA, *LOCKED_CHANGES, *NO_TRUNCATE):
        cur.execute(statement.encode())
    admin, auditor = sql.Identifier(ADMIN_ROLE), sql.Identifier("dealer_link_auditor")
    cur.execute(b"REVOKE ALL ON TABLE link_settings_history FROM PUBLIC")
    cur.execute(b"REVOKE ALL ON SEQUENCE link_settings_history_entry_seq FROM PUBLIC")
    cur.execute(b"ALTER TABLE link_settings_history ENABLE ROW LEVEL SECURITY")
    cur.execute(sql.SQL("GRANT SELECT ON link_settings_history TO {}, {}").format(admin,
                                                                               auditor))
    cur.execute(sql.SQL("CREATE POLICY link_read ON link_settings_history FOR SELECT TO {}, {} "
                        "USING (true)").format(admin, auditor))
    for signature in ("link_hit_in_force()", "link_keep_setting()", "link_no_truncate()"):
        cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    # what stands now is the history's first line
    for table in KEPT:
        cur.execute(sql.SQL("INSERT INTO link_settings_history (setting, change, after) "
                            "SELECT {}, 'INSERT', to_jsonb(t) FROM {} t").format(
                                sql.Literal(table), sql.Identifier(table)))
