"""The touch basics: a button a finger can hit (and that a finger's bounce cannot step on), and
scrolling by dragging the content."""

from __future__ import annotations

import time
from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QPushButton,
    QScroller,
    QScrollerProperties,
    QSizePolicy,
    QWidget,
)

from ui import theme


class ButtonRole(StrEnum):
    """What a button does, which sets its colour: the one next step, an alternative, or
    something that cannot be taken back."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    DANGER = "danger"


REREAD_MS = 450
"""How long after a touch a button whose words (or action) that touch changed takes no other.
A finger's bounce or a double tap lands 100-300 ms after the first touch (an outside review's
taps, 180 ms apart, went on to the next irreversible step each time the button took a new
meaning: the players' hands set the House Way, then the table paid); a dealer who means the
new step reads its new words first, which takes longer than this. Only the touched button is
held: words changed by a touch elsewhere (a digit typed turns the phase bar's button into
"$70.00 and START GAME") take a touch at once, as the dealer means it."""


class TapClock:
    """The guard's clock: monotonic seconds, moved on by ``skip``."""

    def __init__(self) -> None:
        self._skipped = 0.0

    def now(self) -> float:
        return time.monotonic() + self._skipped

    def skip(self, seconds: float) -> None:
        """Move on ``seconds`` at once: the gallery's player touches as a dealer who has read
        the new words, without waiting out the interval (the tests' run time)."""
        self._skipped += max(0.0, seconds)


TAP_CLOCK = TapClock()
"""The one clock of every button's guard."""


class TouchButton(QPushButton):
    """A push button at least ``theme.TOUCH_MIN`` square (``theme.MONEY_MIN`` high when it moves
    money), coloured by its role, never taking keyboard focus (a dealer has no keyboard).

    The kit's one guard against a finger's bounce: when its words change after it was
    touched (``setText`` with other words, or ``meaning_changed`` where only the action did),
    a touch within ``REREAD_MS`` of that touch is dropped with no effect, and a touch already
    down when they changed does not click. A screen that gives a button a new step gives it
    new words, so every screen has the guard without asking for it. A click from code
    (``click()``) is not a finger's and is not held."""

    def __init__(self, text: str = "", role: ButtonRole = ButtonRole.SECONDARY, *,
                 money: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.money = money
        side = theme.MONEY_MIN if money else theme.TOUCH_MIN
        self.setMinimumSize(side, side)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAutoDefault(False)
        self._role = role
        self.setProperty("role", role.value)
        self._changed_at = float("-inf")
        self._pressed_at = float("-inf")

    def setText(self, text: str) -> None:
        if text != self.text():
            self.meaning_changed()
        super().setText(text)

    def meaning_changed(self) -> None:
        """What the button does changed: no touch until ``REREAD_MS`` after its last one
        (``setText`` calls it when the words change; a screen calls it where the action
        changed under the same words)."""
        self._changed_at = TAP_CLOCK.now()

    def wait_left(self) -> float:
        """Seconds until the button takes a touch again (0: it takes one now)."""
        if self._changed_at < self._pressed_at:
            return 0.0  # its words are those it had when last touched
        return max(0.0, self._pressed_at + REREAD_MS / 1000 - TAP_CLOCK.now())

    def takes_taps(self) -> bool:
        return self.wait_left() == 0.0

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if not self.takes_taps():
            event.accept()  # dropped, and not passed to what lies under the button either
            return
        self._pressed_at = TAP_CLOCK.now()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self.isDown() and self._changed_at > self._pressed_at:
            self.setDown(False)  # the words changed under the finger: no click
        super().mouseReleaseEvent(event)

    @property
    def role(self) -> ButtonRole:
        return self._role

    def set_role(self, role: ButtonRole) -> None:
        """Change the colour; the stylesheet reads the ``role`` property, so re-polish."""
        if role == self._role:
            return
        self._role = role
        self.setProperty("role", role.value)
        self.style().unpolish(self)
        self.style().polish(self)
        self.update()


def kinetic(scroll_area: QAbstractScrollArea) -> None:
    """Let a finger (touch events) or a left-button drag (a technician's mouse, or a touchscreen
    that reports itself as a mouse) scroll ``scroll_area`` with momentum.

    QScroller allows one gesture per object, so touch is grabbed on the viewport and the mouse
    gesture on the area itself; both drive the same scroll bars."""
    viewport = scroll_area.viewport()
    viewport.setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents, True)
    QScroller.grabGesture(viewport, QScroller.ScrollerGestureType.TouchGesture)
    QScroller.grabGesture(scroll_area, QScroller.ScrollerGestureType.LeftMouseButtonGesture)
    if isinstance(scroll_area, QAbstractItemView):
        # item views scroll by whole rows unless told otherwise, which makes a drag jump
        scroll_area.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        scroll_area.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    # as a plain int: an enum object stored in the QVariant outlives the interpreter
    off = QScrollerProperties.OvershootPolicy.OvershootAlwaysOff.value
    for target in (viewport, scroll_area):
        scroller = QScroller.scroller(target)
        props = scroller.scrollerProperties()
        # the list stops at its ends instead of bouncing: nothing on the table should wobble
        props.setScrollMetric(QScrollerProperties.ScrollMetric.VerticalOvershootPolicy, off)
        props.setScrollMetric(QScrollerProperties.ScrollMetric.HorizontalOvershootPolicy, off)
        scroller.setScrollerProperties(props)


TOUCH_STYLE = (f"QTabBar::tab {{ min-height: {theme.TOUCH_MIN}px;"
               f" min-width: {theme.TOUCH_MIN * 2}px; padding: 0 {theme.SPACING * 2}px; }}"
               # a drop-down's parts follow the sheet only once the box itself has a border
               f" QComboBox {{ min-height: {theme.TOUCH_MIN}px; border: 2px solid {theme.BORDER};"
               f" border-radius: {theme.RADIUS}px; padding: 0 {theme.SPACING}px;"
               f" background: {theme.SURFACE}; }}"
               f" QComboBox::drop-down {{ width: {theme.TOUCH_MIN}px; border: none; }}"
               f" QComboBox::down-arrow {{ width: {theme.TOUCH_MIN // 3}px;"
               f" height: {theme.TOUCH_MIN // 3}px; }}")
"""Tabs and drop-down arrows a finger can hit (Qt's own are about 30 px)."""


def touch_tabs_and_arrows(widget: QWidget) -> None:
    """Give the tabs and drop-down lists under ``widget`` targets of ``theme.TOUCH_MIN``."""
    widget.setStyleSheet(widget.styleSheet() + TOUCH_STYLE)
