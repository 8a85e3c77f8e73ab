"""Typing a short text by touch (a name, an employee id, a reason): letters, digits, the few
marks a name or an id uses, a shift for capitals, backspace and clear. A console has no
keyboard; what the text may hold is checked by the caller's ``validator``, shown under the text
as it is typed, and OK is live only when the text is accepted.

The console's one on-screen keyboard (issue 24: the void reason and the back-out reason were
typed two different ways). ``sentence=True`` types as a reason is written: the first letter a
capital, the rest small unless Shift is touched; ``with_ok=False`` leaves the confirming button
to the screen (the back-out's card prompt). ``changed`` tells every change of the text."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

Validator = Callable[[str], str | None]
ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM-._")
MAX_CHARS = 64
BACKSPACE = "\u232b"


class TextKeyboard(QWidget):
    accepted = Signal(str)
    changed = Signal(str)

    def __init__(self, validator: Validator | None = None, hint: str = "",
                 parent: QWidget | None = None, *, placeholder: str = "-",
                 sentence: bool = False, with_ok: bool = True,
                 max_chars: int = MAX_CHARS) -> None:
        super().__init__(parent)
        self._validator = validator
        self._text = ""
        self._upper = True
        self.placeholder = placeholder
        self.sentence = sentence
        self.max_chars = max_chars
        self.display = QLabel()
        self.display.setProperty("role", "amount")
        self.display.setWordWrap(True)  # a reason runs to 200 characters: it wraps
        if sentence:  # a sentence in the body's size: two lines, not five, at 1280x800
            self.display.setStyleSheet(f"font-size: {theme.FONT_LABEL}px;")
        self.hint = QLabel(hint)
        self.hint.setProperty("role", "hint")
        self.hint.setWordWrap(True)
        self.hint.setVisible(bool(hint))  # no empty line where there is nothing to say
        self.refusal = QLabel()
        self.refusal.setProperty("role", "refusal")
        self.refusal.setWordWrap(True)
        grid = QGridLayout()
        grid.setSpacing(theme.SPACING // 3)
        self.keys: dict[str, TouchButton] = {}
        for row, keys in enumerate(ROWS):
            for column, key in enumerate(keys):
                button = TouchButton(key, ButtonRole.SECONDARY)
                button.clicked.connect(lambda _=False, k=key: self.press(k))
                grid.addWidget(button, row, column)
                self.keys[key] = button
        self.shift = self._key(grid, "Shift", 4, 0, 2, self.toggle_shift)
        self.shift.setCheckable(True)
        self.keys[" "] = self._key(grid, "Space", 4, 2, 4, lambda: self.press(" "))
        self.keys["delete"] = self._key(grid, BACKSPACE, 4, 6, 1, self.backspace)
        self.keys["clear"] = self._key(grid, "Clear", 4, 7, 1, self.clear)
        self.ok = self._key(grid, "OK", 4, 8, 2, self._accept, ButtonRole.PRIMARY)
        self.ok.setVisible(with_ok)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(theme.SPACING // 2)  # the back-out's page fits 1280x800 with a refusal
        layout.addWidget(self.display)
        layout.addWidget(self.hint)
        layout.addWidget(self.refusal)
        layout.addLayout(grid, 1)
        self._refresh()

    def _key(self, grid: QGridLayout, name: str, row: int, column: int, span: int,
             action: Callable[[], None], role: ButtonRole = ButtonRole.SECONDARY
             ) -> TouchButton:
        button = TouchButton(name, role)
        button.clicked.connect(lambda _=False: action())
        grid.addWidget(button, row, column, 1, span)
        self.keys[name] = button
        return button

    def text(self) -> str:
        return self._text

    def set_validator(self, validator: Validator | None) -> None:
        self._validator = validator
        self._refresh()

    def set_hint(self, hint: str) -> None:
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))

    def type_text(self, text: str) -> None:
        """``text`` as typed with Shift where its capitals are (for the screen player)."""
        for char in text:
            self._put(char)
        self._refresh()

    def press(self, key: str) -> None:
        self._put(key.upper() if self._upper else key.lower())
        if self.sentence and key.isalpha():
            self._upper = False  # a reason's capital is its first letter's
        self._refresh()

    def _put(self, char: str) -> None:
        if len(self._text) < self.max_chars:
            self._text += char

    def toggle_shift(self) -> None:
        self._upper = not self._upper
        self._refresh()

    def backspace(self) -> None:
        self._text = self._text[:-1]
        self._refresh()

    def clear(self) -> None:
        self._text = ""
        self._refresh()

    def set_text(self, text: str) -> None:
        self._text = text[:self.max_chars]
        self._refresh()

    def _problem(self) -> str | None:
        if not self._text.strip():
            return None
        return self._validator(self._text) if self._validator else None

    def _refresh(self) -> None:
        if self.sentence and not self._text.strip():
            self._upper = True  # a new sentence begins with a capital
        self.display.setText(self._text or self.placeholder)
        self.display.setProperty("empty", "false" if self._text else "true")
        self.display.style().unpolish(self.display)
        self.display.style().polish(self.display)
        self.shift.setChecked(self._upper)
        for key, button in self.keys.items():
            if len(key) == 1 and key.isalpha():
                button.setText(key.upper() if self._upper else key.lower())
        problem = self._problem()
        self.refusal.setText(problem or "")
        self.refusal.setVisible(bool(problem))
        self.ok.setEnabled(bool(self._text.strip()) and problem is None)
        self.changed.emit(self._text)

    def _accept(self) -> None:
        if self._text.strip() and self._problem() is None:
            self.accepted.emit(self._text)
