"""The staff list on the console: every employee with their role and whether their card works;
add one, withdraw a card, enable it again, change a role, give a new card or set a PIN (typed
twice on a masked number pad, checked by the core, then an executive's card).

Each change is authorised by an executive's card swiped at the time
(``controller.want_card(Role.EXECUTIVE, ...)``, logged with who) and made by
:mod:`dealer_console.employees.changes` through the controller's staff desk, the same code the
command line uses; an executive's card never changes its holder's own record. A new card is
taken by a second swipe that is captured, never authorised, shown or logged. Ids and names are
checked as the command line checks them, before any card is asked for."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.employees.pins import PIN_MAX
from dealer_console.employees.registry import Employee, Role
from ui.bridge import ControllerBridge
from ui.supervisor.common import SupervisorScreen
from ui.supervisor.session import Session
from ui.widgets.kit import label as _label
from ui.widgets.number_pad import NumberPad
from ui.widgets.pages import PageStack
from ui.widgets.text_keyboard import TextKeyboard
from ui.widgets.touch import ButtonRole, TouchButton, kinetic

ROLE_WORDS = {Role.DEALER: "Dealer", Role.SUPERVISOR: "Supervisor",
              Role.EXECUTIVE: "Executive", Role.TECHNICIAN: "Technician"}
FIELDS = ("Employee id", "Name")


ROW_CHARS = 24
"""Characters of a name on one line of a staff row (the row's width at 1280x800)."""


def row_words(employee: Employee) -> str:
    """A row of the list: the name and id (on two lines or more when long: the list's width at
    1280x800 holds about 24 characters), the role under them."""
    state = "" if employee.enabled else " - WITHDRAWN"
    who = textwrap.fill(f"{employee.name} ({employee.employee_id})", ROW_CHARS,
                        break_long_words=True)
    return f"{who}\n{employee.role.value}{state}"


def describe(employee: Employee, sep: str = ", ") -> str:
    state = "" if employee.enabled else " - WITHDRAWN"
    return f"{employee.name} ({employee.employee_id}){sep}{employee.role.value}{state}"


class StaffScreen(SupervisorScreen):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__(controller, bridge, session)
        self.selected: str | None = None
        self.rows: dict[str, TouchButton] = {}
        self.list_box = QVBoxLayout()
        self.list_box.setSpacing(4)
        holder = QWidget()
        outer = QVBoxLayout(holder)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(self.list_box)
        outer.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        kinetic(scroll)
        self.add_button = TouchButton("Add an employee", ButtonRole.PRIMARY)
        self.add_button.clicked.connect(self.show_add)
        left = QVBoxLayout()
        heading = QHBoxLayout()  # the list's source beside its title: no height taken from it
        heading.addWidget(_label("Staff", "heading"))
        self.source = _label(role="hint")
        """Whose list and since when, where the table keeps the casino's (``docs/pit.md``)."""
        self.source.setWordWrap(True)
        heading.addWidget(self.source, 1)
        left.addLayout(heading)
        self._show_source()
        if self.ctl.staff.list_status is not None:  # the link can go down between views
            ticker = QTimer(self)
            ticker.timeout.connect(self._show_source)
            ticker.start(1000)
        left.addWidget(scroll, 1)
        left.addWidget(self.add_button)

        listing = QWidget()
        whole = QVBoxLayout(listing)
        whole.setContentsMargins(0, 0, 0, 0)
        body = QHBoxLayout()
        body.addLayout(left, 1)
        body.addWidget(self._record_page(), 1)
        whole.addLayout(body, 1)
        self.pin_warning = _label(role="refusal")
        """The executives' PINs where confirmations take one (``StaffDesk.pin_warnings``),
        under the list and the record, the width of both."""
        self.pin_warning.setWordWrap(True)
        whole.addWidget(self.pin_warning)
        self.modes = PageStack()
        """The list with one employee's record, or (full width, for the keyboard) adding one."""
        self.modes.addWidget(listing)
        self.modes.addWidget(self._add_page())
        self.modes.addWidget(self._pin_page())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.modes, 1)
        layout.addWidget(self.message)
        self.refresh()

    # -- the list and one employee's record -------------------------------------------------

    def _record_page(self) -> QWidget:
        page = QWidget()
        self.record = _label("Touch an employee to change their record.", "heading")
        self.withdraw = TouchButton("Withdraw the card", ButtonRole.DANGER)
        self.withdraw.clicked.connect(lambda: self._set_enabled(False))
        self.enable = TouchButton("Re-enable the card", ButtonRole.SECONDARY)
        self.enable.clicked.connect(lambda: self._set_enabled(True))
        self.role_buttons: dict[Role, TouchButton] = {}
        roles = QGridLayout()
        for i, (role, words) in enumerate(ROLE_WORDS.items()):
            button = TouchButton(words, ButtonRole.SECONDARY)
            button.clicked.connect(lambda _=False, r=role: self._change_role(r))
            roles.addWidget(button, i // 2, i % 2)
            self.role_buttons[role] = button
        self.recard = TouchButton("Give a new card", ButtonRole.SECONDARY)
        self.recard.clicked.connect(self._recard)
        self.set_pin = TouchButton("Set PIN", ButtonRole.SECONDARY)
        self.set_pin.clicked.connect(self.show_pin)
        layout = QVBoxLayout(page)
        layout.addWidget(self.record)
        layout.addWidget(_label("Each change needs an executive's card, swiped now; no one "
                                "changes their own record.", "hint"))
        layout.addWidget(self.withdraw)
        layout.addWidget(self.enable)
        layout.addWidget(_label("Change the role to:", "group"))
        layout.addLayout(roles)
        layout.addWidget(self.recard)
        layout.addWidget(self.set_pin)
        layout.addStretch(1)
        return page

    def refresh(self) -> None:
        staff = self.ctl.staff.employees()
        for button in self.rows.values():
            self.list_box.removeWidget(button)
            button.deleteLater()
        self.rows = {}
        for employee in staff:
            button = TouchButton(row_words(employee), ButtonRole.SECONDARY)
            button.setCheckable(True)
            # as tall as its lines: in the scrolling list a long name is never squeezed
            button.setChecked(employee.employee_id == self.selected)
            button.ensurePolished()  # the checked style's border counted in its height
            button.setMinimumHeight(button.sizeHint().height())
            button.setChecked(employee.employee_id == self.selected)
            button.clicked.connect(lambda _=False, e=employee.employee_id: self.select(e))
            self.list_box.addWidget(button)
            self.rows[employee.employee_id] = button
        self._show_record({e.employee_id: e for e in staff}.get(self.selected or ""))
        warnings = self.ctl.staff.pin_warnings()
        self.pin_warning.setText("\n".join(warnings))
        self.pin_warning.setVisible(bool(warnings))

    def select(self, employee_id: str) -> None:
        self.selected = employee_id
        self.modes.setCurrentIndex(0)
        for key, button in self.rows.items():
            button.setChecked(key == employee_id)
        self.refresh()

    def _show_record(self, employee: Employee | None) -> None:
        live = employee is not None
        pin = "" if employee is None else (
            "; PIN on file" if self.ctl.staff.has_pin(employee.employee_id) else "; no PIN")
        self.record.setText(describe(employee) + pin if employee else
                            "Touch an employee to change their record.")
        self.withdraw.setVisible(live and employee is not None and employee.enabled)
        self.enable.setVisible(live and employee is not None and not employee.enabled)
        self.recard.setEnabled(live)
        self.set_pin.setEnabled(live)
        for role, button in self.role_buttons.items():
            button.setEnabled(employee is not None and employee.role is not role)

    def _target(self) -> str:
        assert self.selected is not None
        return self.selected

    def _with_executive(self, purpose: str, change: Callable[[Employee], object],
                        done: str) -> None:
        """Ask for an executive's card for ``purpose``; the change runs with the authorised
        executive (a refused card is logged, shown, and the prompt waits for the right one)."""
        def authorised(by: Employee) -> None:
            if self.act(lambda: change(by), done):
                self.refresh()
        self.say(f"Swipe an executive's card to {purpose}.")
        self.act(lambda: self.want_card(Role.EXECUTIVE, purpose, authorised))

    def _set_enabled(self, enabled: bool) -> None:
        target = self._target()
        verb = "re-enable" if enabled else "withdraw"
        self._with_executive(
            f"{verb} {target}'s card",
            lambda by: self.ctl.staff.set_enabled(by, target, enabled),
            f"{target}'s card is {'enabled again' if enabled else 'withdrawn'}.")

    def _change_role(self, role: Role) -> None:
        target = self._target()
        self._with_executive(
            f"make {target} a {role.value}",
            lambda by: self.ctl.staff.change_role(by, target, role),
            f"{target} is now a {role.value}.")

    def _recard(self) -> None:
        target = self._target()

        def new_card(by: Employee, track: str) -> None:
            if self.act(lambda: self.ctl.staff.recard(by, target, track),
                        f"{target} has a new card; the old one no longer works."):
                self.refresh()

        def authorised(by: Employee) -> None:
            if not self.act(lambda: self.ctl.staff.may_recard(by, target)):
                return
            self.say(f"Swipe {target}'s new card.")
            self.capture_card(f"give {target} this card",
                                  lambda track: new_card(by, track))
        self.say(f"Swipe an executive's card to give {target} a new card.")
        self.act(lambda: self.want_card(Role.EXECUTIVE, f"give {target} a new card",
                                            authorised))

    # -- a PIN ------------------------------------------------------------------------------

    def _pin_page(self) -> QWidget:
        page = QWidget()
        self.pin_heading = _label("", "heading")
        self.pin_pad = NumberPad(masked=True, max_digits=PIN_MAX)
        self.pin_pad.typed.connect(self._pin_typed)
        self._first_pin: str | None = None
        back = TouchButton("Back to the staff list", ButtonRole.SECONDARY)
        back.clicked.connect(lambda: self.modes.setCurrentIndex(0))
        layout = QVBoxLayout(page)
        layout.addWidget(self.pin_heading)
        layout.addWidget(self.pin_pad, 1)
        layout.addWidget(back)
        return page

    def show_pin(self) -> None:
        """The selected employee's new PIN, typed twice, shown only as dots."""
        self._first_pin = None
        self.pin_pad.clear()
        target = self._target()
        name = next((e.name for e in self.ctl.staff.employees() if e.employee_id == target), "")
        self.pin_heading.setText(f"New PIN for {name} ({target})" if name else
                                 f"New PIN for {target}")
        self.pin_pad.set_hint("Type the new PIN (4 to 8 digits), then OK")
        self.modes.setCurrentIndex(2)

    def _pin_typed(self, pin: str) -> None:
        problem = self.ctl.staff.pin_problem(pin)
        if problem is not None:
            self.say(problem[:1].upper() + problem[1:] + ". Type the new PIN again.")
            return
        if self._first_pin is None:
            self._first_pin = pin
            self.pin_pad.set_hint("Type the same PIN again, then OK")
            self.say("Type the same PIN again to be sure of it.")
            return
        first, self._first_pin = self._first_pin, None
        self.pin_pad.set_hint("Type the new PIN (4 to 8 digits), then OK")
        if pin != first:
            self.say("The two PINs differ: type the new PIN again.")
            return
        target = self._target()
        self.modes.setCurrentIndex(0)
        self._with_executive(f"set {target}'s PIN",
                             lambda by: self.ctl.staff.set_pin(by, target, pin),
                             f"{target}'s PIN is set.")

    # -- adding an employee -----------------------------------------------------------------

    def _add_page(self) -> QWidget:
        page = QWidget()
        self.values = {field: "" for field in FIELDS}
        self.field = FIELDS[0]
        self.field_buttons: dict[str, TouchButton] = {}
        fields = QHBoxLayout()
        for field in FIELDS:
            button = TouchButton(field, ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, f=field: self.edit_field(f))
            fields.addWidget(button)
            self.field_buttons[field] = button
        self.keys = TextKeyboard(self._field_problem)
        self.keys.accepted.connect(self._field_typed)
        self.new_role = Role.DEALER
        self.new_role_buttons: dict[Role, TouchButton] = {}
        roles = QHBoxLayout()
        for role, words in ROLE_WORDS.items():
            button = TouchButton(words, ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, r=role: self.pick_role(r))
            roles.addWidget(button)
            self.new_role_buttons[role] = button
        self.new_summary = _label(role="hint")
        self.add_go = TouchButton("Add: swipe an executive's card, then the new card",
                                  ButtonRole.PRIMARY)
        self.add_go.clicked.connect(self.add_employee)
        self.back = TouchButton("Back to the staff list", ButtonRole.SECONDARY)
        self.back.clicked.connect(lambda: self.modes.setCurrentIndex(0))
        fields.addWidget(self.back)
        layout = QVBoxLayout(page)
        layout.addWidget(_label("Add an employee", "heading"))
        layout.addLayout(fields)
        layout.addWidget(self.keys, 1)
        layout.addLayout(roles)
        layout.addWidget(self.new_summary)
        layout.addWidget(self.add_go)
        self.pick_role(Role.DEALER)
        self.edit_field(FIELDS[0])
        return page

    def show_add(self) -> None:
        self.selected = None
        self.modes.setCurrentIndex(1)
        self.refresh()

    def edit_field(self, field: str) -> None:
        """The keyboard types the id or the name; OK keeps it and moves on."""
        self.field = field
        for name, button in self.field_buttons.items():
            button.setChecked(name == field)
            button.setText(f"{name}: {self.values[name]}" if self.values[name] else name)
        self.keys.set_hint(f"type the {field.lower()}, then OK")
        self.keys.set_text(self.values[field])
        self._show_new()

    def _field_problem(self, text: str) -> str | None:
        values = {**self.values, self.field: text.strip()}
        if self.field == "Employee id":
            return self.ctl.staff.check_new(values["Employee id"], values["Name"] or "x")
        return self.ctl.staff.check_new(values["Employee id"] or "x", values["Name"]) \
            if values["Name"] else None

    def _field_typed(self, text: str) -> None:
        self.values[self.field] = text.strip()
        following = FIELDS[(FIELDS.index(self.field) + 1) % len(FIELDS)]
        self.edit_field(following)

    def pick_role(self, role: Role) -> None:
        self.new_role = role
        for key, button in self.new_role_buttons.items():
            button.setChecked(key is role)
        self._show_new()

    def _new_problem(self) -> str | None:
        employee_id, name = self.values["Employee id"], self.values["Name"]
        if not employee_id or not name:
            return "type the employee id and the name first"
        return self.ctl.staff.check_new(employee_id, name)

    def _show_new(self) -> None:
        problem = self._new_problem()
        self.new_summary.setText(problem[:1].upper() + problem[1:] if problem else (
            f"Add {self.values['Name']} ({self.values['Employee id']}) as a "
            f"{self.new_role.value}."))
        self.add_go.setEnabled(problem is None)

    def add_employee(self) -> None:
        if self._new_problem() is not None:
            return
        employee_id, name, role = self.values["Employee id"], self.values["Name"], self.new_role

        def register(by: Employee, track: str) -> None:
            if self.act(lambda: self.ctl.staff.add(by, employee_id, name, role, track),
                        f"{name} ({employee_id}) added as a {role.value}, authorised by "
                        f"{by.name}."):
                self.values = {field: "" for field in FIELDS}
                self.edit_field(FIELDS[0])
                self.selected = employee_id
                self.refresh()

        def authorised(by: Employee) -> None:
            self.say(f"Now swipe {name}'s new card.")
            self.capture_card(f"register {name}'s card",
                                  lambda track: register(by, track))
        self.say("Swipe an executive's card to add this employee.")
        self.act(lambda: self.want_card(
            Role.EXECUTIVE, f"add employee {employee_id} ({role.value})", authorised))

    # -- drawing ----------------------------------------------------------------------------

    def show_view(self, view: TableSnapshot) -> None:
        self.show_notice(view)
        self._show_source()

    def _show_source(self) -> None:
        status = self.ctl.staff.list_status
        self.source.setVisible(status is not None)
        if status is not None:
            self.source.setText(status())
