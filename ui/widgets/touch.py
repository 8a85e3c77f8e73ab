"""The touch basics: a button a finger can hit and scrolling by dragging the content."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
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


class TouchButton(QPushButton):
    """A push button at least ``theme.TOUCH_MIN`` square (``theme.MONEY_MIN`` high when it moves
    money), coloured by its role, never taking keyboard focus (a dealer has no keyboard)."""

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
