"""The console application: opens the table's database, starts the devices, shows the status
screen. The dealer's round screens will hang off this window."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.jackpot.setup import install_from_profile
from dealer_console.profiles.model import Profile
from dealer_console.storage.connection import open_table_db
from ui.status import StatusScreen


def table_heading(profile: Profile, db_path: str, rounds: int, simulated: bool) -> str:
    hardware = "simulated hardware" if simulated else "no devices started"
    return (
        f"Dealer Console - {profile.title} ({profile.name})\n"
        f"Database {db_path}: {rounds} rounds stored. {hardware.capitalize()}."
    )


class MainWindow(QMainWindow):
    def __init__(self, heading: str, drivers: list[DeviceDriver]) -> None:
        super().__init__()
        self.setWindowTitle("Dealer Console")
        self.status = StatusScreen(heading, drivers)
        self.setCentralWidget(self.status)
        self.resize(1024, 600)


def run_app(profile: Profile, simulated: bool, db_path: str,
            quit_after: float | None = None) -> int:
    Path(db_path).parent.mkdir(parents=True, exist_ok=True)
    # The console is the table: it creates the database on first start and holds it (and
    # its one-writer lock) until the window closes, so a second console or simulate on the
    # same file is refused at once (docs/storage.md).
    db = open_table_db(db_path, create=True)
    hardware = None
    try:
        # the profile's jackpot games, installed on first use and checked on every start
        install_from_profile(db, profile.jackpots, actor="console")
        rounds = int(db.execute("SELECT count(*) FROM rounds").fetchone()[0])
        drivers: list[DeviceDriver] = []
        if simulated:
            from drivers.sim.hardware import SimulatedHardware

            hardware = SimulatedHardware().start()
            drivers = list(hardware.drivers)
        app = QApplication.instance() or QApplication(sys.argv[:1])
        window = MainWindow(table_heading(profile, db_path, rounds, simulated), drivers)
        window.show()
        if quit_after is not None:
            QTimer.singleShot(int(quit_after * 1000), window.close)
        return int(app.exec())
    finally:
        if hardware is not None:
            hardware.close()
        db.close()
