"""The one page stack (issue 24: three today became one; the dealer's phases, the staff areas
and their screens): pages shown one at a time, the stack sized by the page shown. A plain
QStackedWidget asks every page, shown or not, how large it must be (and how tall its wrapped
text makes it), so one tall page among many would squeeze the table in another phase or make
every page too tall for the table's display."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget


class _Page(QWidget):
    """Holds one page; counts only while shown (Qt's stacked layout asks every page how tall
    its wrapped text makes it): hidden, it sizes nothing."""

    def heightForWidth(self, width: int) -> int:
        return super().heightForWidth(width) if self.isVisible() else -1

    def minimumSizeHint(self) -> QSize:
        # the stack's layout takes the largest minimum of all its pages
        return super().minimumSizeHint() if self.isVisible() else QSize(0, 0)


class PageStack(QStackedWidget):
    """A QStackedWidget (``addWidget``, ``setCurrentWidget``, ``currentWidget``, ``indexOf``
    take and give the pages themselves) whose size is that of the page shown: each page is
    held in a holder that sizes nothing while hidden."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self.updateGeometry())

    def addWidget(self, w: QWidget) -> int:
        holder = _Page()
        layout = QVBoxLayout(holder)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(w)
        return super().addWidget(holder)

    def _holder(self, page: QWidget) -> QWidget | None:
        holder = page.parentWidget()
        return holder if isinstance(holder, _Page) and super().indexOf(holder) >= 0 else None

    def indexOf(self, w: QWidget) -> int:
        holder = self._holder(w)
        return -1 if holder is None else super().indexOf(holder)

    def setCurrentWidget(self, w: QWidget) -> None:
        holder = self._holder(w)
        assert holder is not None, "not a page of this stack"
        super().setCurrentWidget(holder)

    def currentWidget(self) -> QWidget | None:
        """The page shown (not its holder)."""
        holder = super().currentWidget()
        layout = None if holder is None else holder.layout()
        item = None if layout is None else layout.itemAt(0)
        return None if item is None else item.widget()

    def removeWidget(self, w: QWidget) -> None:
        holder = self._holder(w)
        if holder is not None:  # the page is the caller's again; its holder goes
            super().removeWidget(holder)
            w.hide()
            w.setParent(None)
            holder.deleteLater()

    def minimumSizeHint(self) -> QSize:
        current = super().currentWidget()
        return super().minimumSizeHint() if current is None else current.minimumSizeHint()

    def sizeHint(self) -> QSize:
        current = super().currentWidget()
        return super().sizeHint() if current is None else current.sizeHint()
