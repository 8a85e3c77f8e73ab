"""Does a screen fit the touchscreen it is on? The checks the fit tests and the pictures share.

``fit_problems`` catches parts squeezed below their minimum size. This
module adds what a dealer would see go wrong on a real screen of that size (issue 22): a window
whose contents need more than the screen, text cut off or elided inside a label or a button, and
a touch target smaller than ``theme.TOUCH_MIN``. Text inside a scroll area's viewport is judged
against the content it scrolls, not the visible part: long content is allowed to scroll.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QAbstractButton, QLabel, QScrollBar, QWidget

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


def clipped(widget: QWidget) -> list[str]:
    """Every visible label or button under ``widget`` whose text does not show whole, every text
    shown elided (with an ellipsis the words do not have), and every button too small to touch."""
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
        if problem:
            problems.append(problem)
    return problems


def screen_problems(window: QWidget, screen: QSize) -> list[str]:
    """All that keeps ``window`` from fitting a real screen of ``screen``'s size, as laid out."""
    return [*outgrows(window, screen), *fit_problems(window), *clipped(window)]
