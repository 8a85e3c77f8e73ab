"""Where the meter display goes: full screen on the table's monitor when one is attached, in an
ordinary window on the console's own screen otherwise.

``monitor_for`` is the rule, a pure function of the screens' names; ``place`` applies it to a
window with the screens Qt reports, and is called again whenever a screen comes or goes."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

WINDOWED_SIZE = (1280, 800)
"""The window's size when there is no second screen (the smallest screen the console fits)."""


def monitor_for(screens: Sequence[str], console: str | None) -> str | None:
    """The screen the meter display fills: the first one that is not the console's own
    (the dealer's touchscreen), or None when the console's screen is the only one."""
    for name in screens:
        if name != console:
            return name
    return None


def place(window: QWidget, console: QScreen | None = None) -> QScreen | None:
    """Show ``window`` full screen on the monitor, or as an ordinary window on the console's
    screen when there is none; returns the monitor's screen, or None. The console's screen is
    that of the window owning ``window`` (the dealer's), else the primary screen."""
    owner = window.parentWidget()
    console = console or (owner.screen() if owner is not None
                          else QGuiApplication.primaryScreen())
    screens = QGuiApplication.screens()
    name = monitor_for([s.name() for s in screens], console.name() if console else None)
    monitor = next((s for s in screens if s.name() == name), None)
    if monitor is not None:
        window.setScreen(monitor)
        window.setGeometry(monitor.geometry())
        window.showFullScreen()
        return monitor
    if window.isFullScreen():
        window.showNormal()
    if console is not None:
        window.setScreen(console)
    window.resize(*WINDOWED_SIZE)
    window.show()
    return None
