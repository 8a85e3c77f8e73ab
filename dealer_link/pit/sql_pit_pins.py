"""Migration ``pit_0005_pins_at_the_pit``: the pit's staff changes take the executive's PIN.

An outside review made an executive for a thief at the pit on a stolen executive card alone:
the tables asked for the executive's PIN (``employees/pins.py``), the pit did not, and a
change made at the pit reaches every table. The server holds the tables' PIN hash (scrypt),
which it cannot compute; so, as it already does for cards, it keeps a verifier of its own
(``pin_crypt``, pgcrypto's bcrypt), made from the PIN's digits sent with the new PIN and never
given to a table or an auditor. The digits, like a card's track, live only in the call
(and in the server's statement log if the pit's or the tables' logins have one: give them
none, ``docs/pit.md``).

- Once the casino's executives took PINs up (``pit_pins_taken_up``: an executive has or had
  a PIN; ``pit_executive_pins`` keeps the fact for good), every card change of the list needs
  the executive's PIN; an executive with no verifier (no PIN, one set before this migration,
  or one the floor took off) is refused until another executive sets one. Before that the
  card alone does, so the casino's executives can take PINs up. While no enabled executive
  has a verifier the link administrator's login sets an executive's PIN without a card (the
  way out of an upgrade, or of the floor's lock on the last one), logged as theirs.
- The PIN is tried in a call of its own (``pit_pin_try``), committed before the change that
  uses its token: the try says nothing of whether the PIN was right, the change (in a later
  transaction, within minutes, once) does. A guess cannot be rolled back uncounted. Both
  run at read committed only, one try in a transaction, and the answer names no count (a
  fifth review read a new guess's answer in the count, and tried from an older snapshot).
- A wrong PIN counts for the executive, whichever login tried it: after the floor's count
  within the floor's hours (``sql_pins.py``) the next try takes the PIN off, as the floor's
  lock takes one off. The tries name the verifier by a random generation, never the
  verifier; the administrator and the auditor read neither it nor a try's token.
"""

from __future__ import annotations

from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link.pit.sql_cards import OWN_PIN_SCHEMA
from dealer_link.pit.sql_pins import _HOURS, FLOOR_LOCK_AFTER, PIN_SCHEMA
from dealer_link.sql_edit import edited, released

PIT_PIN_MIGRATION = "pit_0005_pins_at_the_pit"
STAFF_SET = ("pit_staff_set(text, text, text, text, text, text, boolean, text, text, text, "
             "text)")
"""The signature after this migration: the new PIN's digits and the executive's PIN try's
token last."""
_STAFF_SET_V1 = "pit_staff_set(text, text, text, text, text, text, boolean, text, text)"
TRY_MINUTES = 2
"""How long a try of the executive's PIN stands for the change that uses it."""

_CHECK_PIN = f"""            END IF;
            IF pit_pins_taken_up() THEN
                IF who.pin_crypt IS NULL THEN
                    refusal := pit_card_refuse(caller, action, format('%s has no PIN the '
                        'server can check: another executive sets one at the pit', who.name),
                        false);
                    RETURN;
                END IF;
                SELECT * INTO try FROM pit_pin_tries t WHERE t.token = p_pin_try;
                IF current_setting('transaction_isolation') <> 'read committed'
                   OR EXISTS (SELECT 1 FROM pit_pin_tries t WHERE t.tx = txid_current())
                   OR try.entry IS NULL OR try.employee_id <> who.employee_id
                   OR try.generation IS DISTINCT FROM who.pin_generation
                   OR try.tx = txid_current()
                   OR EXISTS (SELECT 1 FROM pit_pin_tries_used u WHERE u.token = p_pin_try)
                   OR try.at < clock_timestamp() - interval '{TRY_MINUTES} minutes' THEN
                    refusal := pit_card_refuse(caller, action, format('the casino''s '
                        'executives use PINs: %s''s PIN is needed with the card, typed just '
                        'before the change', who.name), false);
                    RETURN;
                END IF;
                IF pit_pin_wrong_tries(who) > {FLOOR_LOCK_AFTER} THEN
                    refusal := pit_card_refuse(caller, action, format('%s''s PIN had too many '
                        'wrong tries: another executive sets a new one', who.name), false);
                    RETURN;
                END IF;
                IF try.wrong THEN
                    refusal := pit_card_refuse(caller, action, format('wrong PIN for %s',
                        who.name), true);
                    RETURN;
                END IF;
                INSERT INTO pit_pin_tries_used (token) VALUES (p_pin_try);
            END IF;
        END IF;
        SELECT * INTO old FROM pit_staff s"""

