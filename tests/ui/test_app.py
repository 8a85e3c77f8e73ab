from __future__ import annotations

import subprocess
import sys

from pytestqt.qtbot import QtBot

from ui.app import MainWindow


def test_main_window_says_what_it_runs_on(qtbot: QtBot) -> None:
    window = MainWindow(simulated=True, db_path="var/x.db")
    qtbot.addWidget(window)
    window.show()
    text = window.centralWidget().text()  # type: ignore[attr-defined]
    assert "simulated hardware" in text and "var/x.db" in text


def test_gui_command_starts_and_quits(tmp_path: object) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_console.cli", "gui", "--simulated", "--quit-after", "0.2"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
