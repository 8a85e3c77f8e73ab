"""The console's start screen: which table, which database, and how each device is doing.

It reads the drivers' diagnostics snapshots on a timer (they are thread-safe frozen values), so
no device thread ever touches a widget.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_console.devices.diagnostics import DeviceDriver

COLUMNS = ("device", "state", "firmware", "frames good", "bad", "resent", "last error")
ROW_HEIGHT = 56  # touch target: at least 48 device-independent pixels


class StatusScreen(QWidget):
    def __init__(self, heading: str, drivers: Sequence[DeviceDriver], refresh_ms: int = 500
                 ) -> None:
        super().__init__()
        self.drivers = list(drivers)
        self.heading = QLabel(heading)
        self.heading.setWordWrap(True)
        self.devices = QTableWidget(len(self.drivers), len(COLUMNS))
        self.devices.setHorizontalHeaderLabels(COLUMNS)
        self.devices.verticalHeader().setVisible(False)
        self.devices.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        self.devices.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.note = QLabel(
            "The dealer, supervisor and technician screens are not built yet; "
            "the command line does the table's work meanwhile (dealer-console --help)."
        )
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.devices, 1)
        layout.addWidget(self.note)
        self.refresh()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(refresh_ms)

    def refresh(self) -> None:
        for row, driver in enumerate(self.drivers):
            snap = driver.diagnostics()
            cells = (snap.device, snap.state.value, snap.firmware or "-", str(snap.frames_good),
                     str(snap.frames_bad), str(snap.frames_retransmitted), snap.last_error or "-")
            for column, text in enumerate(cells):
                item = self.devices.item(row, column)
                if item is None:
                    self.devices.setItem(row, column, QTableWidgetItem(text))
                elif item.text() != text:
                    item.setText(text)
