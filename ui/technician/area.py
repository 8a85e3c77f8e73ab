"""The technician's area, in the dealer's window while the table is in test mode: test mode's
banner on top of every screen, the screens' buttons down the left (tests, devices, set-up), and
the way out, which leaves test mode (logged with who and how long)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.employees.registry import Employee
from ui import theme
from ui.bridge import ControllerBridge
from ui.supervisor.session import StaffWatch
from ui.technician.banner import TestModeBanner
from ui.technician.devices_screen import DevicesScreen
from ui.technician.setup_screen import SetupContext, SetupScreen
from ui.technician.tests_screen import TestsScreen
from ui.widgets.kit import act
from ui.widgets.pages import PageStack
from ui.widgets.touch import ButtonRole, TouchButton, kinetic


class TechnicianArea(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 technician: Employee, context: SetupContext,
                 on_leave: Callable[[], object],
                 check: Callable[[], bool] = lambda: True) -> None:
        super().__init__()
        self.ctl = controller
        self.staff_watch = StaffWatch(controller)
        self.check = check
        """The session's guard: asked before each action and on each change of the table."""
        self.banner = TestModeBanner(controller.about.profile,
                                     f"{technician.name} ({technician.employee_id})")
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setFixedWidth(theme.TOUCH_MIN * 4)  # the tabs' width: the words wrap
        self.message.hide()
        self.leave = TouchButton("Leave test mode", ButtonRole.PRIMARY, money=True)
        self.leave.setMinimumWidth(theme.MONEY_MIN * 4)
        self.leave.clicked.connect(lambda: on_leave())
        top = QHBoxLayout()
        top.addWidget(self.banner, 1)
        top.addWidget(self.leave)
        self.tests = TestsScreen(controller, self.act)
        self.devices = DevicesScreen(controller, context.devices_path.parent, self.tell)
        self.setup = SetupScreen(controller, context, self.tell, check)
        # the tests grow with the table's seats: they scroll rather than squeeze the window
        tests = QScrollArea()
        tests.setWidget(self.tests)
        tests.setWidgetResizable(True)
        tests.setFrameShape(QFrame.Shape.NoFrame)
        kinetic(tests)
        self.stack = PageStack()
        self.buttons: dict[str, TouchButton] = {}
        self.pages: dict[QWidget, QWidget] = {self.tests: tests, self.devices: self.devices,
                                              self.setup: self.setup}
        nav = QVBoxLayout()
        for title, screen in (("Tests", self.tests), ("Devices", self.devices),
                              ("Set-up", self.setup)):
            self.stack.addWidget(self.pages[screen])
            button = TouchButton(title, ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.setMinimumWidth(theme.TOUCH_MIN * 4)
            button.clicked.connect(lambda _=False, s=screen: self.show_screen(s))
            self.buttons[title] = button
            nav.addWidget(button)
        # a refusal or result under the tabs, never above the screen: shown or hidden, it moves
        # no button (issue 23: the test buttons must stay where the finger expects them)
        nav.addWidget(self.message)
        nav.addStretch(1)
        body = QHBoxLayout()
        body.addLayout(nav)
        body.addWidget(self.stack, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, theme.SPACING, theme.SPACING, theme.SPACING)
        layout.addLayout(top)
        layout.addLayout(body, 1)
        bridge.changed.connect(self.show_view)
        self.show_screen(self.tests)

    def show_screen(self, screen: QWidget) -> None:
        self.stack.setCurrentWidget(self.pages[screen])
        for button, shown in zip(self.buttons.values(), (self.tests, self.devices, self.setup),
                                 strict=True):
            button.setChecked(shown is screen)

    def act(self, command: Callable[[], object]) -> bool:
        return act(command, self.tell, lambda: self.tell(""), self.check)

    def tell(self, text: str) -> None:
        """A refusal or a result in one line above the screen (hidden when there is none)."""
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def show_view(self, view: TableSnapshot) -> None:
        if self.staff_watch.changed() and not self.check():  # asked when the staff list moved
            return
        self.tests.show_view(view)
