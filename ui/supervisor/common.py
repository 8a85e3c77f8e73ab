"""What every supervisor screen shares: the controller, the session whose employee signs each
change, and one line that says what just happened or why a step was refused (the dealer's
phase bar is hidden while the supervisor's area is shown)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import QLabel, QWidget

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.controller.view import Level
from dealer_console.employees.registry import Employee, Role
from ui.bridge import ControllerBridge
from ui.supervisor.session import Session
from ui.widgets.kit import act


def who(session: Session) -> str:
    """How a change names the supervisor who made it, in the round's log: name and id."""
    employee = session.employee
    return f"{employee.name} ({employee.employee_id})"


class SupervisorScreen(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.ctl = controller
        self.bridge = bridge
        self.session = session
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setProperty("role", "hint")
        self._asked = False
        notice = controller.snapshot().notice
        self._notice_seen = notice.number if notice is not None else 0

    def want_card(self, role: Role, purpose: str, on_card: Callable[[Employee], object]) -> None:
        """``controller.want_card`` for this screen: called off if the screen is left first."""
        def taken(employee: Employee) -> object:
            self._asked = False
            return on_card(employee)
        self._asked = True
        self.ctl.want_card(role, purpose, taken)

    def capture_card(self, purpose: str, on_track: Callable[[str], object]) -> None:
        """``controller.capture_card`` for this screen: called off if the screen is left."""
        def taken(track: str) -> object:
            self._asked = False
            return on_track(track)
        self._asked = True
        self.ctl.capture_card(purpose, taken)

    def hideEvent(self, event: QHideEvent) -> None:
        """Leaving the screen (or the supervisor's area) calls off a card it still waits for:
        a later swipe must not act for a screen no one is looking at. While the card's PIN is
        asked the window hides the area itself (its pad needs the room); closing the area
        then calls the PIN off (``DealerWindow.close_supervisor``)."""
        super().hideEvent(event)
        view = self.ctl.snapshot()
        if self._asked and not view.card_pin:  # the window hides the area for the PIN's pad
            self._asked = False
            if view.card_wanted is not None:
                self.ctl.cancel_card()

    def say(self, text: str, refused: bool = False) -> None:
        self.message.setProperty("role", "refusal" if refused else "hint")
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)
        self.message.setText(text)

    def act(self, command: Callable[[], object], done: str = "") -> bool:
        """Run a change; a refusal is shown in plain words and nothing changed. The session
        is checked first: a card disabled since it opened ends it (nothing is run)."""
        return act(command, lambda why: self.say(why, refused=True),
                   (lambda: self.say(done)) if done else None, self.session.check)

    def show_notice(self, view: TableSnapshot) -> None:
        """A new refusal from the table (a card that does not authorise) shown here."""
        notice = view.notice
        if notice is None or notice.number <= self._notice_seen:
            return
        self._notice_seen = notice.number
        if notice.level is Level.REFUSED:
            self.say(notice.what + (f": {notice.todo}" if notice.todo else ""), refused=True)
