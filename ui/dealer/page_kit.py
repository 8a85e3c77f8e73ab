"""What every page of the dealer's phase pages shares: the page's base, a wrapped label, and
emptying a layout whose widgets are drawn anew from each view."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QScrollArea,
    QScroller,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TableController, TableSnapshot

Act = Callable[[Callable[[], object]], bool]
"""Run a command; a refusal is shown to the dealer and False returned."""


def clear_layout(layout: QGridLayout | QHBoxLayout | QVBoxLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.hide()  # gone from the screen now, not when the deferred delete runs
            widget.deleteLater()


def layout_widgets(layout: QHBoxLayout) -> list[QWidget]:
    items = (layout.itemAt(i) for i in range(layout.count()))
    return [w for w in (item.widget() if item is not None else None for item in items)
            if w is not None]


class Page(QWidget):
    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__()
        self.ctl = ctl
        self.act = act
        self.four_colour = False

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        raise NotImplementedError

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        """The seat this page is about (highlighted on the table)."""
        return focus


class Scroller(QScrollArea):
    """A frameless vertical scroll area that asks for no room of its own: what it holds
    takes the room the window gives it and scrolls what does not fit, so it never makes the
    window taller than the screen."""

    def __init__(self, inner: QWidget) -> None:
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(inner)
        # a finger drags it (touch events); a mouse press stays a press on what it holds
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents, True)
        QScroller.grabGesture(self.viewport(), QScroller.ScrollerGestureType.TouchGesture)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, 0)
