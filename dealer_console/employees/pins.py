"""PINs: what an employee types after their card where the profile asks for one
(``pin_required`` in a jackpot section, ``docs/jackpot.md``).

A PIN is 4 to 8 digits, stored only as a salted hash made the way a card's is
(:mod:`dealer_console.employees.cardhash`: scrypt, a random salt per hash), on the employee's
row (``pin_hash``, None: no PIN on file). It is set or changed only through a staff event
(``employee_pin_set``), authorised by an executive's card like every other staff change
(:mod:`dealer_console.employees.changes`), so the audit's rebuild sees it. An executive may set
their own first PIN (it adds a check to their own card), never change one on file: a stolen
card would swap the PIN it does not know, or one it locked by guessing, for its thief's (an
outside review). Neither the PIN nor its length is ever logged, shown or put in a message.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import Enum

from sqlite_utils import Database

from dealer_console.employees import events
from dealer_console.employees.authorize import RefusalReason, authorise
from dealer_console.employees.cardhash import DEFAULT_KDF, KdfParams, card_matches, hash_card
from dealer_console.employees.changes import (
    Change,
    keeps_casino_list,
    not_own,
    own_list,
    still_executive,
)
from dealer_console.employees.registry import Employee, RegistryError, Role, get

PIN_MIN = 4
PIN_MAX = 8
WRONG_PINS_ALLOWED = 3
"""Wrong PINs after one swipe before the confirmation is called off (the card again)."""
LOCK_AFTER = 5
"""Wrong PINs within :data:`LOCK_WINDOW` that lock the employee's PIN until an executive sets
it again: a stolen card gets a few guesses, not three more on every swipe (issue 23)."""
LOCK_WINDOW = timedelta(hours=24)
WRONG_MARK = f": {RefusalReason.WRONG_PIN.value}: "
"""How a wrong PIN reads in the employee log (``authorize.refuse``'s detail)."""


class PinCheck(Enum):
    RIGHT = "right"
    WRONG = "wrong PIN"
    NONE_ON_FILE = "no PIN on file"


def check_pin(pin: str) -> str:
    """The PIN if it is 4 to 8 digits (0-9 only); the refusal never repeats it."""
    if not (PIN_MIN <= len(pin) <= PIN_MAX and pin.isascii() and pin.isdigit()):
        raise RegistryError(f"a PIN is {PIN_MIN} to {PIN_MAX} digits (0-9), nothing else")
    return pin


def has_pin(db: Database, employee_id: str) -> bool:
    row = db.execute("SELECT pin_hash FROM employees WHERE employee_id = ? COLLATE NOCASE",
                     [employee_id]).fetchone()
    return row is not None and row[0] is not None


def executive_pin_needed(db: Database, employee: Employee, pins_in_force: bool) -> bool:
    """Whether an executive's card does executive work (a staff change, a back-out) only with
    their PIN: wherever the table's jackpot confirmations take a PIN (``pins_in_force``),
    once the table's executives have taken PINs up (:func:`executives_took_pins_up`). Before
    that the card alone does, so the first executive can set their own first PIN. After it,
    an executive with none on file (never set, or taken off by the floor's wrong guesses) is
    refused until another executive sets one: an outside review had a card whose holder
    never had a PIN make a new executive, with a PIN, for its thief."""
    if not pins_in_force or employee.role is not Role.EXECUTIVE:
        return False
    return executives_took_pins_up(db)


def executives_took_pins_up(db: Database) -> bool:
    """Whether any executive, now or ever, had a PIN on this table: once true, never false
    again. A second outside review took the only executive PIN off with the floor's wrong
    guesses (a thief's, on purpose) and the table went back to cards alone; an honest
    retirement of the last executive with a PIN would have done the same."""
    return db.execute(
        "SELECT 1 FROM employees WHERE role = 'executive' AND pin_hash IS NOT NULL"
        " UNION ALL SELECT 1 FROM employee_log l JOIN employees e"
        " ON e.employee_id = l.employee_id COLLATE NOCASE"
        " WHERE l.action = 'pin' AND e.role = 'executive' LIMIT 1").fetchone() is not None


def pin_warnings(db: Database, pins_in_force: bool) -> list[str]:
    """What a supervisor must know about the executives' PINs where confirmations take one,
    in plain words with what to do: who does executive work on the card alone, who cannot,
    and a table one locked PIN away from no staff change at all (:func:`executive_pin_needed`).
    """
    if not pins_in_force:
        return []
    executives = [(str(i), str(n), h is not None) for i, n, h in db.execute(
        "SELECT employee_id, name, pin_hash FROM employees WHERE role = 'executive'"
        " AND enabled = 1 ORDER BY employee_id")]
    if not executives_took_pins_up(db):
        return ["No executive has a PIN yet: an executive's card alone changes the staff list "
                "and backs awards out here. Set each executive's PIN (Set PIN)."]
    said = []
    without = [name for _i, name, has in executives if not has]
    if without:
        said.append(f"No PIN: {', '.join(without)}. Their cards change nothing here until "
                    "another executive sets one.")
    working = [name for i, name, has in executives if has and not locked(db, i)]
    if not working:
        said.append("No executive's PIN works here (none, or locked): no staff change or "
                    "back-out can be made at this table. Call the casino's executive office.")
    elif len(working) == 1:
        said.append(f"Only {working[0]}'s PIN works here: if it locks, no one can change the "
                    "staff list. Give a second executive a PIN.")
    return said


def ever_had_pin(db: Database, employee_id: str) -> bool:
    """Whether the employee has a PIN or ever had one (one taken off by the floor's wrong
    guesses, at a table that kept the casino's list, included): their own card then never
    sets it, as the pit's server rules too (``pit_0004_own_pin``)."""
    return has_pin(db, employee_id) or db.execute(
        "SELECT 1 FROM employee_log WHERE employee_id = ? COLLATE NOCASE AND action = 'pin'"
        " LIMIT 1", [employee_id]).fetchone() is not None


def verify(db: Database, employee: Employee, pin: str) -> PinCheck:
    """Whether ``pin`` is the employee's PIN (nothing is written: the caller logs)."""
    row = db.execute("SELECT pin_hash FROM employees WHERE employee_id = ?",
                     [employee.employee_id]).fetchone()
    if row is None or row[0] is None:
        return PinCheck.NONE_ON_FILE
    good = pin.isascii() and pin.isdigit() and card_matches(pin, str(row[0]))
    return PinCheck.RIGHT if good else PinCheck.WRONG


def set_pin(db: Database, authoriser_track: str, employee_id: str, pin: str, *,
            kdf: KdfParams = DEFAULT_KDF) -> Change:
    """Set or change an employee's PIN on an executive's swipe (the command line's path)."""
    check_pin(pin)
    target = get(db, employee_id)
    by = authorise(db, authoriser_track, Role.EXECUTIVE, pin_action(target))
    return set_pin_by(db, by, target.employee_id, pin, kdf=kdf)


def set_pin_by(db: Database, by: Employee, employee_id: str, pin: str, *,
               kdf: KdfParams = DEFAULT_KDF) -> Change:
    """:func:`set_pin` by an executive whose card the console authorised just now; checked
    again inside the change's transaction."""
    check_pin(pin)
    own_list()  # first: at a table keeping the casino's list, the pit is the answer
    target = get(db, employee_id)
    if ever_had_pin(db, target.employee_id):  # their own first PIN only adds a check
        not_own(db, by, target, "change their own PIN", pin_action(target))
    with db.atomic():
        own_list()  # the casino's list holds the PINs: set at the pit (docs/pit.md)
        still_executive(db, by)
        target = get(db, target.employee_id)
        changed = has_pin(db, target.employee_id)
        row = events.employee_row(db, target.employee_id)
        row["pin_hash"] = hash_card(pin, kdf)
        events.record(db, "pin", target.employee_id, by.employee_id,
                      f"{'PIN changed' if changed else 'PIN set'}; authorised by {by.name} "
                      f"({by.employee_id})", row)
        return Change(get(db, target.employee_id), by)


def pin_action(target: Employee) -> str:
    """What setting ``target``'s PIN is called in the swipe log."""
    return f"set the PIN of employee {target.employee_id}"


def _wrong_since_reset(db: Database, employee_id: str) -> list[datetime]:
    """The times of the employee's wrong PINs since their PIN was last set, oldest first; read
    from the employee log (rebuilt by the audit from the event log), so the lock needs no state
    of its own and cannot be cleared by anything but a new PIN."""
    times: list[datetime] = []
    for action, at, detail in db.execute(
            "SELECT action, recorded_at, detail FROM employee_log WHERE employee_id = ?"
            " COLLATE NOCASE AND action IN ('pin', 'swipe_refused') ORDER BY entry",
            [employee_id]):
        if action == "pin":
            times.clear()
        elif WRONG_MARK in str(detail):
            times.append(datetime.fromisoformat(str(at)))
    return times


def lock_reached(times: list[datetime]) -> bool:
    """Whether :data:`LOCK_AFTER` of these wrong-PIN times (oldest first) fall within one
    :data:`LOCK_WINDOW`."""
    return any(times[i + LOCK_AFTER - 1] - times[i] <= LOCK_WINDOW
               for i in range(len(times) - LOCK_AFTER + 1))


def locked(db: Database, employee_id: str) -> bool:
    """Whether the employee's PIN is locked: :data:`LOCK_AFTER` wrong PINs within
    :data:`LOCK_WINDOW` since it was last set. Only an executive's new PIN unlocks it."""
    return lock_reached(_wrong_since_reset(db, employee_id))


def wrong_until_lock(db: Database, employee_id: str, now: datetime) -> int:
    """How many wrong PINs typed from ``now`` on lock the employee's PIN (1: the next one)."""
    times = _wrong_since_reset(db, employee_id)
    return next(k for k in range(1, LOCK_AFTER + 1) if lock_reached([*times, *[now] * k]))


def where_set() -> str:
    """Where an executive sets a PIN for this table: its Staff screen, or the pit where the
    table keeps the casino's list."""
    return ("at the pit (dealer-console pit staff --new-pin)" if keeps_casino_list()
            else "on the Staff screen")


def lock_words(employee: Employee) -> str:
    hours = int(LOCK_WINDOW.total_seconds() // 3600)
    return (f"{employee.name}'s PIN is locked after {LOCK_AFTER} wrong PINs within {hours} "
            f"hours: an executive sets a new one {where_set()}")
