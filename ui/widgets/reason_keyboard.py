"""A keyboard on the screen for a short text (a back-out's reason): the console has no physical
keyboard, so letters, digits, space and backspace are touch keys, and the text typed so far is
shown above them."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL-", "ZXCVBNM,.'")
MAX_LENGTH = 200


class ReasonKeyboard(QWidget):
    changed = Signal(str)

    def __init__(self, placeholder: str = "") -> None:
        super().__init__()
        self._text = ""
        self.placeholder = placeholder
        self.shown = QLabel()
        self.shown.setWordWrap(True)
        self.shown.setProperty("role", "amount")
        self.shown.setMinimumHeight(theme.MONEY_MIN)
        self.keys: dict[str, TouchButton] = {}
        grid = QGridLayout()
        grid.setSpacing(theme.SPACING // 2)
        for row, letters in enumerate(ROWS):
            for column, letter in enumerate(letters):
                key = TouchButton(letter)
                key.clicked.connect(lambda _=False, k=letter: self.press(k))
                self.keys[letter] = key
                grid.addWidget(key, row, column)
        space = TouchButton("Space")
        space.clicked.connect(lambda: self.press(" "))
        back = TouchButton("Delete")
        back.clicked.connect(self.backspace)
        clear = TouchButton("Clear", ButtonRole.DANGER)
        clear.clicked.connect(self.clear)
        self.keys[" "], self.keys["delete"], self.keys["clear"] = space, back, clear
        last = len(ROWS)
        grid.addWidget(clear, last, 0, 1, 2)
        grid.addWidget(space, last, 2, 1, 6)
        grid.addWidget(back, last, 8, 1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.shown)
        layout.addLayout(grid, 1)  # room to spare goes to the keys: larger targets
        for key in self.keys.values():
            key.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._show()

    def text(self) -> str:
        return self._text

    def press(self, key: str) -> None:
        if len(self._text) >= MAX_LENGTH:
            return
        # typed in capitals on the keys, kept in sentence case: the first letter capital
        self._text += key if not self._text else key.lower()
        self._show()

    def backspace(self) -> None:
        self._text = self._text[:-1]
        self._show()

    def clear(self) -> None:
        self._text = ""
        self._show()

    def _show(self) -> None:
        empty = not self._text
        self.shown.setText(self.placeholder if empty else self._text)
        self.shown.setProperty("empty", "true" if empty else "false")
        self.shown.style().unpolish(self.shown)
        self.shown.style().polish(self.shown)
        self.changed.emit(self._text)