_ANY_EXECUTIVE = ("              OR EXISTS (SELECT 1 FROM pit_staff s WHERE s.role = 'executive'"
                  " AND s.enabled))\n")

_STAFF_SET = edited(
    OWN_PIN_SCHEMA[0],
    ("p_reason text, p_pin_hash text,\n        OUT refusal text",
     "p_reason text, p_pin_hash text,\n        p_pin text DEFAULT NULL, p_pin_try text "
     "DEFAULT NULL, OUT refusal text"),
    ("        gate record;\n", "        gate record;\n        try pit_pin_tries;\n"),
    ("        ELSIF p_role IS NULL OR p_role NOT IN",
     "        ELSIF (p_pin IS NULL) <> (p_pin_hash IS NULL) OR p_pin !~ '^[0-9]{4,8}$' THEN\n"
     "            refusal := 'a new PIN comes as 4 to 8 digits for the server''s check, with "
     "the tables'' hash';\n"
     "        ELSIF p_role IS NULL OR p_role NOT IN"),
    # the link administrator's way out when no executive's PIN can be checked (an upgrade
    # from before the server's check, or the floor's lock on the last one): an enabled
    # executive's new PIN, nothing else, without a card; logged as the administrator's
    (_ANY_EXECUTIVE + "        THEN\n",
     _ANY_EXECUTIVE + "              AND NOT (p_pin IS NOT NULL AND p_card IS NULL AND p_enabled\n"
     "                AND EXISTS (SELECT 1 FROM pit_staff s WHERE s.employee_id = p_employee\n"
     "                    AND s.role = 'executive' AND s.enabled AND s.role = p_role\n"
     "                    AND s.name = p_name)\n"
     "                AND NOT EXISTS (SELECT 1 FROM pit_staff s WHERE s.role = 'executive'\n"
     "                    AND s.enabled AND s.pin_crypt IS NOT NULL))\n"
     "        THEN\n"),
    ("'executive on the list (while it has no enabled executive); every other '",
     "'executive on the list (while it has no enabled executive), or an executive''s new '\n"
     "                'PIN while no enabled executive has one the server can check; every other '"),
    ("            END IF;\n        END IF;\n        SELECT * INTO old FROM pit_staff s",
     _CHECK_PIN),
    ("enabled, version, mark, pin_hash)",
     "enabled, version, mark, pin_hash, pin_crypt, pin_generation)"),
    ("                    p_pin_hash);",
     "                    p_pin_hash, CASE WHEN p_pin IS NULL THEN NULL\n"
     "                    ELSE crypt(p_pin, gen_salt('bf', 8)) END,\n"
     "                    CASE WHEN p_pin IS NULL THEN NULL\n"
     "                    ELSE encode(gen_random_bytes(8), 'hex') END);"),
    ("                pin_hash = COALESCE(p_pin_hash, s.pin_hash),",
     "                pin_hash = COALESCE(p_pin_hash, s.pin_hash),\n"
     "                pin_crypt = CASE WHEN p_pin IS NOT NULL THEN crypt(p_pin, gen_salt('bf', 8))"
     "\n                    WHEN p_pin_hash IS NOT NULL THEN NULL ELSE s.pin_crypt END,\n"
     "                pin_generation = CASE WHEN p_pin IS NOT NULL\n"
     "                    THEN encode(gen_random_bytes(8), 'hex')\n"
     "                    WHEN p_pin_hash IS NOT NULL THEN NULL ELSE s.pin_generation END,"),
    ("        INSERT INTO pit_staff_log (version, mark, employee_id, detail, by_employee, reason)",
     "        IF p_role = 'executive' AND (p_pin IS NOT NULL OR old.pin_hash IS NOT NULL) THEN\n"
     "            -- PINs taken up, for good (a promoted employee's PIN too)\n"
     "            INSERT INTO pit_executive_pins DEFAULT VALUES ON CONFLICT DO NOTHING;\n"
     "        END IF;\n"
     "        INSERT INTO pit_staff_log (version, mark, employee_id, detail, by_employee, reason)"),
)

