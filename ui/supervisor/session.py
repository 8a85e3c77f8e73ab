"""Who opened the supervisor's (or the technician's) screens, and what ends that session.

Every change made from these screens is logged with this employee (the swipe that opened the
area is in the swipe log); an action that needs a higher role asks for that card again.

Issue 23: a session used to last as long as nobody pressed "Back to the table". Now it ends
- when the employee may no longer hold it: the registry is read again before every action, and
  on a change of the table when the staff list may have changed since it was last read
  (``StaffWatch``; ``StaffDesk.session_ended``: disabled, removed, role changed);
- when nobody has touched the console for the idle time (``DEALER_CONSOLE_IDLE_LOCK`` seconds,
  two minutes when unset): an unattended table goes back to the dealer's screen.
Either way the area closes and the dealer's screen says why.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from dealer_console.controller import TableController
from dealer_console.employees.registry import Employee, Role

IDLE_LOCK_ENV = "DEALER_CONSOLE_IDLE_LOCK"
IDLE_LOCK_DEFAULT = 120
_ACTIVITY = (QEvent.Type.MouseButtonPress, QEvent.Type.TouchBegin, QEvent.Type.KeyPress)


def idle_lock_seconds(environ: dict[str, str] | None = None) -> int:
    """The idle time before a staff area locks: the environment's, else two minutes. A value
    that is not a whole number of seconds from 10 to 3600 is refused in one line (a table
    must not run unlocked because of a typo)."""
    text = (os.environ if environ is None else environ).get(IDLE_LOCK_ENV, "").strip()
    if not text:
        return IDLE_LOCK_DEFAULT
    if not text.isdigit() or not 10 <= int(text) <= 3600:
        raise ValueError(f"{IDLE_LOCK_ENV}={text[:20]!r}: give the idle lock in whole seconds, "
                         "10 to 3600")
    return int(text)


@dataclass(frozen=True, slots=True)
class Session:
    employee: Employee
    opened: float = field(default_factory=time.monotonic)
    check: Callable[[], bool] = lambda: True
    """Asks the guard whether the session may go on (and ends it if not); screens call it
    before each action."""


class StaffWatch:
    """Has the staff list changed since it was last looked at? (``StaffDesk.version``: this
    console's changes and any other process's commits.) An open area redraws on every change
    of the table; it asks the registry again only when this says so."""

    def __init__(self, controller: TableController) -> None:
        self.ctl = controller
        self.seen = controller.staff.version()

    def changed(self) -> bool:
        now = self.ctl.staff.version()
        if now == self.seen:
            return False
        self.seen = now
        return True


class SessionGuard(QObject):
    """Ends a staff area's session when its employee may no longer hold it or the console has
    been idle for the lock time; ``on_end`` gets the reason (once)."""

    def __init__(self, controller: TableController, employee: Employee, required: Role,
                 on_end: Callable[[str], object], idle_seconds: int | None = None,
                 parent: QObject | None = None) -> None:
        """``parent``: the window the area is in; the guard dies with it, so its idle timer
        never fires into a window already gone (it did, in a later test, and crashed)."""
        super().__init__(parent)
        self.ctl = controller
        self.employee = employee
        self.required = required
        self._on_end = on_end
        self.ended: str | None = None
        self.idle_seconds = idle_lock_seconds() if idle_seconds is None else idle_seconds
        self.idle = QTimer(self)
        self.idle.setSingleShot(True)
        self.idle.setInterval(self.idle_seconds * 1000)
        self.idle.timeout.connect(self._idle)
        self.idle.start()
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _ACTIVITY and self.ended is None:
            self.idle.start()  # a touch anywhere on the console: the lock waits again
        return False

    def check(self) -> bool:
        """True while the session may go on; otherwise it is ended, with the reason."""
        if self.ended is not None:
            return False
        why = self.ctl.staff.session_ended(self.employee, self.required)
        if why is None:
            return True
        self.end(f"{why}: the {self._area()} closed. Swipe a card to open them again.")
        return False

    def _area(self) -> str:
        return ("technician's screens" if self.required is Role.TECHNICIAN
                else "supervisor's screens")

    def _idle(self) -> None:
        minutes, seconds = divmod(self.idle_seconds, 60)
        span = (f"{minutes} minute{'s' if minutes != 1 else ''}" if not seconds
                else f"{self.idle_seconds} seconds")
        self.end(f"The {self._area()} locked after {span} without a touch. Swipe a card to "
                 "open them again.")

    def end(self, why: str) -> None:
        if self.ended is not None:
            return
        self.ended = why
        self.idle.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        self._on_end(why)

    def stop(self) -> None:
        """The area was left by hand: nothing more to watch."""
        self.ended = self.ended or "left"
        self.idle.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
