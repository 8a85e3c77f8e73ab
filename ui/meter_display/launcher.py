"""The one meter display of a table: opened by the console at start, opened again from the
supervisor's area, closed with the console. Found among the application's windows by its
bridge, so nothing else has to keep it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from dealer_console.controller import TableController
from ui.bridge import ControllerBridge
from ui.meter_display.window import MeterDisplayWindow


def _windows_of(bridge: ControllerBridge) -> list[MeterDisplayWindow]:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, MeterDisplayWindow) and w.bridge is bridge]


def meter_display_of(bridge: ControllerBridge) -> MeterDisplayWindow | None:
    """The table's meter display if it is open."""
    return next((w for w in _windows_of(bridge) if w.isVisible()), None)


def show_meter_display(controller: TableController, bridge: ControllerBridge,
                       console: QWidget) -> MeterDisplayWindow:
    """Open the table's meter display (or bring the open one forward), on the monitor when
    one is attached. It is a window of its own owned by the console's window ``console``
    (Qt keeps it while it is open and frees it when it is closed)."""
    window = meter_display_of(bridge)
    if window is None:
        window = MeterDisplayWindow(controller, bridge, parent=console.window())
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    window.place()
    window.raise_()
    return window


def close_meter_display(bridge: ControllerBridge) -> None:
    """Close the table's meter display, and stop the reader of any hidden with the console's
    window (its thread must end before the application does)."""
    for window in _windows_of(bridge):
        window.stop()
        window.close()
