from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot

from dealer_console.devices.events import ConnectionState
from dealer_console.profiles.loader import get_profile
from drivers.sim.hardware import SimulatedHardware
from ui.app import MainWindow, table_heading


def test_status_screen_shows_devices_connecting(qtbot: QtBot) -> None:
    heading = table_heading(get_profile("washington-face-up"), "var/x.db", 3, True)
    assert "washington-face-up" in heading and "3 rounds stored" in heading
    with SimulatedHardware() as hardware:
        window = MainWindow(heading, list(hardware.drivers))
        qtbot.addWidget(window)
        window.show()
        table = window.status.devices

        def all_connected() -> None:
            window.status.refresh()
            states = [table.item(row, 1).text() for row in range(table.rowCount())]
            assert states == [ConnectionState.CONNECTED.value] * 3

        qtbot.waitUntil(all_connected, timeout=10_000)
        assert [table.item(r, 0).text() for r in range(3)] == ["shuffler", "bet-sensors", "keypad"]
        assert table.verticalHeader().defaultSectionSize() >= 48


def test_gui_command_creates_the_database_and_quits(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "table.db"
    done = subprocess.run(
        [sys.executable, "-m", "dealer_console.cli", "gui", "--simulated", "--db", str(db),
         "--quit-after", "0.5"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert db.is_file()
    conn = sqlite3.connect(db)
    games = conn.execute("SELECT spot, paytable, wager_cents FROM jackpot_games").fetchall()
    seeds = conn.execute("SELECT level, seed_cents, meter_micro FROM jackpot_levels").fetchall()
    conn.close()
    assert games == [(1, "fupgpp-wa01", 100)]  # the profile's jackpot game, installed
    assert seeds == [("main", 250_000, 250_000 * 1_000_000)]


def test_gui_command_refuses_a_database_whose_jackpot_differs_from_the_profile(
        tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    args = [sys.executable, "-m", "dealer_console.cli", "gui", "--db", str(db),
            "--quit-after", "0.1"]
    assert subprocess.run(args, capture_output=True, text=True, timeout=60).returncode == 0
    conn = sqlite3.connect(db)
    conn.execute("UPDATE jackpot_games SET wager_cents = 500")
    conn.commit()
    conn.close()
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "spot 1 wager (cents): installed 500, profile 100" in done.stderr


def test_gui_command_refuses_an_unknown_profile(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_console.cli", "gui", "--profile", "nevada",
         "--db", str(tmp_path / "t.db"), "--quit-after", "0.1"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "unknown profile 'nevada'" in done.stderr