PIT_PIN_SCHEMA: tuple[str, ...] = (
    "ALTER TABLE pit_staff ADD COLUMN pin_crypt text",
    """
    CREATE TABLE pit_executive_pins (
        taken_up boolean PRIMARY KEY DEFAULT true CHECK (taken_up),
        at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    "REVOKE ALL ON pit_executive_pins FROM PUBLIC",
    # a casino whose executives already have PINs (the tables' hash) took them up before
    # this migration: their card alone no longer does, and the administrator sets a PIN the
    # server can check (a third outside review: the first card-alone change made the row)
    "INSERT INTO pit_executive_pins SELECT WHERE EXISTS (SELECT 1 FROM pit_staff"
    " WHERE role = 'executive' AND pin_hash IS NOT NULL)",
    f"""
    CREATE FUNCTION pit_pins_taken_up() RETURNS boolean LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT EXISTS (SELECT 1 FROM pit_executive_pins)
            OR EXISTS (SELECT 1 FROM pit_staff s WHERE s.role = 'executive'
                       AND (s.pin_hash IS NOT NULL OR s.pin_crypt IS NOT NULL))
    $$
    """,
    "REVOKE ALL ON FUNCTION pit_pins_taken_up() FROM PUBLIC",
    # the executive's PIN is tried in a call of its own, committed before the change that
    # uses it (a fourth outside review guessed inside transactions rolled back, so no wrong
    # PIN was ever counted): the try says nothing of whether the PIN was right; the change,
    # in a later transaction, does. Wrong tries count for the executive, whichever login
    # made them (a third review: each login's card lock alone let every table's login add
    # guesses); at the floor's count the next try takes the PIN off, as the floor's lock does
    "ALTER TABLE pit_staff ADD COLUMN pin_generation text",
    """
    CREATE TABLE pit_pin_tries (
        entry bigserial PRIMARY KEY,
        employee_id text NOT NULL,
        generation text NOT NULL,
        wrong boolean NOT NULL,
        token text NOT NULL UNIQUE,
        tx bigint NOT NULL DEFAULT txid_current(),
        login text NOT NULL DEFAULT session_user,
        at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    "CREATE INDEX pit_pin_tries_employee ON pit_pin_tries (employee_id, at)",
    "CREATE TABLE pit_pin_tries_used (token text PRIMARY KEY)",
    *(f"CREATE TRIGGER {t}_append_only BEFORE UPDATE OR DELETE ON {t} "
      "FOR EACH ROW EXECUTE FUNCTION link_append_only()"
      for t in ("pit_pin_tries", "pit_pin_tries_used")),
    "REVOKE ALL ON pit_pin_tries, pit_pin_tries_used FROM PUBLIC",
    f"""
    CREATE FUNCTION pit_pin_wrong_tries(p_who pit_staff) RETURNS integer
    LANGUAGE sql STABLE {_DEFINER} AS $$
        SELECT count(*)::integer FROM pit_pin_tries t
        WHERE t.employee_id = p_who.employee_id AND t.generation = p_who.pin_generation
          AND t.wrong AND t.at > clock_timestamp() - interval '{_HOURS} hours'
          AND t.tx <> txid_current()
    $$
    """,
    "REVOKE ALL ON FUNCTION pit_pin_wrong_tries(pit_staff) FROM PUBLIC",
    f"""
    CREATE FUNCTION pit_pin_try(p_track text, p_pin text, OUT refusal text, OUT token text)
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        caller text := pit_caller();
        action text := 'an executive''s PIN';
        who pit_staff;
        gate record;
        n integer;
        v bigint;
        m text;
    BEGIN
        IF p_pin IS NULL OR p_pin !~ '^[0-9]{{4,8}}$' THEN
            refusal := pit_card_refuse(caller, action, 'a PIN is 4 to 8 digits', false);
            RETURN;
        END IF;
        -- each try counts against every try committed before it: none from an older
        -- snapshot (a fifth review tried from one exported before its wrong tries), and one
        -- try in a transaction (a second would read the first's count)
        IF current_setting('transaction_isolation') <> 'read committed'
           OR EXISTS (SELECT 1 FROM pit_pin_tries t WHERE t.tx = txid_current()) THEN
            refusal := pit_card_refuse(caller, action, 'a PIN is tried once in a transaction '
                'of its own, at read committed', false);
            RETURN;
        END IF;
        SELECT * INTO gate FROM pit_card_gate(caller, action, p_track);
        who := gate.who;
        refusal := gate.refusal;
        IF refusal IS NOT NULL THEN
            RETURN;
        END IF;
        -- one try at a time for an executive, whichever logins try
        SELECT * INTO who FROM pit_staff s WHERE s.employee_id = who.employee_id FOR UPDATE;
        IF who.role <> 'executive' THEN
            refusal := pit_card_refuse(caller, action, format('an executive''s PIN goes with '
                'an executive''s card (this card is of %s, a %s)', who.name, who.role), true);
            RETURN;
        END IF;
        IF who.pin_crypt IS NULL THEN
            refusal := pit_card_refuse(caller, action, format('%s has no PIN the server can '
                'check: another executive sets one at the pit', who.name), false);
            RETURN;
        END IF;
        n := pit_pin_wrong_tries(who);
        IF n >= {FLOOR_LOCK_AFTER} THEN
            v := nextval('pit_staff_version');
            m := encode(gen_random_bytes(8), 'hex');
            UPDATE pit_staff s SET pin_hash = NULL, pin_crypt = NULL, pin_generation = NULL,
                version = v, mark = m
            WHERE s.employee_id = who.employee_id;
            INSERT INTO pit_staff_log (version, mark, employee_id, detail, by_employee, reason)
            VALUES (v, m, who.employee_id, format('PIN taken off after %s wrong PINs at the '
                    'pit', n), NULL, 'wrong PINs at the pit: an executive sets a new PIN');
            refusal := format('%s''s PIN is taken off after %s wrong PINs: another executive '
                'sets a new one', who.name, n);
            RETURN;
        END IF;
        token := encode(gen_random_bytes(16), 'hex');
        INSERT INTO pit_pin_tries (employee_id, generation, wrong, token)
        VALUES (who.employee_id, who.pin_generation,
                crypt(p_pin, who.pin_crypt) <> who.pin_crypt, token);
    END $$
    """,
    "REVOKE ALL ON FUNCTION pit_pin_try(text, text) FROM PUBLIC",
    f"DROP FUNCTION {_STAFF_SET_V1}",
    _STAFF_SET,
    f"REVOKE ALL ON FUNCTION {STAFF_SET} FROM PUBLIC",
    # the floor's lock takes the server's verifier off with the tables' hash
    edited(released(PIN_SCHEMA, "FUNCTION pit_pin_wrong("),
           ("UPDATE pit_staff s SET pin_hash = NULL,",
            "UPDATE pit_staff s SET pin_hash = NULL, pin_crypt = NULL, pin_generation = NULL,")),
)
"""Statements of migration ``pit_0005_pins_at_the_pit``, in order."""

PIT_PIN_TABLES = ("pit_executive_pins",)
PIN_TRIES_READABLE = "(entry, employee_id, wrong, login, at)"
"""The columns of ``pit_pin_tries`` an administrator or auditor reads: not the token."""
PIN_TRY = "pit_pin_try(text, text)"
