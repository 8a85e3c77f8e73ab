"""Changes to the staff list: each authorised by the swipe of an enabled executive's card.

Adding an employee, disabling or enabling one, changing a role and giving a new card all take
the authorising card's track data first. A refused swipe (an unknown, disabled, dealer's,
technician's or supervisor's card, or an executive's own role) is logged and changes nothing; an
accepted one is written with the change, naming the executive as its actor, in one transaction
with the change's staff event. The rules documents give the executive's card the highest
authority at the table (Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item
9 f and h: the executive confirms the largest awards and backs awards out); who may change the
staff list is not in the documents, so the console gives it to that same card.

The very first executive cannot be authorised by anyone: :func:`setup` makes them, once per
table database, and refuses for good once any executive was ever on file.

Each change has two entry points and one implementation: ``add`` (and the others) take the
authorising card's track data, as the command line reads it; ``add_by`` (and the others) take the
:class:`Employee` whose executive's card the console has just authorised and logged (the
controller's card request), and check again inside the change's transaction that they are still
an enabled executive. An executive's card never raises or renews its holder's own record (their
role, their card, enabling themselves); stepping down (disabling their own card) is allowed.

Every request is checked (id, name, card, what it would change) before the swipe is asked for,
so a mistaken request never logs a swipe; the table keeps at least one enabled executive, or no
one could change the staff list again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.employees import events
from dealer_console.employees.authorize import RefusalReason, Refused, authorise, refuse
from dealer_console.employees.cardhash import DEFAULT_KDF, KdfParams, card_tag, hash_card
from dealer_console.employees.registry import (
    Employee,
    RegistryError,
    Role,
    card_in_use,
    card_secret,
    check_id,
    check_name,
    check_reason,
    check_track,
    enabled_executives,
    executive_ever_made,
    find,
    get,
)


@dataclass(frozen=True, slots=True)
class Change:
    """An employee as the change left them, and the executive who authorised it (None for the
    one-time set-up)."""

    employee: Employee
    authorised_by: Employee | None


def setup(db: Database, employee_id: str, name: str, track: str, *, actor: str,
          kdf: KdfParams = DEFAULT_KDF) -> Change:
    """Put the table's first executive on file: once, and never again after any executive was
    on file (even one since disabled or given another role). ``actor`` says who ran it."""
    employee_id, name = check_id(employee_id), check_name(name)
    check_track(track)
    if keeps_casino_list():
        raise RegistryError("this table keeps the casino's staff list: its first executives "
                            "are put on it at the link's server (docs/pit.md)")
    with db.atomic():
        if executive_ever_made(db):
            raise RegistryError(
                "the first executive was set up already; every change to the staff list now "
                "needs an executive's card (employees add, disable, enable, role, recard)")
        _id_free(db, employee_id)
        _card_free(db, track)
        row = _new_row(db, employee_id, name, Role.EXECUTIVE, track, kdf)
        events.record(db, "setup", employee_id, actor, f"{name}, executive: the first "
                      "executive, set up without a card", row)
        return Change(get(db, employee_id), None)


def add(db: Database, authoriser_track: str, employee_id: str, name: str, role: Role,
        track: str, *, kdf: KdfParams = DEFAULT_KDF) -> Change:
    """Register an employee with their card (not anyone else's), on an executive's swipe."""
    employee_id, name = _check_new(db, employee_id, name, track)
    by = authorise(db, authoriser_track, Role.EXECUTIVE, _add_action(employee_id, role))
    return add_by(db, by, employee_id, name, role, track, kdf=kdf)


def add_by(db: Database, by: Employee, employee_id: str, name: str, role: Role, track: str,
           *, kdf: KdfParams = DEFAULT_KDF) -> Change:
    """:func:`add`, by ``by``, whose executive's card was authorised and logged just now (the
    console's card request); ``by`` is checked again inside the change's transaction."""
    employee_id, name = _check_new(db, employee_id, name, track)
    with db.atomic():
        own_list()
        still_executive(db, by)
        _id_free(db, employee_id)
        _card_free(db, track)
        row = _new_row(db, employee_id, name, role, track, kdf)
        events.record(db, "add", employee_id, by.employee_id,
                      f"{name}, {role.value}; {_by(by)}", row)
        return Change(get(db, employee_id), by)


def set_enabled(db: Database, authoriser_track: str, employee_id: str, enabled: bool, *,
                reason: str = "") -> Change:
    """Disable an employee's card (it stops working at once) or enable it again."""
    reason = check_reason(reason)
    target = get(db, employee_id)
    _state_changes(db, target, enabled=enabled)
    by = authorise(db, authoriser_track, Role.EXECUTIVE, _enable_action(target, enabled))
    return set_enabled_by(db, by, target.employee_id, enabled, reason=reason)


def set_enabled_by(db: Database, by: Employee, employee_id: str, enabled: bool, *,
                   reason: str = "") -> Change:
    """:func:`set_enabled` by an executive already authorised (see :func:`add_by`). An
    executive may step down (disable their own card) but never enable their own."""
    reason = check_reason(reason)
    target = get(db, employee_id)
    _state_changes(db, target, enabled=enabled)
    if enabled:
        not_own(db, by, target, "enable their own card", _enable_action(target, enabled))
    verb = "enable" if enabled else "disable"
    with db.atomic():
        own_list()
        still_executive(db, by)
        target = get(db, target.employee_id)
        _state_changes(db, target, enabled=enabled)
        row = events.employee_row(db, target.employee_id)
        row["enabled"] = int(enabled)
        events.record(db, verb, target.employee_id, by.employee_id,
                      _detail(reason, _by(by)), row)
        return Change(get(db, target.employee_id), by)


def change_role(db: Database, authoriser_track: str, employee_id: str, role: Role, *,
                reason: str = "") -> Change:
    """Give an employee another role; an executive's card, never the employee's own."""
    reason = check_reason(reason)
    target = get(db, employee_id)
    _state_changes(db, target, role=role)
    by = authorise(db, authoriser_track, Role.EXECUTIVE, _role_action(target, role))
    return change_role_by(db, by, target.employee_id, role, reason=reason)


def change_role_by(db: Database, by: Employee, employee_id: str, role: Role, *,
                   reason: str = "") -> Change:
    """:func:`change_role` by an executive already authorised (see :func:`add_by`)."""
    reason = check_reason(reason)
    target = get(db, employee_id)
    _state_changes(db, target, role=role)
    not_own(db, by, target, "change their own role", _role_action(target, role))
    with db.atomic():
        own_list()
        still_executive(db, by)
        target = get(db, target.employee_id)
        _state_changes(db, target, role=role)
        row = events.employee_row(db, target.employee_id)
        row["role"] = role.value
        events.record(db, "role", target.employee_id, by.employee_id,
                      _detail(f"{target.role.value} to {role.value}", reason, _by(by)), row)
        return Change(get(db, target.employee_id), by)


def recard(db: Database, authoriser_track: str, employee_id: str, track: str, *,
           kdf: KdfParams = DEFAULT_KDF) -> Change:
    """Give an employee a new card; the old one stops working at once."""
    check_track(track)
    target = get(db, employee_id)
    _card_free(db, track, but=target.employee_id)
    by = authorise(db, authoriser_track, Role.EXECUTIVE, _recard_action(target))
    return recard_by(db, by, target.employee_id, track, kdf=kdf)


def may_recard(db: Database, by: Employee, employee_id: str) -> None:
    """Refuse (logged) before the new card is swiped when ``by`` would recard themselves."""
    target = get(db, employee_id)
    not_own(db, by, target, "give themselves a new card", _recard_action(target))


def recard_by(db: Database, by: Employee, employee_id: str, track: str, *,
              kdf: KdfParams = DEFAULT_KDF) -> Change:
    """:func:`recard` by an executive already authorised (see :func:`add_by`); never their
    own card."""
    check_track(track)
    target = get(db, employee_id)
    _card_free(db, track, but=target.employee_id)
    not_own(db, by, target, "give themselves a new card", _recard_action(target))
    with db.atomic():
        own_list()
        still_executive(db, by)
        target = get(db, target.employee_id)
        _card_free(db, track, but=target.employee_id)
        row = events.employee_row(db, target.employee_id)
        row.update(card_tag=card_tag(track, card_secret(db)), card_hash=hash_card(track, kdf))
        events.record(db, "recard", target.employee_id, by.employee_id,
                      _detail("new card", _by(by)), row)
        return Change(get(db, target.employee_id), by)


# -- what each change is called in the swipe log --------------------------------------------


def _add_action(employee_id: str, role: Role) -> str:
    return f"add employee {employee_id} ({role.value})"


def _enable_action(target: Employee, enabled: bool) -> str:
    return f"{'enable' if enabled else 'disable'} employee {target.employee_id}"


def _role_action(target: Employee, role: Role) -> str:
    return f"change employee {target.employee_id}'s role to {role.value}"


def _recard_action(target: Employee) -> str:
    return f"new card for employee {target.employee_id}"


# -- checks ---------------------------------------------------------------------------------


def _id_free(db: Database, employee_id: str) -> None:
    holder = find(db, employee_id)
    if holder is None:
        return
    if holder.employee_id == employee_id:
        raise RegistryError(f"employee {employee_id} is already registered")
    raise RegistryError(f"employee id {employee_id} is taken by {holder.employee_id} "
                        "(ids are the same whatever their case)")


def _card_free(db: Database, track: str, but: str | None = None) -> None:
    other = card_in_use(db, track, but=but)
    if other is not None:
        raise RegistryError(f"that card already belongs to employee {other}")


def _state_changes(db: Database, target: Employee, *, enabled: bool | None = None,
                   role: Role | None = None) -> None:
    """Refuse a change that changes nothing, or that leaves no enabled executive."""
    if enabled is not None and target.enabled == enabled:
        state = "enabled" if enabled else "disabled"
        raise RegistryError(f"employee {target.employee_id} is already {state}")
    if role is not None and target.role is role:
        raise RegistryError(f"employee {target.employee_id} is already a {role.value}")
    stops_being_executive = target.role is Role.EXECUTIVE and target.enabled and (
        enabled is False or (role is not None and role is not Role.EXECUTIVE))
    if stops_being_executive and enabled_executives(db) == [target.employee_id]:
        raise RegistryError(
            f"{target.name} ({target.employee_id}) is the table's only enabled executive: add "
            "or enable another executive first, or no one could change the staff list")


def _check_new(db: Database, employee_id: str, name: str, track: str) -> tuple[str, str]:
    """A new employee's id, name and card, checked before any swipe is asked for."""
    employee_id, name = check_id(employee_id), check_name(name)
    check_track(track)
    _id_free(db, employee_id)
    _card_free(db, track)
    return employee_id, name


def not_own(db: Database, by: Employee, target: Employee, what: str, action: str) -> None:
    """An executive's card never authorises a change that raises or renews their own record:
    another executive's is needed (logged as a refused swipe)."""
    if by.employee_id.casefold() == target.employee_id.casefold():
        refuse(db, by.employee_id, Refused(
            RefusalReason.OWN_RECORD,
            f"{by.name} may not {what}: another executive's card is needed"), action)


STAFF_VARIABLE = "DEALER_CONSOLE_STAFF"
"""``casino``: this table keeps the casino's staff list, changed only on the link's server
(``dealer_link/pit/replica.py``, ``docs/pit.md``); its own changes are refused."""


def keeps_casino_list() -> bool:
    return os.environ.get(STAFF_VARIABLE, "").strip().lower() == "casino"


def own_list() -> None:
    """A table keeping the casino's list changes nothing of it alone, its PINs included: the
    change is made at the pit or through the server."""
    if keeps_casino_list():
        raise RegistryError("this table keeps the casino's staff list: change it on an "
                            "executive's card at the pit or with \"dealer-console pit staff\"")


def still_executive(db: Database, by: Employee) -> None:
    """The authoriser is still an enabled executive inside the change's transaction (another
    process may have changed the registry since the swipe was checked)."""
    now_on_file = find(db, by.employee_id)
    if now_on_file is None or now_on_file.role is not Role.EXECUTIVE or not now_on_file.enabled:
        raise Refused(RefusalReason.NOT_AUTHORISED,
                      f"{by.name} ({by.employee_id}) is no longer an enabled executive")


def _new_row(db: Database, employee_id: str, name: str, role: Role, track: str,
             kdf: KdfParams) -> events.Row:
    return {"employee_id": employee_id, "name": name, "role": role.value, "enabled": 1,
            "card_tag": card_tag(track, card_secret(db)), "card_hash": hash_card(track, kdf),
            "created_at": clock.stamp()}


def _by(by: Employee) -> str:
    return f"authorised by {by.name} ({by.employee_id})"


def _detail(*parts: str) -> str:
    return "; ".join(p for p in parts if p)
