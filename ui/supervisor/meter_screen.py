"""The supervisor's way back to the meter display: it opens the table monitor's window again
when someone closed it (or it was started with ``--no-meter-display``) and says where it is."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from dealer_console.controller import TableController, TableSnapshot
from ui import theme
from ui.bridge import ControllerBridge
from ui.meter_display.launcher import meter_display_of, show_meter_display
from ui.supervisor.session import Session
from ui.widgets.touch import ButtonRole, TouchButton


class MeterDisplayScreen(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.ctl = controller
        self.bridge = bridge
        about = QLabel("The meter display shows the players each jackpot game's meters, its "
                       "paytable, a hand waiting for confirmation and the last win, full "
                       "screen on the table's monitor when one is plugged in.")
        about.setWordWrap(True)
        self.status = QLabel()
        self.status.setProperty("role", "heading")
        self.status.setWordWrap(True)
        self.open = TouchButton("Open the meter display", ButtonRole.PRIMARY, money=True)
        self.open.clicked.connect(self.show_display)
        layout = QVBoxLayout(self)
        layout.setSpacing(theme.SPACING * 2)
        layout.addWidget(about)
        layout.addWidget(self.status)
        layout.addWidget(self.open)
        layout.addStretch(1)
        self.show_view(controller.snapshot())

    def show_display(self) -> None:
        show_meter_display(self.ctl, self.bridge, self)
        self.show_view(self.ctl.snapshot())

    def show_view(self, _view: TableSnapshot) -> None:
        window = meter_display_of(self.bridge)
        if window is None:
            self.status.setText("The meter display is closed.")
        elif window.isFullScreen():
            self.status.setText(f"Open, full screen on the monitor {window.screen().name()}.")
        else:
            self.status.setText("Open in a window: no second screen is plugged in.")
        self.open.setText("Bring the meter display forward" if window else
                          "Open the meter display")
