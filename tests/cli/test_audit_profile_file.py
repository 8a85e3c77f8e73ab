"""A table played on a casino's own profile file is audited with that file (``--profile``);
without it, the audit says so once and what to do, instead of once a round (an outside review
got 316 problem lines, each "unknown profile", none saying what to do)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.profiles.loader import PROFILE_DIR
from tests.cli.audit_helpers import guards_off

CLI = [sys.executable, "-m", "dealer_console.cli"]


def test_rounds_on_a_profile_file_are_named_once_and_checked_with_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (PROFILE_DIR / "washington-face-up.toml").read_text(encoding="utf-8")
    own = tmp_path / "casino-wa.toml"
    own.write_text(text.replace('name = "washington-face-up"', 'name = "casino-wa"', 1),
                   encoding="utf-8")
    db = tmp_path / "table.db"
    played = subprocess.run([*CLI, "simulate", "--profile", str(own), "--rounds", "3", "--seed",
                             "2", "--devices", "in-process", "--db", str(db)],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    assert main(["audit", "verify", "--db", str(db)]) == 1
    problems = [x for x in capsys.readouterr().out.splitlines() if x.startswith("PROBLEM")]
    assert len(problems) == 1, problems
    assert problems[0].startswith("PROBLEM: rounds 1 to 4 (4): played on profile 'casino-wa', "
                                  "which this console does not have (") and \
        problems[0].endswith("give the profile's file with --profile FILE; those rounds were "
                             "not checked"), problems
    assert main(["audit", "verify", "--db", str(db), "--profile", str(own)]) == 0
    assert capsys.readouterr().out.startswith("OK")


def test_a_round_s_profile_renamed_in_its_table_is_still_rebuilt_and_found(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rebuild is left out only for profiles the log itself names: a name changed in the
    rounds table alone is the rebuild's to find, and it still finds it."""
    db = tmp_path / "table.db"
    played = subprocess.run([*CLI, "simulate", "--profile", "washington-face-up", "--rounds",
                             "3", "--seed", "2", "--devices", "in-process", "--db", str(db)],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    conn = sqlite3.connect(db)
    with guards_off(conn):
        conn.execute("UPDATE rounds SET profile = 'bogus' WHERE round_id = 2")
    conn.commit()
    conn.close()
    assert main(["audit", "verify", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM: round 2: played on profile 'bogus', which this console does not have" \
        in out, out
    assert "rounds (round_id=2): profile is 'bogus' stored, 'washington-face-up' by the " \
        "event log" in out, out
