"""Entering an amount of money by touch, checked as it is typed.

The keypad knows no limit: the screen gives it a ``validator`` that returns the table profile's
own words for an amount it refuses (or None), and a ``hint`` saying what is allowed. The refusal
shows under the amount while it is typed and OK stays disabled until the amount is accepted,
so a dealer never learns of a wrong amount after pressing OK. Money is integer cents
(rules README, "Money and settlement"); digits are appended to an integer, never parsed from a
float.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from dealer_console.money import format_cents
from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

Validator = Callable[[int], str | None]

BACKSPACE = "\u232b"
MAX_CENTS = 999_999_999  # $9,999,999.99: more than any table amount, and it fits the display


class AmountKeypad(QWidget):
    """Digits 0-9 and 00, backspace, clear, cancel and a big OK.

    By default the digits are whole dollars (typing 1, 2, 5 shows $125.00); with
    ``cents=True`` they fill from the cents up, as on a till (1, 2, 5 shows $1.25).
    ``accepted(cents)`` is emitted by OK, ``cancelled()`` by Cancel. A screen may put a
    second OK in Cancel's place (:meth:`set_then`): it accepts the amount the same way and
    emits ``accepted_then(cents)``, for a screen whose next step differs after it."""

    accepted = Signal(int)
    accepted_then = Signal(int)
    cancelled = Signal()

    def __init__(self, validator: Validator | None = None, hint: str = "", *,
                 cents: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._validator = validator
        self._cents_entry = cents
        self._digits = ""
        self._refusal: str | None = None

        self.display = QLabel()
        self.display.setProperty("role", "amount")
        self.display.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.display.setMinimumHeight(theme.FONT_AMOUNT + 24)
        self.hint = QLabel(hint)
        self.hint.setProperty("role", "hint")
        self.hint.setWordWrap(True)
        self.refusal_label = QLabel()
        self.refusal_label.setProperty("role", "refusal")
        self.refusal_label.setWordWrap(True)
        # the refusal's place is kept while it is hidden, so the keys never jump under a finger
        policy = self.refusal_label.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.refusal_label.setSizePolicy(policy)
        self.refusal_label.setMinimumHeight(theme.FONT_BODY * 2 + 24)

        self.keys: dict[str, TouchButton] = {}
        grid = QGridLayout()
        grid.setSpacing(theme.SPACING - 2)
        for index, digit in enumerate("123456789"):
            self._add_key(grid, digit, index // 3, index % 3)
        self._add_key(grid, "0", 3, 0)
        self._add_key(grid, "00", 3, 1)
        self._add_key(grid, "back", 3, 2, BACKSPACE, self.backspace)
        self._add_key(grid, "clear", 0, 3, "Clear", self.clear)
        self._add_key(grid, "cancel", 1, 3, "Cancel", self.cancelled.emit)
        self._add_key(grid, "then", 1, 3, "", self._accept_then, role=ButtonRole.PRIMARY)
        self.keys["then"].hide()
        self._add_key(grid, "ok", 2, 3, "OK", self._accept, role=ButtonRole.PRIMARY, rows=2)
        for name in (*"0123456789", "00", "back", "ok"):
            self.keys[name].setProperty("big", True)
        self.keys["back"].setAccessibleName("backspace")
        for row in range(4):
            grid.setRowStretch(row, 1)
        for column in range(3):
            grid.setColumnStretch(column, 2)
        grid.setColumnStretch(3, 3)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(theme.SPACING // 2)
        layout.addWidget(self.display)
        layout.addWidget(self.hint)
        layout.addWidget(self.refusal_label)
        layout.addLayout(grid, 1)
        self._refresh()

    def _add_key(self, grid: QGridLayout, name: str, row: int, column: int,
                 text: str | None = None, action: Callable[[], object] | None = None, *,
                 role: ButtonRole = ButtonRole.SECONDARY, rows: int = 1) -> None:
        key = TouchButton(text or name, role, money=True, parent=self)
        key.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        if action is None:
            key.clicked.connect(lambda: self.press(name))
        else:
            key.clicked.connect(action)
        self.keys[name] = key
        grid.addWidget(key, row, column, rows, 1)

    # -- what the screen sets and reads ----------------------------------------------------
    def set_validator(self, validator: Validator | None) -> None:
        self._validator = validator
        self._refresh()

    def set_then(self, text: str | None) -> None:
        """Show a second OK named ``text`` where Cancel is (None: Cancel again)."""
        then = self.keys["then"]
        if text is not None:
            then.setText(text)
        then.setVisible(text is not None)
        self.keys["cancel"].setVisible(text is None)

    def set_hint(self, hint: str) -> None:
        self.hint.setText(hint)

    def set_amount(self, cents: int | None) -> None:
        """Start from an amount (None: nothing typed). In dollar entry the amount must be whole
        dollars; a ValueError says so."""
        if cents is None:
            self._digits = ""
        elif not 0 <= cents <= MAX_CENTS:
            raise ValueError(f"{format_cents(cents)} is outside what the keypad shows "
                             f"($0.00 to {format_cents(MAX_CENTS)})")
        elif self._cents_entry:
            self._digits = str(cents)
        elif cents % 100:
            raise ValueError(f"{format_cents(cents)} is not whole dollars; this keypad takes "
                             "dollars only")
        else:
            self._digits = str(cents // 100)
        self._digits = self._digits.lstrip("0") or ("0" if cents is not None else "")
        self._refresh()

    def amount(self) -> int | None:
        """The amount typed so far in cents, or None before the first digit."""
        if not self._digits:
            return None
        value = int(self._digits)
        return value if self._cents_entry else value * 100

    def refusal(self) -> str | None:
        return self._refusal

    # -- keys ------------------------------------------------------------------------------
    def press(self, digits: str) -> None:
        """Append ``digits`` ("0"-"9" or "00"); a key that would pass ``MAX_CENTS`` is ignored."""
        if not digits.isdigit():
            raise ValueError(f"{digits!r} is not a keypad digit")
        typed = (self._digits + digits).lstrip("0") or "0"
        if int(typed) * (1 if self._cents_entry else 100) > MAX_CENTS:
            return
        self._digits = typed
        self._refresh()

    def backspace(self) -> None:
        self._digits = self._digits[:-1]
        self._refresh()

    def clear(self) -> None:
        self._digits = ""
        self._refresh()

    def _accept(self) -> None:
        cents = self.amount()
        if cents is not None and self._refusal is None:
            self.accepted.emit(cents)

    def _accept_then(self) -> None:
        cents = self.amount()
        if cents is not None and self._refusal is None:
            self.accepted_then.emit(cents)

    def _refresh(self) -> None:
        cents = self.amount()
        self.display.setText(format_cents(cents if cents is not None else 0))
        if self.display.property("empty") != (cents is None):
            # nothing typed yet: the $0.00 is greyed, so it does not read as an amount entered
            self.display.setProperty("empty", cents is None)
            self.display.style().unpolish(self.display)
            self.display.style().polish(self.display)
        self._refusal = None
        if cents is not None and self._validator is not None:
            self._refusal = self._validator(cents)
        self.refusal_label.setText(self._refusal or "")
        self.refusal_label.setVisible(self._refusal is not None)
        self.keys["ok"].setEnabled(cents is not None and self._refusal is None)
        self.keys["then"].setEnabled(cents is not None and self._refusal is None)
        self.keys["back"].setEnabled(bool(self._digits))
        self.keys["clear"].setEnabled(bool(self._digits))
