"""Does a screen fit the touchscreen it is on? The checks the fit tests and the pictures share.

``fit_problems`` catches parts squeezed below their minimum size. This
module adds what a dealer would see go wrong on a real screen of that size (issue 22): a window
whose contents need more than the screen, text cut off or elided inside a label or a button, and
a touch target smaller than ``theme.TOUCH_MIN``. Text inside a scroll area's viewport is judged
against the content it scrolls, not the visible part: long content is allowed to scroll.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QLabel,
    QScrollBar,
    QStyle,
    QStyleOptionComboBox,
    QTabBar,
    QTableView,
    QWidget,
)

from ui import theme

SLACK_PX = 1
"""Rounding between Qt's text metrics and the pixels it paints."""


def outgrows(window: QWidget, screen: QSize) -> list[str]:
    """The window's contents need more than ``screen``: on a real screen its edge is cut off."""
    need = window.minimumSizeHint().expandedTo(window.minimumSize())
    layout = window.layout()
    if layout is not None:
        need = need.expandedTo(layout.totalMinimumSize())
    if need.width() > screen.width() or need.height() > screen.height():
        return [f"{type(window).__name__} needs {need.width()}x{need.height()}, more than the "
                f"screen's {screen.width()}x{screen.height()}"]
    return []


def fit_problems(widget: QWidget) -> list[str]:
    """What does not fit in ``widget`` as laid out now: each visible part that was given less
    than its minimum size, or less height than its wrapped text needs (text cut off)."""
    problems = []
    for part in (widget, *widget.findChildren(QWidget)):
        if not part.isVisible():
            continue
        hint, least = part.minimumSizeHint(), part.minimumSize()
        need_width = max(hint.width(), least.width())
        need_height = max(hint.height(), least.height())
        layout = part.layout()
        if layout is not None and layout.hasHeightForWidth():
            # wrapped text inside: what it needs depends on the width it was given
            need_height = max(least.height(), layout.totalMinimumHeightForWidth(part.width()))
        elif part.hasHeightForWidth():  # a wrapped label: shorter than this cuts its text
            need_height = max(need_height, part.heightForWidth(part.width()))
        if part.width() < need_width or part.height() < need_height:
            name = part.objectName() or type(part).__name__
            text = getattr(part, "text", None)
            if callable(text) and text():
                name += f" {str(text())[:30]!r}"
            problems.append(f"{name} is {part.width()}x{part.height()} but needs "
                            f"{need_width}x{need_height}")
    return problems


def _name(part: QWidget, text: str) -> str:
    name = part.objectName() or type(part).__name__
    return f"{name} {text[:40]!r}"


def _text_width(part: QWidget, text: str) -> int:
    """The widest line of ``text`` in ``part``'s font; rich text laid out as Qt lays it out."""
    if GuiQt.mightBeRichText(text):
        document = QTextDocument()
        document.setDefaultFont(part.font())
        document.setHtml(text)
        document.setDocumentMargin(0)
        return int(document.idealWidth() + 0.999)
    metrics = QFontMetrics(part.font())
    return max((metrics.horizontalAdvance(line) for line in text.split("\n")), default=0)


def _label_problem(label: QLabel) -> str | None:
    text = label.text()
    if not text or (label.pixmap() is not None and not label.pixmap().isNull()):
        return None
    room = label.contentsRect().width() - 2 * label.margin() - max(label.indent(), 0)
    if label.wordWrap():
        needed = label.heightForWidth(label.width())
        if needed > label.height() + SLACK_PX:
            return f"{_name(label, text)} is cut at the bottom ({label.height()} px of {needed})"
        return None
    width = _text_width(label, text)
    if width > room + SLACK_PX:
        return f"{_name(label, text)} is cut at the side ({room} px of {width})"
    return None


def _button_problem(button: QAbstractButton) -> str | None:
    if isinstance(button.parentWidget(), QScrollBar):
        return None
    if button.width() < theme.TOUCH_MIN or button.height() < theme.TOUCH_MIN:
        return (f"{_name(button, button.text())} is {button.width()}x{button.height()}, "
                f"smaller than a finger ({theme.TOUCH_MIN} px)")
    text = button.text()
    if text and "\n" not in text:
        # a push button draws its text centred and clips it: compare with what it asks for
        hint = button.sizeHint().width()
        if hint > button.width() + SLACK_PX and _text_width(button, text) > button.width():
            return f"{_name(button, text)} is cut at the side ({button.width()} px of {hint})"
    return None


