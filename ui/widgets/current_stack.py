"""A stack of pages sized by the page shown: QStackedWidget asks every page, shown or not, how
large it must be (and how tall its wrapped text makes it), so one tall screen among many would
make every screen too tall for the table's display."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget


class StackPage(QWidget):
    """A page that counts only while shown: hidden, its wrapped text sizes nothing."""

    def heightForWidth(self, width: int) -> int:
        return super().heightForWidth(width) if self.isVisible() else -1

    def minimumSizeHint(self) -> QSize:
        # the stack's layout takes the largest minimum of all its pages
        return super().minimumSizeHint() if self.isVisible() else QSize(0, 0)


class CurrentStack(QStackedWidget):
    """``add_page(widget)`` / ``show_page(widget)`` / ``shown()``: each widget held in a
    :class:`StackPage`, the stack's size that of the page shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self.updateGeometry())

    def add_page(self, widget: QWidget) -> StackPage:
        page = StackPage()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(widget)
        self.addWidget(page)
        return page

    def show_page(self, widget: QWidget) -> None:
        page = widget.parentWidget()
        assert isinstance(page, StackPage) and self.indexOf(page) >= 0, "not a page here"
        self.setCurrentWidget(page)

    def shown(self) -> QWidget | None:
        """The widget on the page shown."""
        page = self.currentWidget()
        if page is None:
            return None
        layout = page.layout()
        item = None if layout is None else layout.itemAt(0)
        return None if item is None else item.widget()

    def minimumSizeHint(self) -> QSize:
        current = self.currentWidget()
        return super().minimumSizeHint() if current is None else current.minimumSizeHint()

    def sizeHint(self) -> QSize:
        current = self.currentWidget()
        return super().sizeHint() if current is None else current.sizeHint()
