from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path


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
