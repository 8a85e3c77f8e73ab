"""``recall`` and ``audit verify`` as a user runs them: a real subprocess on a real database
file, including a database an auditor must reject."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.round.helpers import make_table, play_round

CLI = [sys.executable, "-m", "dealer_console.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def played(tmp_path: Path) -> Path:
    table = make_table(tmp_path, "california-face-up")
    for seed in range(12):
        play_round(table, seed=seed, number=3 + seed)
    table.db.close()
    return tmp_path / "table.db"


def test_recall_lists_the_last_rounds_with_hands_settings_and_payouts(played: Path) -> None:
    out = run("recall", "--db", str(played), "--last", "10", "--json")
    assert out.returncode == 0, out.stderr
    rounds = json.loads(out.stdout)
    assert [r["round"] for r in rounds] == list(range(4, 14))
    done = [r for r in rounds if r["status"] == "complete"]
    assert len(done) == 9 and rounds[-1]["status"] == "open"
    for r in done:
        assert len([h for h in r["hands"] if not h["void"]]) == 7
        assert all(h["low"] and h["high"] for h in r["hands"] if h["set_how"])
        assert r["lines"], r
        for line in r["lines"]:
            assert line["staked"] == line["returned"] + line["banker_delta"] + line["house_delta"]
    text = run("recall", "--db", str(played), "--last", "2")
    assert text.returncode == 0
    assert "Round 12" in text.stdout and "COMPLETE" in text.stdout
    assert "->" in text.stdout and "staked $" in text.stdout


def test_recall_refuses_bad_input_cleanly(tmp_path: Path, played: Path) -> None:
    out = run("recall", "--db", str(tmp_path / "missing.db"))
    assert out.returncode == 2 and "no such table database" in out.stderr
    out = run("recall", "--db", str(played), "--last", "0")
    assert out.returncode == 2 and "argument --last: '0' is not a whole number from 1" in out.stderr


def test_audit_passes_a_clean_database(played: Path) -> None:
    out = run("audit", "verify", "--db", str(played))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("OK: ")


def _tamper(path: Path, *sql: str) -> None:
    conn = sqlite3.connect(path)
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(("sql", "expected"), [
    (("DROP TRIGGER events_no_update",
      "UPDATE events SET payload = replace(payload, '2000', '2500') WHERE kind = 'wager_placed'"
      " AND seq = (SELECT MIN(seq) FROM events WHERE kind = 'wager_placed')"),
     "hash does not match"),
    (("DROP TRIGGER settlement_lines_no_update",
      "UPDATE settlement_lines SET returned_cents = returned_cents + 100 WHERE line_no = 1"
      " AND round_id = 3"),
     "money not conserved"),
    (("DROP TRIGGER settlement_lines_no_delete",
      "DELETE FROM settlement_lines WHERE round_id = 5 AND line_no = 2"),
     "differ from the event log"),
    (("UPDATE rounds SET status = 'open' WHERE round_id = 4",),
     "round 4 is neither complete nor voided"),
    (("DELETE FROM wagers WHERE round_id = 6 AND seat = 2",),
     "wagers table differs"),
    # the state tables recall reads, changed with the log left intact
    (("UPDATE hands SET cards = 'As Ks Qs Js Ts 9s 8s' WHERE round_id = 2 AND seat = 3",),
     "hands (round_id=2, deal_no=0, seat=3): cards is "),
    (("UPDATE hands SET low = high WHERE round_id = 7 AND seat = 4",),
     "hands (round_id=7, deal_no=0, seat=4): low is "),
    (("UPDATE fees SET amount_cents = amount_cents + 100 WHERE round_id = 3",),
     "fees (round_id=3, seat="),
    (("DELETE FROM banker_rotation WHERE round_id = 8",),
     "banker_rotation (round_id=8): in the event log, but not stored"),
    (("INSERT INTO misdeals VALUES (9, 1, 'not_four_left', '5 cards left', 'device', 1, 53)",),
     "misdeals (round_id=9, deal_no=1): stored, but not in the event log"),
    (("UPDATE rounds SET action_seat = 1 + action_seat % 7 WHERE round_id = 10",),
     "rounds (round_id=10): action_seat is "),
])
def test_audit_reports_each_problem_and_exits_1(played: Path, sql: tuple[str, ...],
                                                 expected: str) -> None:
    _tamper(played, *sql)
    out = run("audit", "verify", "--db", str(played))
    assert out.returncode == 1, out.stdout
    assert expected in out.stdout, out.stdout
    assert "FAILED" in out.stdout


def test_audit_of_a_missing_database_is_exit_2(tmp_path: Path) -> None:
    out = run("audit", "verify", "--db", str(tmp_path / "nope.db"))
    assert out.returncode == 2 and "no such table database" in out.stderr


def test_audit_includes_the_jackpot_meters(tmp_path: Path) -> None:
    from dealer_console.jackpot import games
    from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
    from dealer_console.jackpot_values.paytable import load

    table = make_table(tmp_path, "washington-face-up")
    play_round(table)
    games.apply_migrations(table.db)
    paytable = load("fupgpp-wa03")
    games.install_game(table.db, GameConfig(
        spot=1, paytable=paytable, mode=JackpotMode.PROGRESSIVE,
        levels=level_configs(paytable, {"main": {"seed": "$1,000", "contribution": "15%",
                                                 "reserve": "2%"}}),
        executive_threshold_cents=50_000,
    ), actor="test")
    table.db.close()
    path = tmp_path / "table.db"
    assert run("audit", "verify", "--db", str(path)).returncode == 0
    _tamper(path, "UPDATE jackpot_levels SET meter_micro = meter_micro + 1")
    out = run("audit", "verify", "--db", str(path))
    assert out.returncode == 1 and "jackpot game 1" in out.stdout, out.stdout


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.suffix == ".db"}


def test_recall_and_audit_change_nothing_in_the_file_they_read(played: Path) -> None:
    """An auditor's copy stays byte for byte what the table wrote, even on a read-only file."""
    before = _files(played.parent)
    played.chmod(0o444)
    try:
        for args in (("recall", "--last", "3"), ("audit", "verify"), ("jackpot", "meters"),
                     ("jackpot", "hits"), ("jackpot", "audit")):
            out = run(*args, "--db", str(played))
            assert out.returncode == 0, (args, out.stdout + out.stderr)
    finally:
        played.chmod(0o644)
    assert _files(played.parent) == before


def test_a_database_older_than_the_console_is_refused_not_upgraded(played: Path) -> None:
    conn = sqlite3.connect(played)
    last = conn.execute("SELECT name FROM _sqlite_migrations WHERE migration_set ="
                        " 'dealer_console' ORDER BY rowid DESC LIMIT 1").fetchone()[0]
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [last])
    conn.commit()
    conn.close()
    before = played.read_bytes()
    for args in (("recall",), ("audit", "verify"), ("jackpot", "meters")):
        out = run(*args, "--db", str(played))
        assert out.returncode == 2, out.stdout
        assert "older than this console's" in out.stderr and last in out.stderr
    assert played.read_bytes() == before
