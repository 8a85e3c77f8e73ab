"""The staff list as the supervisor's screens change it: every change made by
:mod:`dealer_console.employees.changes` for an executive whose card the controller has just
authorised (``want_card(Role.EXECUTIVE, ...)``), so the console and the command line share one
implementation and one set of checks. A registry's refusal (a bad id or name, a card in use,
the last executive) comes back as a :class:`~dealer_console.errors.Refusal` a screen shows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlite_utils import Database

from dealer_console.employees import changes, pins
from dealer_console.employees.authorize import session_ended
from dealer_console.employees.changes import Change
from dealer_console.employees.registry import (
    Employee,
    Role,
    check_id,
    check_name,
    find,
    list_employees,
)
from dealer_console.errors import ConsoleError, Refusal, RefusalCode

StaffRefused = Refusal
"""A staff change refused by the registry's checks (code ``staff``); nothing changed."""


@contextmanager
def _as_refusal() -> Iterator[None]:
    try:
        yield
    except Refusal:
        raise
    except ConsoleError as exc:
        raise Refusal(str(exc), RefusalCode.STAFF) from None


class StaffDesk:
    def __init__(self, db: Database, changed: Callable[[], None],
                 pins_in_force: bool = False) -> None:
        self.db = db
        self._changed = changed
        self._pins_in_force = pins_in_force
        """The table's jackpot confirmations take a PIN, so executives' cards do too."""
        self._version = 0
        self.list_status: Callable[[], str] | None = None
        """Whose list the table keeps and since when, in words, where it keeps the casino's
        ("staff list: the casino's, copy from 14:02:11 (link down)"; set by the pit's
        reporting, ``pit/table_side.py``); None: the table keeps its own."""
        self.list_trouble: Callable[[], tuple[str, str] | None] | None = None
        """What is wrong with the casino's list at this table and what to do, while it
        authorises from a copy the server may have changed since (the link down, the server
        gone back, changes not applied); None when nothing is (set with ``list_status``)."""
        self._trouble_shown: tuple[str, str] | None = None

    def version(self) -> tuple[int, int]:
        """Changes to the staff list that may end a session: this console's own (counted by
        this desk) and any other process's commit to the table's file (the command line's,
        seen by SQLite's ``data_version``). A screen asks the registry again on a change of
        the table only when this moved (issue 23: it read the registry on every redraw)."""
        other = self.db.execute("PRAGMA data_version").fetchone()[0]
        return self._version, int(other)

    def _done(self, change: Change) -> Change:
        self._version += 1
        self._changed()
        return change

    def applied_elsewhere(self, count: int) -> None:
        """``count`` changes of the casino's list were applied to the table's file on this
        connection (``pit/replica.py``): an open session is checked again at once, as after
        this desk's own changes (a card disabled at the pit ends its session here)."""
        if count:
            self._version += 1
            self._changed()

    def trouble(self) -> tuple[str, str] | None:
        """The casino's list's trouble as the last view showed it (see ``list_trouble``)."""
        return self._trouble_shown

    def check_trouble(self) -> None:
        """Read the list's trouble again (the owner's timer): a change is a change of the
        table, so the dealer's screen says it within the timer's period."""
        now = self.list_trouble() if self.list_trouble is not None else None
        if now != self._trouble_shown:
            self._trouble_shown = now
            self._changed()

    def employees(self) -> list[Employee]:
        return list_employees(self.db)

    def session_ended(self, employee: Employee, required: Role) -> str | None:
        """Why the session ``employee``'s card opened (needing ``required``) must end now,
        or None: asked before every action of the supervisor's and technician's areas and on
        every change of the table (``authorize.session_ended``)."""
        return session_ended(self.db, employee, required)

    def on_file(self, employee: Employee, required: Role) -> Employee:
        """``employee`` as the staff list holds them now, for an action that needs
        ``required``; refused (code staff) when the card that opened the session was not
        read, or they may no longer hold it (:meth:`session_ended`)."""
        why = ("no card of theirs was read" if not employee.card_tag
               else self.session_ended(employee, required))
        now = None if why is not None else find(self.db, employee.employee_id)
        if now is None:
            raise Refusal(f"{why or 'not on the staff list'}: nothing done", RefusalCode.STAFF)
        return now

    def check_new(self, employee_id: str, name: str) -> str | None:
        """Why a new employee's id or name is refused (as the command line checks them, and
        the id not taken whatever its case), or None; asked before any card is swiped."""
        try:
            check_id(employee_id)
            check_name(name)
        except ConsoleError as exc:
            return str(exc)
        holder = find(self.db, employee_id)
        if holder is not None:
            return f"employee id {employee_id} is taken by {holder.employee_id} ({holder.name})"
        return None

    def add(self, by: Employee, employee_id: str, name: str, role: Role, track: str) -> Change:
        with _as_refusal():
            done = changes.add_by(self.db, by, employee_id, name, role, track)
        return self._done(done)

    def set_enabled(self, by: Employee, employee_id: str, enabled: bool) -> Change:
        with _as_refusal():
            done = changes.set_enabled_by(self.db, by, employee_id, enabled)
        return self._done(done)

    def change_role(self, by: Employee, employee_id: str, role: Role) -> Change:
        with _as_refusal():
            done = changes.change_role_by(self.db, by, employee_id, role)
        return self._done(done)

    def has_pin(self, employee_id: str) -> bool:
        return pins.has_pin(self.db, employee_id)

    def pin_warnings(self) -> list[str]:
        """The executives' PINs as the Staff screen warns of them (``pins.pin_warnings``)."""
        return pins.pin_warnings(self.db, self._pins_in_force)

    def pin_problem(self, pin: str) -> str | None:
        """Why a new PIN is refused (never repeating it), or None; asked before the swipe."""
        try:
            pins.check_pin(pin)
        except ConsoleError as exc:
            return str(exc)
        return None

    def set_pin(self, by: Employee, employee_id: str, pin: str) -> Change:
        """Set or change a PIN (``dealer_console/employees/pins.py``); never shown or logged."""
        with _as_refusal():
            done = pins.set_pin_by(self.db, by, employee_id, pin)
        return self._done(done)

    def may_recard(self, by: Employee, employee_id: str) -> None:
        """Asked after the executive's swipe and before the new card's (see
        :func:`~dealer_console.employees.changes.may_recard`)."""
        with _as_refusal():
            changes.may_recard(self.db, by, employee_id)

    def recard(self, by: Employee, employee_id: str, track: str) -> Change:
        with _as_refusal():
            done = changes.recard_by(self.db, by, employee_id, track)
        return self._done(done)
