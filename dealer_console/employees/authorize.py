"""Who may confirm what: a card swipe checked against the registry, accepted or refused.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 f: a supervisor's card
confirms a jackpot award, an executive's card is needed above the configured level; item 9 h:
backing out a confirmed award is a manual adjustment (an executive's card here). Changes to the
staff list need an executive's card too (``dealer_console/employees/changes.py``). Every swipe is
logged with its outcome; a refusal says why, so the dealer can call the right person.
"""

from __future__ import annotations

from enum import Enum
from typing import NoReturn

from sqlite_utils import Database

from dealer_console.employees.registry import Employee, Role, find, find_by_card, log
from dealer_console.errors import Refusal

_RANK = {Role.SUPERVISOR: 1, Role.EXECUTIVE: 2}
_ARTICLE = {Role.SUPERVISOR: "a supervisor's", Role.EXECUTIVE: "an executive's",
            Role.TECHNICIAN: "a technician's"}


class RefusalReason(Enum):
    UNKNOWN_CARD = "unknown card"
    DISABLED = "employee disabled"
    NOT_AUTHORISED = "role may not confirm this"
    OWN_RECORD = "may not authorise this change to their own record"
    SAME_PERSON = "the same person cannot confirm twice"
    WRONG_PIN = "wrong PIN"
    NO_PIN = "no PIN on file"
    PIN_LOCKED = "PIN locked"


class Refused(Refusal):
    """A swipe that does not authorise the action; already logged."""

    def __init__(self, reason: RefusalReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def required_role(amount_cents: int, executive_threshold_cents: int) -> Role:
    """A supervisor up to the threshold, an executive above it."""
    return Role.EXECUTIVE if amount_cents > executive_threshold_cents else Role.SUPERVISOR


def a_role(role: Role) -> str:
    """The role with its article: "a supervisor", "an executive"."""
    return f"{'an' if role.value[0] in 'aeiou' else 'a'} {role.value}"


def check(db: Database, track: str, required: Role, because: str = "") -> Employee | Refused:
    """The employee the swipe authorises, or the refusal (nothing is written)."""
    employee = find_by_card(db, track)
    if employee is None:
        return Refused(RefusalReason.UNKNOWN_CARD, "card not recognised: no employee holds it")
    return permits(employee, required, because)


def permits(employee: Employee, required: Role, because: str = "") -> Employee | Refused:
    """``employee`` if they may do what needs ``required``, else the refusal; ``because``
    says why that role is needed (the award above the executive threshold, say)."""
    if not employee.enabled:
        return Refused(RefusalReason.DISABLED,
                       f"{employee.name} ({employee.employee_id}) is disabled")
    if required is Role.TECHNICIAN:
        allowed = employee.role is Role.TECHNICIAN  # test mode is the technician's alone
    else:
        allowed = _RANK.get(employee.role, 0) >= _RANK[required]
    if not allowed:
        return Refused(
            RefusalReason.NOT_AUTHORISED,
            f"{employee.name} is {a_role(employee.role)}; this needs {_ARTICLE[required]} card"
            + (f": {because}" if because else ""),
        )
    return employee


def session_ended(db: Database, employee: Employee, required: Role) -> str | None:
    """Why a staff session opened by ``employee``'s card may go on no longer, or None.

    Issue 23: a supervisor whose card an executive had disabled went on acting in the session
    the card had opened. The registry is read again: an employee removed, disabled, or whose
    role changed since the card was accepted ends the session (a new swipe decides anew), and
    so does a new card for the employee (an outside review kept a session open with the card
    that had been replaced, as one would replace a stolen card)."""
    now = find(db, employee.employee_id)
    if now is None:
        return f"{employee.name} ({employee.employee_id}) is no longer on the staff list"
    if not now.enabled:
        return f"{employee.name} ({employee.employee_id}) has been disabled"
    if now.role is not employee.role:
        return (f"{employee.name}'s role changed from {employee.role.value} to "
                f"{now.role.value}")
    if employee.card_tag and now.card_tag != employee.card_tag:
        # a new card, say for one reported stolen: the old one opened this session
        return (f"{employee.name} ({employee.employee_id}) has been given a new card: the "
                "card that opened these screens no longer works")
    refused = permits(now, required)
    return None if isinstance(refused, Employee) else str(refused)


def authorise(db: Database, track: str, required: Role, action: str,
              because: str = "") -> Employee:
    """Check a swipe; log a refusal (committed on its own) and raise it, or return the employee.

    The caller logs the acceptance with :func:`log_accepted` inside the transaction of the
    action itself, so the action and who authorised it are committed together.
    """
    result = check(db, track, required, because)
    if isinstance(result, Refused):
        employee = find_by_card(db, track)
        refuse(db, employee.employee_id if employee else None, result, action)
    return result


def refuse(db: Database, employee_id: str | None, refusal: Refused, action: str) -> NoReturn:
    """Log a refused swipe (committed on its own when no transaction is open) and raise it."""
    with db.atomic():
        log(db, "swipe_refused", employee_id, "card swipe",
            f"{action}: {refusal.reason.value}: {refusal}")
    raise refusal


def log_accepted(db: Database, employee: Employee, action: str) -> None:
    log(db, "swipe_accepted", employee.employee_id, "card swipe", action)
