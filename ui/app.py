"""The console application: for now one window that says which screens are still to come."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow


class MainWindow(QMainWindow):
    def __init__(self, simulated: bool, db_path: str) -> None:
        super().__init__()
        self.setWindowTitle("Dealer Console")
        hardware = "simulated hardware" if simulated else "table hardware"
        label = QLabel(
            f"Dealer Console\n\n{hardware}, database {db_path}\n\n"
            "The dealer, supervisor and technician screens are not built yet.\n"
            "Use the command line meanwhile: dealer-console --help"
        )
        label.setMargin(48)
        self.setCentralWidget(label)
        self.resize(1024, 600)


def run_app(simulated: bool, db_path: str, quit_after: float | None = None) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow(simulated, db_path)
    window.show()
    if quit_after is not None:
        QTimer.singleShot(int(quit_after * 1000), window.close)
    return int(app.exec())
