"""The small pieces every screen uses, once (issue 24: seven label helpers, four ``act``
wrappers): a label in the theme's role, its role changed, and a command run so that a refusal
is told in plain words instead of raised into Qt."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel

from dealer_console.errors import ConsoleError


def label(text: str = "", role: str = "", wrap: bool = True) -> QLabel:
    """A label styled by the theme's ``role`` (heading, hint, refusal, group, ...), its words
    wrapped unless ``wrap`` is False."""
    shown = QLabel(text)
    shown.setWordWrap(wrap)
    if role:
        shown.setProperty("role", role)
    return shown


def restyle(shown: QLabel, role: str, style: str = "") -> None:
    """Give ``shown`` another role (the stylesheet reads it: polished again) and style."""
    shown.setProperty("role", role)
    shown.setStyleSheet(style)
    shown.style().unpolish(shown)
    shown.style().polish(shown)


def act(command: Callable[[], object], refused: Callable[[str], object],
        done: Callable[[], object] | None = None,
        check: Callable[[], bool] = lambda: True) -> bool:
    """Run ``command`` for a touch: ``check`` first (a staff session still valid), a refusal
    (``ConsoleError``) given to ``refused`` in its words and False, else ``done`` and True."""
    if not check():
        return False
    try:
        command()
    except ConsoleError as exc:
        refused(str(exc))
        return False
    if done is not None:
        done()
    return True
