"""Migration ``0005_cards_on_server``: a linked hit paid off the shared meter only on a card the
server itself has read.

Before it, the server held a hit's confirmers to its list by the employee ids the table sent:
a table's login (its password file taken from the table's PC) could name any confirmer and
pay itself the meter. With the switch on for a link (``link cards-on-server``, an
administrator's change with a reason, written in ``link_admin_log``):

- the table asks whether the link reads the cards (``link_reads_cards``, no card sent: a card
  sent where it is not needed could sit in the server's statement log); where it does, it
  hands the server the swiped card first (:data:`PRESENT_CARD`). The server reads
  it against the casino's staff list (``pit_card_gate``: the pit's bounded, written attempts,
  so a login guessing at cards is locked as at the pit) and gives back a **pass**: single use,
  this table's, this employee's, good for :data:`PASS_S` seconds. The card is never stored;
  the pass only as its SHA-256.
- ``link_confirm_hit`` pays a hit that takes anything off a meter only with a pass for each
  confirmer, of the role the link's own list gives them (the casino's list must agree). A
  repeated ask (a lost answer) still gets the hit already paid, with no card.
- The old nine-argument ``link_confirm_hit`` (a console from before) is the new one without
  passes: refused on such a link, in words that say to update the console. The paying body of
  ``0003_trust`` is kept as ``link_pay_hit``, which no table may call any more.

A tray pay reported after the link was down moves no meter and needs no pass (its card was
read at the table, long before). Each pass used names its hit (``link_card_passes.hit_id``),
so the audit can tell which hits were paid on a card the server read.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED, TABLE_ROLE
from dealer_console.link.sql_base import DEFINER as _DEFINER

PASS_S = 60
"""How long a pass is good for: the table presents the cards and asks at once (a held first
confirmation keeps its card in the console's memory, not a pass)."""

_OLD = ("text, text, bigint, integer, integer, integer, text, text, bigint")
_NEW = f"{_OLD}, text, text"
_FOR_TABLES = ("link_reads_cards(text)", "link_present_card(text, text, text)",
               f"link_confirm_hit({_NEW})",
               f"link_confirm_hit({_OLD})")
_FUNCTIONS = (*_FOR_TABLES, "link_use_pass(text, text, text, text)",
              "link_set_cards_on_server(text, boolean, text)")

SCHEMA: tuple[str, ...] = (
    "ALTER TABLE link_games ADD COLUMN cards_on_server boolean NOT NULL DEFAULT false",
    """
    CREATE TABLE link_card_passes (
        pass_sha text PRIMARY KEY,
        link text NOT NULL REFERENCES link_games (link),
        table_id text NOT NULL,
        employee_id text NOT NULL,
        role text NOT NULL,
        issued_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        used_at timestamptz,
        hit_id bigint
    )
    """,
    "CREATE INDEX link_card_passes_hit ON link_card_passes (hit_id)",
    f"ALTER FUNCTION link_confirm_hit({_OLD}) RENAME TO link_pay_hit",
    f"REVOKE EXECUTE ON FUNCTION link_pay_hit({_OLD}) FROM {TABLE_ROLE}",
    # whether the link reads the cards itself: asked before any card is sent
    f"""
    CREATE FUNCTION link_reads_cards(p_link text) RETURNS boolean LANGUAGE sql STABLE
    {_DEFINER} AS $$
        SELECT g.cards_on_server FROM link_games g WHERE g.link = p_link
    $$
    """,
    # the card read against the casino's list: a pass, or the refusal (written, never raised,
    # so the attempt counts towards the login's lock)
    f"""
    CREATE FUNCTION link_present_card(p_link text, p_claimed text, p_track text,
        OUT needed boolean, OUT employee_id text, OUT pass text, OUT refusal text)
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        me text := link_me(p_claimed);
        g link_games%ROWTYPE;
        gate record;
    BEGIN
        SELECT * INTO g FROM link_games WHERE link = p_link;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'link % is not installed on the server', p_link
                USING ERRCODE = '{REFUSED}';
        END IF;
        needed := g.cards_on_server;
        IF NOT needed THEN
            RETURN;
        END IF;
        SELECT * INTO gate FROM pit_card_gate('table ' || me,
            format('confirm a jackpot hit on link %s', left(p_link, 64)), p_track);
        refusal := gate.refusal;
        IF refusal IS NOT NULL THEN
            RETURN;
        END IF;
        employee_id := (gate.who).employee_id;
        pass := encode(gen_random_bytes(16), 'hex');
        INSERT INTO link_card_passes (pass_sha, link, table_id, employee_id, role)
            VALUES (encode(digest(pass, 'sha256'), 'hex'), p_link, me, employee_id,
                    (gate.who).role);
    END $$
    """,
    # one confirmer's pass taken (raised when there is none good): its digest
    f"""
    CREATE FUNCTION link_use_pass(p_link text, p_me text, p_employee text, p_pass text)
    RETURNS text LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        p link_card_passes%ROWTYPE;
        listed text;
    BEGIN
        IF p_pass IS NULL THEN
            RAISE EXCEPTION 'link % pays off its meter only on a card the server reads: this '
                'table''s console sent none for employee % (a console from before: update it)',
                p_link, p_employee USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT * INTO p FROM link_card_passes c
            WHERE c.pass_sha = encode(digest(p_pass, 'sha256'), 'hex') FOR UPDATE;
        IF NOT FOUND OR p.link <> p_link OR p.table_id <> p_me OR p.used_at IS NOT NULL
           OR p.issued_at < clock_timestamp() - interval '{PASS_S} seconds' THEN
            RAISE EXCEPTION 'the card for employee % was not read by the server for this hit '
                '(or it was read over {PASS_S} seconds ago): swipe again', p_employee
                USING ERRCODE = '{REFUSED}';
        END IF;
        IF p.employee_id <> p_employee THEN
            RAISE EXCEPTION 'the card the server read is employee %''s, not %''s: nothing paid',
                p.employee_id, p_employee USING ERRCODE = '{REFUSED}';
        END IF;
        SELECT c.role INTO listed FROM link_confirmers c
            WHERE c.employee_id = p_employee AND c.enabled;
        IF listed IS NOT NULL AND listed <> p.role THEN
            RAISE EXCEPTION 'employee % is a % on the link''s list of confirmers but a % on '
                'the casino''s staff list: the link administrator brings the two in line',
                p_employee, listed, p.role USING ERRCODE = '{REFUSED}';
        END IF;
        UPDATE link_card_passes SET used_at = clock_timestamp() WHERE pass_sha = p.pass_sha;
        RETURN p.pass_sha;
    END $$
    """,
    f"""
    CREATE FUNCTION link_confirm_hit(p_link text, p_claimed text, p_round bigint,
        p_spot integer, p_seat integer, p_line integer, p_employee text, p_second text,
        p_most bigint, p_pass text, p_second_pass text) RETURNS SETOF link_hits
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        me text := link_me(p_claimed);
        g link_games%ROWTYPE;
        h link_hits%ROWTYPE;
        used text[] := '{{}}';
    BEGIN
        -- the meters locked first (as the pay locks them), then the switch read: a hit
        -- waiting its turn when the switch turns is held to the switch as it then stands
        PERFORM 1 FROM link_levels WHERE link = p_link ORDER BY position FOR UPDATE;
        SELECT * INTO g FROM link_games WHERE link = p_link;
        IF FOUND AND g.cards_on_server
           AND NOT EXISTS (SELECT 1 FROM link_hits x WHERE x.link = p_link
                AND x.table_id = me AND x.round_id = p_round AND x.spot = p_spot
                AND x.seat = p_seat)  -- asked again: the hit already paid, no card
           AND (g.fixed_from_meter OR EXISTS (SELECT 1 FROM link_lines l
                WHERE l.link = p_link AND l.line_no = p_line AND l.level IS NOT NULL)) THEN
            used := used || link_use_pass(p_link, me, p_employee, p_pass);
            IF p_second IS NOT NULL THEN
                used := used || link_use_pass(p_link, me, p_second, p_second_pass);
            END IF;
        END IF;
        FOR h IN SELECT * FROM link_pay_hit(p_link, p_claimed, p_round, p_spot, p_seat,
                                            p_line, p_employee, p_second, p_most) LOOP
            UPDATE link_card_passes SET hit_id = h.hit_id
                WHERE pass_sha = ANY (used) AND hit_id IS NULL;
            RETURN NEXT h;
        END LOOP;
    END $$
    """,
    # a console from before: the same, without passes
    f"""
    CREATE FUNCTION link_confirm_hit(p_link text, p_claimed text, p_round bigint,
        p_spot integer, p_seat integer, p_line integer, p_employee text, p_second text,
        p_most bigint) RETURNS SETOF link_hits LANGUAGE sql {_DEFINER} AS $$
        SELECT * FROM link_confirm_hit(p_link, p_claimed, p_round, p_spot, p_seat, p_line,
                                       p_employee, p_second, p_most, NULL, NULL)
    $$
    """,
    f"""
    CREATE FUNCTION link_set_cards_on_server(p_link text, p_on boolean, p_reason text)
    RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE g link_games%ROWTYPE;
    BEGIN
        PERFORM link_need_admin(p_reason);
        PERFORM 1 FROM link_levels WHERE link = p_link ORDER BY position FOR UPDATE;
        SELECT * INTO g FROM link_games WHERE link = p_link FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'link % is not installed', p_link USING ERRCODE = '{REFUSED}';
        END IF;
        IF p_on AND to_regprocedure('pit_card_gate(text, text, text)') IS NULL THEN
            RAISE EXCEPTION 'the casino''s staff list is not on this server: run '
                '"dealer-console link init" (it installs the pit''s part) and put the staff '
                'on it first' USING ERRCODE = '{REFUSED}';
        END IF;
        UPDATE link_games SET cards_on_server = p_on WHERE link = p_link;
        INSERT INTO link_admin_log (link, what, detail, reason) VALUES (p_link,
            'cards on server', format('cards read by the server: %s -> %s',
            CASE WHEN g.cards_on_server THEN 'on' ELSE 'off' END,
            CASE WHEN p_on THEN 'on' ELSE 'off' END), p_reason);
    END $$
    """,
)


def migrate(cur: psycopg.Cursor[tuple[object, ...]]) -> None:
    """Migration ``0005_cards_on_server`` (see the module doc)."""
    cur.execute(b"CREATE EXTENSION IF NOT EXISTS pgcrypto")
    for statement in SCHEMA:
        cur.execute(statement.encode())
    admin, table = sql.Identifier(ADMIN_ROLE), sql.Identifier(TABLE_ROLE)
    auditor = sql.Identifier("dealer_link_auditor")
    cur.execute(b"ALTER TABLE link_card_passes ENABLE ROW LEVEL SECURITY")
    cur.execute(sql.SQL("GRANT SELECT ON link_card_passes TO {}, {}").format(admin, auditor))
    cur.execute(sql.SQL("CREATE POLICY link_read ON link_card_passes FOR SELECT TO {}, {} "
                        "USING (true)").format(admin, auditor))
    cur.execute(b"REVOKE ALL ON TABLE link_card_passes FROM PUBLIC")
    for signature in _FUNCTIONS:  # whoever runs the migration: no one's until granted
        cur.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC".encode())
    for signature in _FOR_TABLES:
        cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {signature} TO {{}}").format(table))
    cur.execute(sql.SQL("GRANT EXECUTE ON FUNCTION link_set_cards_on_server(text, boolean, "
                        "text) TO {}").format(admin))
