"""Device faults in red where the dealer looks: which device, what is wrong, what to do.

The screen feeds it the drivers' faults as plain text; the banner hides itself when the list
is empty so a quiet table shows nothing, and shows at once when a fault arrives.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QWidget

from ui import theme

Fault = tuple[str, str, str]  # (device, what is wrong, what to do)
WARNING_SIGN = "\u26a0"


class FaultBanner(QFrame):
    """``set_faults([(device, problem, remedy), ...])``; hidden while there are none."""

    def __init__(self, parent: QWidget | None = None, *, compact: bool = False) -> None:
        super().__init__(parent)
        self.compact = compact
        """Each fault as one wrapped sentence in small bold type (the dealer's top strip, a fixed
        height: three columns there cut the words), instead of three columns."""
        self.setProperty("role", "fault")
        # grows with wrapped text: a fault's words are never cut off
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self._faults: tuple[Fault, ...] = ()
        self._grid = QGridLayout(self)
        # thin above and below: at 1280x800 the betting page needs every line of its height
        self._grid.setContentsMargins(theme.SPACING * 2, theme.SPACING // 2, theme.SPACING * 2,
                                      theme.SPACING // 2)
        self._grid.setHorizontalSpacing(theme.SPACING * 2)
        self._grid.setVerticalSpacing(theme.SPACING // 2)
        self._grid.setColumnStretch(1, 1)
        self._grid.setColumnStretch(2, 1)
        self._labels: list[QLabel] = []
        self.hide()

    def faults(self) -> tuple[Fault, ...]:
        return self._faults

    def set_faults(self, faults: Sequence[Fault]) -> None:
        per_fault = 1 if self.compact else 3
        if tuple(faults) == self._faults and len(self._labels) == per_fault * len(self._faults):
            return  # the same faults: the labels laid out stay (redrawn on every change)
        self._faults = tuple(faults)
        for label in self._labels:
            self._grid.removeWidget(label)
            label.deleteLater()
        self._labels = []
        for row, (device, problem, remedy) in enumerate(self._faults):
            if self.compact:
                line = self._label(f"{WARNING_SIGN} {device}: {problem}"
                                   + (f" - {remedy}" if remedy else ""), "line")
                line.setStyleSheet(f"font-size: {theme.FONT_SMALL}px; font-weight: bold;")
                self._grid.addWidget(line, row, 0, 1, 3)
                continue
            cells = (
                self._label(f"{WARNING_SIGN} {device}", "device"),
                self._label(problem, "problem"),
                self._label(remedy, "remedy"),
            )
            for column, label in enumerate(cells):
                self._grid.addWidget(label, row, column)
        self.setVisible(bool(self._faults))

    def _label(self, text: str, part: str) -> QLabel:
        label = QLabel(text, self)
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        label.setProperty("part", part)
        self._labels.append(label)
        return label

    def minimumSizeHint(self) -> QSize:
        """As tall as the faults' words need at the banner's own width: a wrapped label's
        hint is its height at its narrowest, which made the window taller than the screen."""
        hint = super().minimumSizeHint()
        layout = self.layout()
        if self.width() > 0 and layout is not None and layout.hasHeightForWidth():
            return QSize(hint.width(), min(hint.height(), layout.totalHeightForWidth(self.width())))
        return hint

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), self.minimumSizeHint().height())