def _tabs_problem(bar: QTabBar) -> str | None:
    """A tab is a touch target too (the technician's device tabs were 36 px high)."""
    for index in range(bar.count()):
        tab = bar.tabRect(index)
        if tab.height() < theme.TOUCH_MIN or tab.width() < theme.TOUCH_MIN:
            return (f"tab {bar.tabText(index)!r} is {tab.width()}x{tab.height()}, smaller "
                    f"than a finger ({theme.TOUCH_MIN} px)")
    return None


def _arrow_problem(combo: QComboBox) -> str | None:
    """A drop-down list opens by its arrow: as wide as a finger, or it cannot be touched."""
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    arrow = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                         QStyle.SubControl.SC_ComboBoxArrow, combo)
    if arrow.width() < theme.TOUCH_MIN or combo.height() < theme.TOUCH_MIN:
        return (f"{_name(combo, combo.currentText())}'s arrow is {arrow.width()}x"
                f"{combo.height()}, smaller than a finger ({theme.TOUCH_MIN} px)")
    return None


def _cell_room(table: QTableView, column: int) -> int:
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    return table.columnWidth(column) - 2 * margin


def _table_problems(table: QTableView) -> list[str]:
    """A list's cells and column titles: a word wider than its column is cut (Qt elides it:
    "contribu..."), wrapped words taller than the row are cut at the bottom."""
    problems: list[str] = []
    model = table.model()
    header = table.horizontalHeader()
    if header.isVisible():
        pad = 2 * table.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        for column in range(model.columnCount()):
            title = str(model.headerData(column, GuiQt.Orientation.Horizontal) or "")
            need = header.fontMetrics().horizontalAdvance(title) + pad
            if title and need > header.sectionSize(column) + SLACK_PX:
                problems.append(f"column title {title!r} is cut at the side "
                                f"({header.sectionSize(column)} px of {need})")
    metrics = QFontMetrics(table.font())
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            text = str(model.data(model.index(row, column)) or "")
            if not text:
                continue
            room = _cell_room(table, column)
            widest = max((metrics.horizontalAdvance(word) for word in text.split()), default=0)
            if widest > room + SLACK_PX:
                problems.append(f"cell {text[:30]!r} is cut at the side ({room} px of {widest})")
                continue
            flags = int(GuiQt.TextFlag.TextWordWrap.value)
            tall = metrics.boundingRect(QRect(0, 0, max(room, 1), 100_000), flags, text).height()
            if tall > table.rowHeight(row) + SLACK_PX:
                problems.append(f"cell {text[:30]!r} is cut at the bottom "
                                f"({table.rowHeight(row)} px of {tall})")
    return problems


def clipped(widget: QWidget) -> list[str]:
    """Every visible label or button under ``widget`` whose text does not show whole, every text
    shown elided (with an ellipsis the words do not have), and every button, tab or drop-down
    arrow too small to touch."""
    problems: list[str] = []
    for part in (widget, *widget.findChildren(QWidget)):
        if not part.isVisible():
            continue
        problem: str | None = None
        if isinstance(part, QLabel):
            problem = _label_problem(part)
            shown = part.property("full_text")  # set by a widget that elides its words
            if problem is None and isinstance(shown, str) and shown != part.text():
                problem = f"{_name(part, shown)} is shown elided as {part.text()[:40]!r}"
        elif isinstance(part, QAbstractButton):
            problem = _button_problem(part)
        elif isinstance(part, QTabBar):
            problem = _tabs_problem(part)
        elif isinstance(part, QComboBox):
            problem = _arrow_problem(part)
        elif isinstance(part, QTableView):
            problems.extend(_table_problems(part))
        if problem:
            problems.append(problem)
    return problems


def screen_problems(window: QWidget, screen: QSize) -> list[str]:
    """All that keeps ``window`` from fitting a real screen of ``screen``'s size, as laid out."""
    return [*outgrows(window, screen), *fit_problems(window), *clipped(window)]
