"""The pit's card functions (part of migration ``pit_0001``): an alert acknowledged and the
staff list changed on a card the server checks, with the guesses at a card bounded.

- **Every refusal is recorded.** ``pit_acknowledge`` and ``pit_staff_set`` never raise for a
  refusal: they write a line of ``pit_card_attempts`` (the login, which table or the pit, what
  was tried, why it was refused, the server's time; never the card) and *return* the refusal
  in words, so the line survives (a raise would roll it back with the attempt). The append-
  only table is the trace a guesser leaves.
- **Guesses are bounded.** A login with :data:`LOCK_FAILURES` refused cards within
  :data:`LOCK_WINDOW_MIN` minutes has its card attempts refused, its card unread, until the
  oldest of those leaves the window, or until a link administrator lifts it
  (``pit_card_unlock``, written in ``pit_card_unlocks`` with a reason). A refusal while
  locked is recorded but does not count: the lock ends at the time it says.
- **The trace is bounded too.** A refusal that does not count (made while locked, or before
  any card was read) is written at most :data:`FLOOD_PER_MINUTE` times a minute per login.
- Attempts of one login are taken one at a time (since ``pit_0002_card_turns`` a lock on the
  login's own row of ``pit_card_turns``, which no other login can take), so two
  swipes at once cannot both slip under the bound.
"""

from __future__ import annotations

from dealer_console.link.sql_base import ADMIN_ROLE, REFUSED
from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link.sql_edit import edited, released

LOCK_FAILURES = 5
LOCK_WINDOW_MIN = 10
FLOOD_PER_MINUTE = 20
"""Refusals that do not count towards the lock (a locked login's, a wrong table's) written
per login per minute at most; the rest are refused unwritten (the lock bounds the others)."""
ALERT_KINDS_V1 = ("jackpot", "closed", "device", "heartbeat", "link")
"""The kinds pit_0001's ``pit_acknowledge`` takes (its released text)."""
ALERT_KINDS = ("jackpot", "rewind", "closed", "device", "heartbeat", "link")
"""Every kind of alert, most urgent first (``rewind``: a table's records went back, since
``pit_0003_witness``, ``sql_witness.py``)."""
STAFF_ROLES = ("dealer", "supervisor", "technician", "executive")


ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$"
"""An employee id as every table takes it (``employees/registry.check_id``): an id the
server let through and a table refused would stop that table's replica."""
NAME_MAX = 64
NAME_FORBIDDEN = ("[\\x01-\\x1f\\x7f-\\x9f\\u00ad\\u061c\\u180e\\u200b-\\u200f"
                  "\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb]")
"""Control and formatting characters a name must not hold (a newline or a right-to-left
override would let a name pose as another on a screen or in a log)."""
TRACK_PATTERN = "^[0-9:<=>]{1,37}$"
HASH_PATTERN = "^scrypt\\$(16384|32768|65536)\\$8\\$1\\$[0-9a-f]{32}\\$[0-9a-f]{64}$"
"""The tables' card hash (``employees/cardhash.py``) at no less than their cost: the hash is
made by the caller (the server has no scrypt), so a weak one, easier to reverse at any
table that holds the replica, is refused."""


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{v}'" for v in values)


