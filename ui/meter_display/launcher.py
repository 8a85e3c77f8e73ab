"""The one meter display of a table: opened by the console at start, opened again from the
supervisor's area, closed with the console. Found among the application's windows by its
bridge, so nothing else has to keep it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from dealer_console.controller import TableController
from ui.bridge import ControllerBridge
from ui.meter_display.window import MeterDisplayWindow


def meter_display_of(bridge: ControllerBridge) -> MeterDisplayWindow | None:
    """The table's meter display if it is open."""
    for widget in QApplication.topLevelWidgets():
        if (isinstance(widget, MeterDisplayWindow) and widget.bridge is bridge
                and widget.isVisible()):
            return widget
    return None


def show_meter_display(controller: TableController,
                       bridge: ControllerBridge) -> MeterDisplayWindow:
    """Open the table's meter display (or bring the open one forward), on the monitor when
    one is attached."""
    window = meter_display_of(bridge)
    if window is None:
        window = MeterDisplayWindow(controller, bridge)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    window.place()
    window.raise_()
    return window


def close_meter_display(bridge: ControllerBridge) -> None:
    window = meter_display_of(bridge)
    if window is not None:
        window.close()
