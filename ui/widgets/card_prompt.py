"""The strip that says a card is wanted: what for and whose, with a way to call it off.

It shows the controller's ``card_wanted`` prompt as it is; the swipe itself reaches the
controller from the keypad's reader, never through this widget. When the controller asks for
the PIN of the card it accepted (``card_pin``), the strip shows a masked pad under the prompt
and hands the digits to ``on_pin``; whether they are right is the controller's to say."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_console.employees.pins import PIN_MAX
from ui import theme
from ui.widgets.kit import act
from ui.widgets.number_pad import NumberPad
from ui.widgets.touch import ButtonRole, TouchButton

CARD_SIGN = "\U0001f4b3"
PAD_SIZE = QSize(900, 340)
"""The PIN pad's size: keys a finger finds at arm's length, not a wall of keys."""


class CardPrompt(QFrame):
    """``show_prompt(text or None, pin)``; hidden while no card is wanted."""

    def __init__(self, on_cancel: Callable[[], object], on_pin: Callable[[str], object],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card-prompt")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.cancel = TouchButton("Cancel", ButtonRole.SECONDARY)
        self.cancel.setMinimumWidth(theme.TOUCH_MIN * 3)
        self.cancel.clicked.connect(lambda: on_cancel())
        self.pin_pad = NumberPad(masked=True, max_digits=PIN_MAX, wide=True)
        self.pin_pad.setFixedSize(PAD_SIZE)
        self.pin_pad.typed.connect(
            lambda pin: act(lambda: on_pin(pin), self._pin_refused, self._pin_taken))
        self.pin_pad.hide()
        self.said = QLabel()
        """A refused PIN in plain words; it stays when wrong PINs call the card off."""
        self.said.setProperty("role", "refusal")
        self.said.setWordWrap(True)
        self.said.hide()
        row = QHBoxLayout()
        row.addWidget(self.text, 1)
        row.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING * 2, theme.SPACING, theme.SPACING,
                                  theme.SPACING)
        layout.addLayout(row)
        layout.addWidget(self.said)
        layout.addStretch(1)  # the pad in the middle of the room the window gives it
        layout.addWidget(self.pin_pad, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        self._strip_style = ""
        self.hide()

    def show_prompt(self, prompt: str | None, pin: bool = False) -> None:
        if prompt is None:
            self.hide()
            self._pin_taken()
            pin = False
        else:
            self.text.setText(f"{prompt}.")
            self.show()
        if pin != self.pin_pad.isVisibleTo(self):
            self.pin_pad.clear()
            if pin:  # a PIN asked afresh: the last refusal is old news; the words large
                self._pin_taken()
                self._strip_style = self.text.styleSheet()
                self.text.setStyleSheet(f"font-size: {theme.FONT_HEADING}px; "
                                        "font-weight: bold;")
            else:
                self.text.setStyleSheet(self._strip_style)
            self.pin_pad.setVisible(pin)

    def _pin_refused(self, why: str) -> None:
        self.said.setText(why[:1].upper() + why[1:] + ".")
        self.said.show()

    def _pin_taken(self) -> None:
        self.said.clear()
        self.said.hide()