CARD_SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE pit_card_attempts (
        entry bigserial PRIMARY KEY,
        login text NOT NULL DEFAULT session_user,
        caller text NOT NULL,
        action text NOT NULL,
        refusal text NOT NULL,
        counts boolean NOT NULL,
        at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    "CREATE INDEX pit_card_attempts_login ON pit_card_attempts (login, at)",
    """
    CREATE TABLE pit_card_unlocks (
        entry bigserial PRIMARY KEY,
        login text NOT NULL,
        by_login text NOT NULL DEFAULT session_user,
        reason text NOT NULL CHECK (length(btrim(reason)) > 0),
        at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    *(f"CREATE TRIGGER {t}_append_only BEFORE UPDATE OR DELETE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION link_append_only()" for t in ("pit_card_attempts",
                                                                   "pit_card_unlocks")),
    # until when a login's card attempts are locked, or nothing
    f"""
    CREATE FUNCTION pit_card_locked_until(p_login text) RETURNS timestamptz LANGUAGE sql
    STABLE {_DEFINER} AS $$
        SELECT min(f.at) + interval '{LOCK_WINDOW_MIN} minutes' FROM (
            SELECT a.at FROM pit_card_attempts a
            WHERE a.login = p_login AND a.counts
              AND a.at > clock_timestamp() - interval '{LOCK_WINDOW_MIN} minutes'
              AND a.at > COALESCE((SELECT max(u.at) FROM pit_card_unlocks u
                                   WHERE u.login = p_login), '-infinity')
            ORDER BY a.at DESC LIMIT {LOCK_FAILURES}) f
        HAVING count(*) >= {LOCK_FAILURES}
    $$
    """,
    # a refusal written down (it survives: the caller returns it rather than raising)
    f"""
    CREATE FUNCTION pit_card_refuse(p_caller text, p_action text, p_refusal text,
        p_counts boolean) RETURNS text LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        text_out text := p_refusal;
        n integer;
    BEGIN
        -- a refusal that does not count (the login locked, a wrong table or id) is bounded
        -- by nothing else: past a minute's share, it is refused unwritten, so a hostile
        -- login cannot fill the server's disk with its trace; the trace keeps its start
        IF NOT p_counts AND (SELECT count(*) FROM pit_card_attempts a
                WHERE a.login = session_user AND NOT a.counts
                  AND a.at > clock_timestamp() - interval '1 minute') >= {FLOOD_PER_MINUTE}
        THEN
            RETURN regexp_replace(text_out || ' (not written down: this login made more '
                'than {FLOOD_PER_MINUTE} refused attempts in the last minute)',
                '{NAME_FORBIDDEN}', '?', 'g');
        END IF;
        -- the caller's words are in it (a table's name, an employee id): no control or
        -- formatting character reaches an administrator's terminal or screen
        INSERT INTO pit_card_attempts (caller, action, refusal, counts)
            VALUES (p_caller, left(regexp_replace(p_action, '{NAME_FORBIDDEN}', '?', 'g'), 200),
                    left(regexp_replace(p_refusal, '{NAME_FORBIDDEN}', '?', 'g'), 300),
                    p_counts);
        IF p_counts THEN
            SELECT count(*) INTO n FROM pit_card_attempts a
            WHERE a.login = session_user AND a.counts
              AND a.at > clock_timestamp() - interval '{LOCK_WINDOW_MIN} minutes'
              AND a.at > COALESCE((SELECT max(u.at) FROM pit_card_unlocks u
                                   WHERE u.login = session_user), '-infinity');
            IF n >= {LOCK_FAILURES} THEN
                text_out := text_out || format(' (%s refused cards in {LOCK_WINDOW_MIN} '
                    'minutes: this login''s card attempts are now locked until %s)', n,
                    to_char(pit_card_locked_until(session_user), 'HH24:MI:SS'));
            ELSIF n >= {LOCK_FAILURES - 2} THEN
                text_out := text_out || format(' (%s refused cards in {LOCK_WINDOW_MIN} '
                    'minutes: at {LOCK_FAILURES} this login''s card attempts are locked)', n);
            END IF;
        END IF;
        RETURN regexp_replace(text_out, '{NAME_FORBIDDEN}', '?', 'g');
    END $$
    """,
    # the enabled employee whose card this is, after the login's lock; or the refusal
    f"""
    CREATE FUNCTION pit_card_gate(p_caller text, p_action text, p_track text,
        OUT who pit_staff, OUT refusal text) LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE locked timestamptz;
    BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('pit card ' || session_user));
        locked := pit_card_locked_until(session_user);
        IF locked IS NOT NULL THEN
            refusal := pit_card_refuse(p_caller, p_action, format('card attempts from the '
                'login %s are locked until %s ({LOCK_FAILURES} refused cards in '
                '{LOCK_WINDOW_MIN} minutes): the card was not read. A link administrator '
                'can lift the lock: dealer-console pit unlock-cards %s', session_user,
                to_char(locked, 'HH24:MI:SS'), session_user), false);
            RETURN;
        END IF;
        IF p_track IS NULL OR length(p_track) > 200 THEN
            who := NULL;
        ELSE
            SELECT * INTO who FROM pit_staff s WHERE s.enabled AND s.card_tag = pit_tag(p_track)
                AND s.card_crypt = crypt(p_track, s.card_crypt) LIMIT 1;
        END IF;
        IF (who).employee_id IS NULL THEN
            refusal := pit_card_refuse(p_caller, p_action, 'this card is not on the staff '
                'list, or it is disabled: nothing done', true);
        END IF;
    END $$
    """,
    f"""
    CREATE FUNCTION pit_acknowledge(p_table text, p_kind text, p_track text,
        OUT refusal text, OUT acked_by text) LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        caller text := pit_caller();
        action text := format('acknowledge %s at table %s', left(p_kind, 20),
                              left(p_table, 64));
        who pit_staff;
        gate record;
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM pit_reports r WHERE r.table_id = p_table) THEN
            refusal := pit_card_refuse(caller, action, format('no table %s reports to the '
                'pit', left(p_table, 64)), false);
            RETURN;
        END IF;
        IF p_kind IS NULL OR p_kind NOT IN ({_in(ALERT_KINDS_V1)}) THEN
            refusal := pit_card_refuse(caller, action, format('no alert of kind %s',
                left(p_kind, 20)), false);
            RETURN;
        END IF;
        SELECT * INTO gate FROM pit_card_gate(caller, action, p_track);
        who := gate.who;
        refusal := gate.refusal;
        IF refusal IS NOT NULL THEN
            RETURN;
        END IF;
        IF who.role NOT IN ('supervisor', 'executive') THEN
            refusal := pit_card_refuse(caller, action, format('%s is a %s: an alert is '
                'acknowledged on a supervisor''s or an executive''s card', who.name,
                who.role), true);
            RETURN;
        END IF;
        INSERT INTO pit_acks (table_id, kind, employee_id, name)
            VALUES (p_table, p_kind, who.employee_id, who.name)
            ON CONFLICT (table_id, kind) DO UPDATE SET employee_id = EXCLUDED.employee_id,
                name = EXCLUDED.name, login = session_user, acked_at = clock_timestamp();
        INSERT INTO pit_ack_log (table_id, kind, employee_id) VALUES (p_table, p_kind,
            who.employee_id);
        acked_by := who.name;
    END $$
    """,
    f"""
    CREATE FUNCTION pit_staff_set(p_track text, p_employee text, p_name text, p_role text,
        p_card text, p_card_hash text, p_enabled boolean, p_reason text, p_pin_hash text,
        OUT refusal text, OUT change bigint) LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        caller text := pit_caller();
        action text := format('staff change of %s (%s)', left(p_employee, 64),
                              left(p_role, 20));
        who pit_staff;
        old pit_staff;
        gate record;
        v bigint;
        m text;
    BEGIN
        IF p_reason IS NULL OR length(btrim(p_reason)) = 0 OR length(p_reason) > 200 THEN
            refusal := 'a change to the staff list needs a reason, in words (at most 200)';
        ELSIF p_employee IS NULL OR p_employee !~ '{ID_PATTERN}' THEN
            refusal := 'an employee id is 1-32 letters, digits, ".", "_" or "-", starting '
                'with a letter or digit (as every table takes it)';
        ELSIF p_name IS NULL OR length(p_name) NOT BETWEEN 1 AND {NAME_MAX}
              OR p_name <> btrim(p_name) OR p_name ~ '{NAME_FORBIDDEN}'
              OR NOT p_name IS NFC NORMALIZED THEN
            refusal := 'a name is 1-{NAME_MAX} characters, without surrounding spaces or '
                'control or formatting characters (as every table takes it)';
        ELSIF p_card IS NOT NULL AND (p_card !~ '{TRACK_PATTERN}'
              OR p_card_hash !~ '{HASH_PATTERN}') THEN
            refusal := 'a card is track-2 data, and its hash the tables'' scrypt form at '
                'the tables'' cost';
        ELSIF p_pin_hash IS NOT NULL AND p_pin_hash !~ '{HASH_PATTERN}' THEN
            refusal := 'a PIN comes as the tables'' scrypt hash at the tables'' cost, never '
                'as its digits';
        ELSIF p_role IS NULL OR p_role NOT IN ({_in(STAFF_ROLES)}) THEN
            refusal := format('no staff role %s', left(p_role, 20));
        ELSIF p_enabled IS NULL OR (p_card IS NULL) <> (p_card_hash IS NULL) THEN
            refusal := 'a change says whether the card is enabled, and a card comes with its '
                'hash';
        ELSIF p_track IS NULL AND caller <> 'the link administrator' THEN
            refusal := 'the staff list is changed on an executive''s card';
        ELSIF p_track IS NULL AND (p_role <> 'executive' OR NOT p_enabled
              OR EXISTS (SELECT 1 FROM pit_staff s WHERE s.role = 'executive' AND s.enabled))
        THEN
            refusal := 'without a card the link administrator only puts the casino''s first '
                'executive on the list (while it has no enabled executive); every other '
                'change is made on an executive''s card';
        END IF;
        IF refusal IS NOT NULL THEN
            refusal := pit_card_refuse(caller, action, refusal, false);
            RETURN;
        END IF;
        IF p_track IS NOT NULL THEN
            SELECT * INTO gate FROM pit_card_gate(caller, action, p_track);
            who := gate.who;
            refusal := gate.refusal;
            IF refusal IS NOT NULL THEN
                RETURN;
            END IF;
            IF who.role <> 'executive' THEN
                refusal := pit_card_refuse(caller, action, format('the staff list is changed '
                    'on an enabled executive''s card (this card is of %s, a %s)', who.name,
                    who.role), true);
                RETURN;
            END IF;
        END IF;
        SELECT * INTO old FROM pit_staff s WHERE s.employee_id = p_employee FOR UPDATE;
        -- as at every table: an executive's card never changes its holder's own record,
        -- but for stepping down while another executive is enabled, or a new PIN of their
        -- own (a check added to their own card, no right)
        IF who.employee_id = p_employee AND NOT (NOT p_enabled AND p_card IS NULL
                AND p_role = old.role AND p_name = old.name
                AND EXISTS (SELECT 1 FROM pit_staff s WHERE s.role = 'executive' AND s.enabled
                            AND s.employee_id <> p_employee))
           AND NOT (p_pin_hash IS NOT NULL AND p_enabled AND old.enabled AND p_card IS NULL
                AND p_role = old.role AND p_name = old.name) THEN
            refusal := pit_card_refuse(caller, action, format('%s may not change their own '
                'record (only step down while another executive is enabled): another '
                'executive''s card is needed', who.name), false);
            RETURN;
        END IF;
        IF old.employee_id IS NULL AND p_card IS NULL THEN
            refusal := pit_card_refuse(caller, action, 'a new employee needs a card', false);
            RETURN;
        END IF;
        IF p_card IS NOT NULL AND EXISTS (SELECT 1 FROM pit_staff s
                WHERE s.employee_id <> p_employee AND s.card_tag = pit_tag(p_card)
                  AND s.card_crypt = crypt(p_card, s.card_crypt)) THEN
            refusal := pit_card_refuse(caller, action, 'this card is already another '
                'employee''s', false);
            RETURN;
        END IF;
        v := nextval('pit_staff_version');
        m := encode(gen_random_bytes(8), 'hex');
        IF old.employee_id IS NULL THEN
            INSERT INTO pit_staff (employee_id, name, role, card_tag, card_crypt, card_hash,
                                   enabled, version, mark, pin_hash)
            VALUES (p_employee, p_name, p_role, pit_tag(p_card),
                    crypt(p_card, gen_salt('bf', 8)), p_card_hash, p_enabled, v, m,
                    p_pin_hash);
        ELSE
            UPDATE pit_staff s SET name = p_name, role = p_role, enabled = p_enabled,
                pin_hash = COALESCE(p_pin_hash, s.pin_hash),
                version = v, mark = m, card_tag = COALESCE(pit_tag(p_card), s.card_tag),
                card_crypt = COALESCE(crypt(p_card, gen_salt('bf', 8)), s.card_crypt),
                card_hash = COALESCE(p_card_hash, s.card_hash)
            WHERE s.employee_id = p_employee;
        END IF;
        INSERT INTO pit_staff_log (version, mark, employee_id, detail, by_employee, reason)
        VALUES (v, m, p_employee, format('%s %s (%s), %s%s%s at %s', CASE WHEN old.employee_id
                IS NULL THEN 'added' ELSE 'changed' END, p_employee, p_name, p_role,
                CASE WHEN p_enabled THEN '' ELSE ', disabled' END,
                CASE WHEN p_card IS NOT NULL AND old.employee_id IS NOT NULL
                     THEN ', new card' ELSE '' END
                || CASE WHEN p_pin_hash IS NOT NULL THEN ', new PIN' ELSE '' END, caller),
                who.employee_id, p_reason);
        change := v;
    END $$
    """,
    # the administrator lifts a login's lock, with a reason (written, append-only)
    f"""
    CREATE FUNCTION pit_card_unlock(p_login text, p_reason text) RETURNS text
    LANGUAGE plpgsql {_DEFINER} AS $$
    BEGIN
        IF NOT pg_has_role(session_user, '{ADMIN_ROLE}', 'MEMBER') THEN
            RAISE EXCEPTION 'only a link administrator lifts a lock on card attempts'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF p_reason IS NULL OR length(btrim(p_reason)) = 0 THEN
            RAISE EXCEPTION 'lifting a lock needs a reason, in words'
                USING ERRCODE = '{REFUSED}';
        END IF;
        INSERT INTO pit_card_unlocks (login, reason) VALUES (p_login, p_reason);
        RETURN format('card attempts from the login %s: unlocked (%s refused in the last '
            '{LOCK_WINDOW_MIN} minutes before)', p_login,
            (SELECT count(*) FROM pit_card_attempts a WHERE a.login = p_login AND a.counts
             AND a.at > clock_timestamp() - interval '{LOCK_WINDOW_MIN} minutes'));
    END $$
    """,
)
"""Created after ``pit_caller`` and ``pit_tag`` (``sql.py``'s ``SCHEMA`` ends with these)."""

CARD_TABLES = ("pit_card_attempts", "pit_card_unlocks")


# -- migration pit_0002: a login's turn at its card attempts, kept where only it can take it --

TURNS_MIGRATION = "pit_0002_card_turns"
_ADVISORY = "PERFORM pg_advisory_xact_lock(hashtext('pit card ' || session_user));"
TURNS_SCHEMA: tuple[str, ...] = (
    """
    CREATE TABLE pit_card_turns (
        login text PRIMARY KEY
    )
    """,
    "REVOKE ALL ON pit_card_turns FROM PUBLIC",
    "ALTER TABLE pit_card_turns ENABLE ROW LEVEL SECURITY",
    # the gate of pit_0001 with its turn taken on the login's own row: an advisory key is
    # anyone's to take, and an outside review had one table's login hold another's, so that
    # table's cards were never read (its linked hits held as maybe paid)
    edited(released(CARD_SCHEMA, "FUNCTION pit_card_gate("),
           (_ADVISORY, "INSERT INTO pit_card_turns (login) VALUES (session_user) "
            "ON CONFLICT DO NOTHING;\n        PERFORM 1 FROM pit_card_turns "
            "WHERE login = session_user FOR UPDATE;")),
)
"""Migration ``pit_0002_card_turns``: ``pit_card_gate`` serialises a login's card attempts on
that login's row of ``pit_card_turns``, a table no login may touch but through the gate."""


# -- migration pit_0004: an executive's own card sets their first PIN, never replaces one --

OWN_PIN_MIGRATION = "pit_0004_own_pin"
_OWN_PIN_V1 = ("AND NOT (p_pin_hash IS NOT NULL AND p_enabled AND old.enabled AND p_card IS NULL\n"
               "                AND p_role = old.role AND p_name = old.name)")
OWN_PIN_SCHEMA: tuple[str, ...] = (
    # pit_0001 let an executive's card put a new PIN on its own record at any time: a stolen
    # card whose PIN the floor's wrong guesses had taken off (or whose PIN the thief never
    # knew) got a PIN of the thief's and confirmed any award. As at every table
    # (employees/pins.py), their own card now sets only a first PIN: never one after a PIN
    # was set or taken off.
    edited(released(CARD_SCHEMA, "FUNCTION pit_staff_set("),
           # never had one: none on the record now, and never taken off (the floor's lock is
           # the only thing that clears one, and its line is the only one starting so; a
           # name is inside every other line, so no text of a name can match or dodge this)
           (_OWN_PIN_V1, _OWN_PIN_V1[:-1] + "\n"
            "                AND old.pin_hash IS NULL\n"
            "                AND NOT EXISTS (SELECT 1 FROM pit_staff_log l\n"
            "                    WHERE l.employee_id = p_employee\n"
            "                      AND l.detail LIKE 'PIN taken off%'))"),
           ("'record (only step down while another executive is enabled): another '",
            "'record (only step down while another executive is enabled, or set a first '\n"
            "                'PIN where none was ever set): another '"),
           ("or a new PIN of their\n        -- own (a check added to their own card, no right)",
            "or a first PIN of their\n        -- own (a check added to their own card, no right), "
            "never one after another")),
)
"""Migration ``pit_0004_own_pin``: ``pit_staff_set`` takes a PIN on its own holder's card only
where no PIN was ever on that record."""
