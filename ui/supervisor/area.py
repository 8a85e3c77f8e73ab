"""The supervisor's area: the screens' buttons down the left, the screen shown on the right,
who is on the console and the way back to the table at the top."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TableController, TableSnapshot
from ui import theme
from ui.bridge import ControllerBridge
from ui.supervisor.screens import SCREENS, Screen
from ui.supervisor.session import Session, StaffWatch
from ui.widgets.fault_banner import FaultBanner
from ui.widgets.pages import PageStack
from ui.widgets.touch import ButtonRole, TouchButton, kinetic


class Screens(Mapping[str, QWidget]):
    """The area's screens by title, each built the first time it is asked for and then kept.
    Building all ten when the area opened took about a quarter of a second of the GUI thread
    at every supervisor's swipe (the meter chart, the staff list and the table's actions the
    most), for screens most visits never show."""

    def __init__(self, builds: dict[str, Callable[[], QWidget]], stack: PageStack) -> None:
        self._builds = builds
        self._stack = stack
        self._built: dict[str, QWidget] = {}

    def __getitem__(self, title: str) -> QWidget:
        widget = self._built.get(title)
        if widget is None:
            widget = self._builds[title]()  # KeyError: no such screen
            self._built[title] = widget
            self._stack.addWidget(widget)
        return widget

    def __iter__(self) -> Iterator[str]:
        return iter(self._builds)

    def __len__(self) -> int:
        return len(self._builds)

    def built(self) -> list[str]:
        """The titles of the screens built so far."""
        return list(self._built)


class SupervisorArea(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session, on_leave: Callable[[], object],
                 screens: list[Screen] | None = None) -> None:
        super().__init__()
        self.ctl = controller
        self.staff_watch = StaffWatch(controller)
        self.session = session
        who = session.employee
        heading = QLabel(f"Supervisor: {who.name} ({who.role.value})")
        heading.setProperty("role", "heading")
        self.leave = TouchButton("Back to the table", ButtonRole.PRIMARY, money=True)
        self.leave.setMinimumWidth(theme.MONEY_MIN * 4)
        self.leave.clicked.connect(lambda: on_leave())
        top = QHBoxLayout()
        top.addWidget(heading, 1)
        top.addWidget(self.leave)
        # the dealer's fault banner is behind this area: a device at fault is said here too
        # (issue 22: recall during a fault showed no fault)
        self.faults = FaultBanner()

        self.stack = PageStack()
        self.buttons: dict[str, TouchButton] = {}
        listed = SCREENS if screens is None else screens
        self.screens = Screens({s.title: partial(s.build, controller, bridge, session)
                                for s in listed}, self.stack)
        nav_list = QWidget()
        nav = QVBoxLayout(nav_list)
        nav.setContentsMargins(0, 0, 0, 0)
        nav.setSpacing(theme.SPACING // 2)
        for screen in listed:
            button = TouchButton(screen.title, ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.setMinimumWidth(theme.TOUCH_MIN * 5)
            button.clicked.connect(lambda _=False, t=screen.title: self.show_screen(t))
            self.buttons[screen.title] = button
            nav.addWidget(button)
        nav.addStretch(1)
        # the screens' buttons scroll when there are more than the height holds: the area
        # must fit 1280x800 with the card prompt above it
        scroll = QScrollArea()
        scroll.setWidget(nav_list)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(nav_list.sizeHint().width() + theme.SPACING * 2)
        kinetic(scroll)
        body = QHBoxLayout()
        body.addWidget(scroll)
        body.addWidget(self.stack, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, theme.SPACING, theme.SPACING, theme.SPACING)
        layout.addLayout(top)
        layout.addWidget(self.faults)
        layout.addLayout(body, 1)
        bridge.changed.connect(self.show_view)
        if self.screens:
            self.show_screen(next(iter(self.screens)))

    def show_screen(self, title: str) -> QWidget:
        widget = self.screens[title]
        self.stack.setCurrentWidget(widget)
        for name, button in self.buttons.items():
            button.setChecked(name == title)
        self.show_view(self.ctl.snapshot())
        return widget

    def show_view(self, view: TableSnapshot) -> None:
        # a card disabled meanwhile: the area is closing (asked only when the staff list moved)
        if self.staff_watch.changed() and not self.session.check():
            return
        self.faults.set_faults([(d.title, d.fault or "", d.todo) for d in view.faults])
        current = self.stack.currentWidget()
        show = getattr(current, "show_view", None)
        if show is not None:
            show(view)
