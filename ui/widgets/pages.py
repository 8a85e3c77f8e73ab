"""The one page stack (issue 24: three today became one; the dealer's phases, the staff areas
and their screens): pages shown one at a time, the stack sized by the page shown. A plain
QStackedWidget asks every page, shown or not, how large it must be (and how tall its wrapped
text makes it), so one tall page among many would squeeze the table in another phase or make
every page too tall for the table's display."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QStackedWidget, QWidget, QWidgetItem


class PageStack(QStackedWidget):
    """A QStackedWidget (``addWidget``, ``setCurrentWidget``, ``currentWidget``) whose size,
    minimum and height for a width are those of the page shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self.updateGeometry())

    def minimumSizeHint(self) -> QSize:
        current = self.currentWidget()
        # the page's own minimum, as a layout reads it (its explicit minimum included)
        return super().minimumSizeHint() if current is None else \
            QWidgetItem(current).minimumSize()

    def sizeHint(self) -> QSize:
        current = self.currentWidget()
        return super().sizeHint() if current is None else current.sizeHint()

    def hasHeightForWidth(self) -> bool:
        current = self.currentWidget()
        return current is not None and current.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        current = self.currentWidget()
        return -1 if current is None else current.heightForWidth(width)
