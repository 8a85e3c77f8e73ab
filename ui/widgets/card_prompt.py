"""The strip that says a card is wanted: what for and whose, with a way to call it off.

It shows the controller's ``card_wanted`` prompt as it is; the swipe itself reaches the
controller from the keypad's reader, never through this widget."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

CARD_SIGN = "\U0001f4b3"


class CardPrompt(QFrame):
    """``show_prompt(text or None)``; hidden while no card is wanted."""

    def __init__(self, on_cancel: Callable[[], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card-prompt")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.cancel = TouchButton("Cancel", ButtonRole.SECONDARY)
        self.cancel.setMinimumWidth(theme.TOUCH_MIN * 3)
        self.cancel.clicked.connect(lambda: on_cancel())
        layout = QHBoxLayout(self)
        layout.setContentsMargins(theme.SPACING * 2, theme.SPACING, theme.SPACING,
                                  theme.SPACING)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.cancel)
        self.hide()

    def show_prompt(self, prompt: str | None) -> None:
        if prompt is None:
            self.hide()
            return
        self.text.setText(f"{prompt}.")
        self.show()
