"""Migration ``pit_0005_pins_at_the_pit``: the pit's staff changes take the executive's PIN.

An outside review made an executive for a thief at the pit on a stolen executive card alone:
the tables asked for the executive's PIN (``employees/pins.py``), the pit did not, and a
change made at the pit reaches every table. The server holds the tables' PIN hash (scrypt),
which it cannot compute; so, as it already does for cards, it keeps a verifier of its own
(``pin_crypt``, pgcrypto's bcrypt), made from the PIN's digits sent with the new PIN and never
given to a table or an auditor. The digits, like a card's track, live only in the call.

- Once the casino's executives took PINs up (``pit_pins_taken_up``: an executive has or had
  a PIN; ``pit_executive_pins`` keeps the fact for good), every card change of the list needs
  the executive's PIN; an executive with no verifier (no PIN, one set before this migration,
  or one the floor took off) is refused until another executive sets one. Before that the
  card alone does, so the casino's executives can take PINs up. While no enabled executive
  has a verifier the link administrator's login sets an executive's PIN without a card (the
  way out of an upgrade, or of the floor's lock on the last one), logged as theirs.
- A wrong PIN is refused and counts towards the login's card lock (``sql_cards.py``) and,
  whichever login sent it, towards the executive's own: at the floor's count within the
  floor's hours (``sql_pins.py``) the PIN is taken off, as the floor's lock takes one off.
"""

from __future__ import annotations

from dealer_console.link.sql_base import DEFINER as _DEFINER
from dealer_link.pit.sql_cards import OWN_PIN_SCHEMA
from dealer_link.pit.sql_pins import _HOURS, FLOOR_LOCK_AFTER, PIN_SCHEMA
from dealer_link.sql_edit import edited, released

PIT_PIN_MIGRATION = "pit_0005_pins_at_the_pit"
STAFF_SET = ("pit_staff_set(text, text, text, text, text, text, boolean, text, text, text, "
             "text)")
"""The signature after this migration: the new PIN's digits and the executive's PIN last."""
_STAFF_SET_V1 = "pit_staff_set(text, text, text, text, text, text, boolean, text, text)"

_CHECK_PIN = """            END IF;
            IF pit_pins_taken_up() THEN
                IF who.pin_crypt IS NULL THEN
                    refusal := pit_card_refuse(caller, action, format('%s has no PIN the '
                        'server can check: another executive sets one at the pit', who.name),
                        false);
                    RETURN;
                END IF;
                IF p_executive_pin IS NULL THEN
                    refusal := pit_card_refuse(caller, action, format('the casino''s '
                        'executives use PINs: %s''s PIN is needed with the card', who.name),
                        false);
                    RETURN;
                END IF;
                IF crypt(p_executive_pin, who.pin_crypt) <> who.pin_crypt THEN
                    refusal := pit_card_refuse(caller, action, format('wrong PIN for %s%s',
                        who.name, pit_pin_try_wrong(who)), true);
                    RETURN;
                END IF;
            END IF;
        END IF;
        SELECT * INTO old FROM pit_staff s"""

_ANY_EXECUTIVE = ("              OR EXISTS (SELECT 1 FROM pit_staff s WHERE s.role = 'executive'"
                  " AND s.enabled))\n")

_STAFF_SET = edited(
    OWN_PIN_SCHEMA[0],
    ("p_reason text, p_pin_hash text,\n        OUT refusal text",
     "p_reason text, p_pin_hash text,\n        p_pin text DEFAULT NULL, p_executive_pin text "
     "DEFAULT NULL, OUT refusal text"),
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
    ("enabled, version, mark, pin_hash)", "enabled, version, mark, pin_hash, pin_crypt)"),
    ("                    p_pin_hash);",
     "                    p_pin_hash, CASE WHEN p_pin IS NULL THEN NULL\n"
     "                    ELSE crypt(p_pin, gen_salt('bf', 8)) END);"),
    ("                pin_hash = COALESCE(p_pin_hash, s.pin_hash),",
     "                pin_hash = COALESCE(p_pin_hash, s.pin_hash),\n"
     "                pin_crypt = CASE WHEN p_pin IS NOT NULL THEN crypt(p_pin, gen_salt('bf', 8))"
     "\n                    WHEN p_pin_hash IS NOT NULL THEN NULL ELSE s.pin_crypt END,"),
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
    # a wrong executive's PIN at the pit counts for that executive, whichever login sent it
    # (a third outside review: each login's card lock alone let every table's login add its
    # own guesses); at the floor's count the PIN is taken off, as the floor's lock does
    """
    CREATE TABLE pit_pin_tries (
        entry bigserial PRIMARY KEY,
        employee_id text NOT NULL,
        verifier text NOT NULL,
        login text NOT NULL DEFAULT session_user,
        at timestamptz NOT NULL DEFAULT clock_timestamp()
    )
    """,
    "CREATE INDEX pit_pin_tries_employee ON pit_pin_tries (employee_id, at)",
    "CREATE TRIGGER pit_pin_tries_append_only BEFORE UPDATE OR DELETE ON pit_pin_tries "
    "FOR EACH ROW EXECUTE FUNCTION link_append_only()",
    "REVOKE ALL ON pit_pin_tries FROM PUBLIC",
    f"""
    CREATE FUNCTION pit_pin_try_wrong(p_who pit_staff) RETURNS text
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE
        n integer;
        v bigint;
        m text;
    BEGIN
        INSERT INTO pit_pin_tries (employee_id, verifier)
            VALUES (p_who.employee_id, p_who.pin_crypt);
        SELECT count(*) INTO n FROM pit_pin_tries t
        WHERE t.employee_id = p_who.employee_id AND t.verifier = p_who.pin_crypt
          AND t.at > clock_timestamp() - interval '{_HOURS} hours';
        IF n < {FLOOR_LOCK_AFTER} THEN
            RETURN format(' (%s of %s before the PIN is taken off)', n, {FLOOR_LOCK_AFTER});
        END IF;
        v := nextval('pit_staff_version');
        m := encode(gen_random_bytes(8), 'hex');
        UPDATE pit_staff s SET pin_hash = NULL, pin_crypt = NULL, version = v, mark = m
        WHERE s.employee_id = p_who.employee_id;
        INSERT INTO pit_staff_log (version, mark, employee_id, detail, by_employee, reason)
        VALUES (v, m, p_who.employee_id, format('PIN taken off after %s wrong PINs at the '
                'pit', n), NULL, 'wrong PINs at the pit: an executive sets a new PIN');
        RETURN ': the PIN is taken off; another executive sets a new one';
    END $$
    """,
    "REVOKE ALL ON FUNCTION pit_pin_try_wrong(pit_staff) FROM PUBLIC",
    f"DROP FUNCTION {_STAFF_SET_V1}",
    _STAFF_SET,
    f"REVOKE ALL ON FUNCTION {STAFF_SET} FROM PUBLIC",
    # the floor's lock takes the server's verifier off with the tables' hash
    edited(released(PIN_SCHEMA, "FUNCTION pit_pin_wrong("),
           ("UPDATE pit_staff s SET pin_hash = NULL,",
            "UPDATE pit_staff s SET pin_hash = NULL, pin_crypt = NULL,")),
)
"""Statements of migration ``pit_0005_pins_at_the_pit``, in order."""

PIT_PIN_TABLES = ("pit_executive_pins", "pit_pin_tries")
