"""A pad for a small whole number (the dice total, a random number, a deck count): digits,
backspace, clear and OK, with the refusal shown under the number as it is typed. The number's
rules come from the caller's ``validator``; the pad knows none.

Masked (``masked=True``), it takes a PIN: up to ``max_digits`` digits kept as typed (a leading
zero stays), shown as dots only, and handed over as text by ``typed``; the pad checks nothing
(the core does, ``dealer_console/employees/pins.py``). ``wide`` lays the keys out in two rows
of six, for a panel with little height."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

Validator = Callable[[int], str | None]
MAX_DIGITS = 3
MAX_WIDTH = 640


MASK = "\u25cf"


class NumberPad(QWidget):
    accepted = Signal(int)
    typed = Signal(str)
    """A masked pad's digits, on OK."""

    def __init__(self, validator: Validator | None = None, hint: str = "",
                 parent: QWidget | None = None, *, masked: bool = False,
                 max_digits: int = MAX_DIGITS, wide: bool = False) -> None:
        super().__init__(parent)
        self._validator = validator
        self._masked = masked
        self._max_digits = max_digits
        self._digits = ""
        self.display = QLabel()
        self.display.setProperty("role", "amount")
        self.hint = QLabel(hint)
        self.hint.setProperty("role", "hint")
        self.hint.setWordWrap(True)
        self.refusal = QLabel()
        self.refusal.setProperty("role", "refusal")
        self.refusal.setWordWrap(True)
        grid = QGridLayout()
        grid.setSpacing(theme.SPACING // 2)
        self.keys: dict[str, TouchButton] = {}
        if wide:  # two rows: 1-5 and backspace, 6-0 and OK (a pad in a short panel)
            for i, name in enumerate("1234567890"):
                self._key(grid, name, i // 5, i % 5, self._digit(name))
            self._key(grid, "\u232b", 0, 5, self.backspace)
            self.ok = self._key(grid, "OK", 1, 5, self._accept, ButtonRole.PRIMARY)
        else:
            for i, name in enumerate("123456789"):
                self._key(grid, name, i // 3, i % 3, self._digit(name))
            self._key(grid, "\u232b", 3, 0, self.backspace)
            self._key(grid, "0", 3, 1, lambda: self.press("0"))
            self.ok = self._key(grid, "OK", 3, 2, self._accept, ButtonRole.PRIMARY)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if wide:  # the number beside the hint, over the keys
            row = QHBoxLayout()
            row.addWidget(self.display)
            row.addWidget(self.hint, 1)
            layout.addLayout(row)
            layout.addWidget(self.refusal)
            layout.addLayout(grid, 1)
            self.setMaximumWidth(MAX_WIDTH * 2)
        else:
            self.setMaximumWidth(MAX_WIDTH)  # a pad, not a wall of keys, on a wide screen
            layout.addWidget(self.display)
            layout.addWidget(self.hint)
            layout.addWidget(self.refusal)
            layout.addLayout(grid, 1)
        self._refresh()

    def _key(self, grid: QGridLayout, name: str, row: int, column: int,
             action: Callable[[], None], role: ButtonRole = ButtonRole.SECONDARY
             ) -> TouchButton:
        button = TouchButton(name, role, money=True)
        button.setProperty("big", True)
        button.clicked.connect(lambda _=False: action())
        grid.addWidget(button, row, column)
        self.keys[name] = button
        return button

    def _digit(self, digit: str) -> Callable[[], None]:
        return lambda: self.press(digit)

    def set_validator(self, validator: Validator | None) -> None:
        self._validator = validator
        self._refresh()

    def set_hint(self, hint: str) -> None:
        self.hint.setText(hint)

    def value(self) -> int | None:
        return int(self._digits) if self._digits else None

    def press(self, digit: str) -> None:
        if len(self._digits) < self._max_digits:
            self._digits = (self._digits + digit if self._masked
                            else str(int(self._digits + digit)))
        self._refresh()

    def backspace(self) -> None:
        self._digits = self._digits[:-1]
        self._refresh()

    def clear(self) -> None:
        self._digits = ""
        self._refresh()

    def _problem(self) -> str | None:
        value = self.value()
        if value is None:
            return None
        return self._validator(value) if self._validator else None

    def _refresh(self) -> None:
        value = self.value()
        if self._masked:
            self.display.setText(MASK * len(self._digits) or "-")
        else:
            self.display.setText("-" if value is None else str(value))
        problem = None if self._masked else self._problem()
        self.refusal.setText(problem or "")
        self.refusal.setVisible(bool(problem))
        self.ok.setEnabled(value is not None and problem is None)

    def _accept(self) -> None:
        if self._masked:
            digits, self._digits = self._digits, ""
            self._refresh()
            if digits:
                self.typed.emit(digits)
            return
        value = self.value()
        if value is not None and self._problem() is None:
            self.accepted.emit(value)
            self.clear()
