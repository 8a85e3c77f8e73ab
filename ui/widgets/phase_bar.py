"""The strip that always tells the dealer the one next step, with the button that takes it.

One sentence says what to do now; ONE primary button does it; a few secondary buttons offer the
alternatives. What the button says, whether it is enabled and what it calls are set by the
screen from what the round accepts now; the bar decides nothing. A refusal or error stays in
view, in plain words with what to do, until the screen replaces or clears it: a message that
vanished on a timer could be missed by a dealer looking at the layout.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

Action = Callable[[], object]
BUTTON_HEIGHT_MAX = theme.MONEY_MIN + 32  # buttons stay button-shaped when a message is long


class PhaseBar(QFrame):
    """``set_instruction`` / ``set_action`` / ``add_secondary`` / ``show_message``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "panel")
        self._action: Action | None = None
        self._message = ""
        self._secondary: list[TouchButton] = []

        self.instruction = QLabel()
        self.instruction.setProperty("role", "heading")
        self.instruction.setWordWrap(True)
        self.message = QLabel()
        self.message.setProperty("role", "refusal")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.RichText)
        self.message.hide()

        self.primary = TouchButton("", ButtonRole.PRIMARY, money=True)
        self.primary.setProperty("big", True)
        self.primary.setMinimumWidth(theme.MONEY_MIN * 3)
        self.primary.setMaximumHeight(BUTTON_HEIGHT_MAX)
        self.primary.clicked.connect(self._run_action)
        self.primary.setEnabled(False)

        self._secondary_row = QHBoxLayout()
        self._secondary_row.setSpacing(theme.SPACING)

        text = QVBoxLayout()
        text.setSpacing(theme.SPACING)
        text.addWidget(self.instruction)
        text.addWidget(self.message)
        buttons = QHBoxLayout()
        buttons.setAlignment(Qt.AlignmentFlag.AlignVCenter)
        buttons.setSpacing(theme.SPACING)
        buttons.addLayout(self._secondary_row)
        buttons.addWidget(self.primary)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(theme.SPACING * 2, theme.SPACING, theme.SPACING,
                                  theme.SPACING)
        layout.setSpacing(theme.SPACING * 2)
        layout.addLayout(text, 1)
        layout.addLayout(buttons)

    def set_instruction(self, sentence: str) -> None:
        """What the dealer must do next, in one sentence."""
        self.instruction.setText(sentence)

    def set_action(self, text: str, action: Action | None, enabled: bool = True) -> None:
        """The primary button's words and what it calls. With no action it is disabled."""
        self.primary.setText(text)
        self._action = action
        self.primary.setEnabled(enabled and action is not None)

    def set_action_enabled(self, enabled: bool) -> None:
        self.primary.setEnabled(enabled and self._action is not None)

    def add_secondary(self, text: str, action: Action, *,
                      role: ButtonRole = ButtonRole.SECONDARY) -> TouchButton:
        """A further choice beside the primary button (danger role for what cannot be undone)."""
        button = TouchButton(text, role)
        button.setMinimumHeight(theme.MONEY_MIN)
        button.setMaximumHeight(BUTTON_HEIGHT_MAX)
        button.clicked.connect(lambda: action())
        self._secondary.append(button)
        self._secondary_row.addWidget(button)
        return button

    def clear_secondary(self) -> None:
        for button in self._secondary:
            self._secondary_row.removeWidget(button)
            button.deleteLater()
        self._secondary = []

    @property
    def secondary(self) -> tuple[TouchButton, ...]:
        return tuple(self._secondary)

    def show_message(self, problem: str, what_to_do: str = "", calm: bool = False) -> None:
        """Show a refusal or error: what is wrong, then what to do about it; ``calm``, news
        that is not a problem (a card accepted, a kept report saved), not in the alarm's red.
        It stays until ``show_message`` is called again or ``clear_message``."""
        self._message = "\n".join(part for part in (problem, what_to_do) if part)
        text = f"<b>{escape(problem)}</b>"
        if what_to_do:
            text += f"<br>{escape(what_to_do)}"
        self.message.setText(text)
        if self.message.property("calm") != calm:
            self.message.setProperty("calm", calm)
            self.message.style().unpolish(self.message)
            self.message.style().polish(self.message)
        self.message.show()

    def clear_message(self) -> None:
        self._message = ""
        self.message.clear()
        self.message.hide()

    def message_text(self) -> str:
        """The message shown, as plain text: the problem, a new line, what to do ('' if none)."""
        return self._message

    def _run_action(self) -> None:
        if self._action is not None:
            self._action()
