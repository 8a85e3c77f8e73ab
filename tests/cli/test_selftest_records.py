"""The power-on self-test's ``records`` item holds the jackpot's wagers, hits and back-outs to
the hash-chained log, not only to one another: a second outside review raised a meter with
rows that agreed with each other, and the self-test passed (the table opened and paid
percentages of the raised meter until an audit)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.profiles.loader import get_profile
from dealer_console.selftest.database import check_database
from dealer_console.selftest.report import Report
from tests.cli.audit_helpers import guards_off
from tests.cli.test_audit_jackpot import _self_test_records, db, simulated  # noqa: F401


def _raise_by_a_made_up_wager(path: Path, dollars: int) -> int:
    """A jackpot wager made up on an empty seat of the last round, its contribution at the
    game's rates, the meter raised to match. Returns the raise, in cents."""
    conn = sqlite3.connect(path)
    ppm, rppm, meter, reserve = conn.execute(
        "SELECT contribution_ppm, reserve_ppm, meter_micro, reserve_micro FROM jackpot_levels "
        "WHERE spot = 1 AND level = 'main'").fetchone()
    wager = dollars * 100 * 1_000_000 // ppm + 1
    rid, at = conn.execute("SELECT MAX(round_id), MAX(recorded_at) FROM jackpot_wagers"
                           ).fetchone()
    seat = next(s for s in range(1, 8) if conn.execute(
        "SELECT 1 FROM jackpot_wagers WHERE round_id = ? AND spot = 1 AND seat = ?",
        [rid, s]).fetchone() is None)
    dm, dr = wager * ppm, wager * rppm
    conn.execute("INSERT INTO jackpot_wagers VALUES (?, 1, ?, ?, ?)", [rid, seat, wager, at])
    conn.execute(
        "INSERT INTO jackpot_ledger (recorded_at, spot, level, kind, round_id, seat, "
        "meter_delta_micro, reserve_delta_micro, meter_after_micro, reserve_after_micro) "
        "VALUES (?, 1, 'main', 'contribution', ?, ?, ?, ?, ?, ?)",
        [at, rid, seat, dm, dr, meter + dm, reserve + dr])
    conn.execute("UPDATE jackpot_levels SET meter_micro = ?, reserve_micro = ? WHERE spot = 1 "
                 "AND level = 'main'", [meter + dm, reserve + dr])
    conn.commit()
    conn.close()
    return dm // 1_000_000


def _a_back_out_nobody_made(path: Path) -> int:
    """The adjustment and its ledger line inserted for the largest meter hit, the meter raised
    to match. Returns what it added to the meter, in cents."""
    conn = sqlite3.connect(path)
    hit, rid, seat, spot, level = conn.execute(
        "SELECT hit_id, round_id, seat, spot, level FROM jackpot_hits WHERE from_meter_cents > 0"
        " ORDER BY from_meter_cents DESC").fetchone()
    dm, dr = conn.execute("SELECT -SUM(meter_delta_micro), -SUM(reserve_delta_micro) FROM "
                          "jackpot_ledger WHERE hit_id = ?", [hit]).fetchone()
    meter, reserve = conn.execute("SELECT meter_micro, reserve_micro FROM jackpot_levels "
                                  "WHERE spot = ? AND level = ?", [spot, level]).fetchone()
    at = conn.execute("SELECT MAX(recorded_at) FROM events").fetchone()[0]
    conn.execute("INSERT INTO jackpot_adjustments VALUES (1, ?, 'dealer misread', 'SIM-X1', "
                 "'Sim Executive', ?)", [hit, at])
    conn.execute(
        "INSERT INTO jackpot_ledger (recorded_at, spot, level, kind, round_id, seat, hit_id, "
        "adjustment_id, meter_delta_micro, reserve_delta_micro, meter_after_micro, "
        "reserve_after_micro) VALUES (?, ?, ?, 'adjustment', ?, ?, ?, 1, ?, ?, ?, ?)",
        [at, spot, level, rid, seat, hit, dm, dr, meter + dm, reserve + dr])
    conn.execute("UPDATE jackpot_levels SET meter_micro = ?, reserve_micro = ? WHERE spot = ? "
                 "AND level = ?", [meter + dm, reserve + dr, spot, level])
    conn.commit()
    conn.close()
    return int(dm) // 1_000_000


def test_a_meter_raised_by_a_made_up_wager_fails_the_self_test(db: Path) -> None:  # noqa: F811
    assert _self_test_records(db)[0]
    assert _raise_by_a_made_up_wager(db, 50_000) >= 5_000_000  # $50,000 on the meter
    ok, detail = _self_test_records(db)
    assert not ok and detail.startswith("jackpot wager (round, spot, seat, cents ") and (
        "): stored, but not in the event log") in detail, detail


def test_a_meter_raised_by_a_back_out_nobody_made_fails_the_self_test(
        db: Path) -> None:  # noqa: F811
    assert _self_test_records(db)[0]
    assert _a_back_out_nobody_made(db) > 0
    ok, detail = _self_test_records(db)
    assert not ok and detail.startswith("jackpot back-out (adjustment, award 1, ") and (
        "): stored, but not in the event log") in detail, detail


def _a_wager_only_sql_reads(path: Path) -> int:
    """The made-up wager above, also put in its round's START GAME event as a second "wagers"
    key before the real one: SQLite's JSON functions read the first, Python (and so the hash)
    the last, so the event's hash still matches. Returns the event's number."""
    _raise_by_a_made_up_wager(path, 50_000)
    conn = sqlite3.connect(path)
    rid, seat, cents = conn.execute("SELECT round_id, seat, wager_cents FROM jackpot_wagers "
                                    "ORDER BY rowid DESC LIMIT 1").fetchone()
    seq, payload = conn.execute("SELECT seq, payload FROM events WHERE kind = 'game_started' "
                                "AND round_id = ?", [rid]).fetchone()
    real = json.loads(payload)["wagers"]
    extra = json.dumps([*real, [seat, "jackpot", cents]], separators=(",", ":"))
    twice = '{"wagers":' + extra + "," + payload[1:]
    assert json.loads(twice) == json.loads(payload)  # the same value to Python
    with guards_off(conn, "events_no_update"):
        conn.execute("UPDATE events SET payload = ? WHERE seq = ?", [twice, seq])
    conn.commit()
    conn.close()
    return int(seq)


def test_a_wager_only_sql_reads_is_named_by_the_chain(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    """An outside review raised the meter $50,000 with a wager the records item read in the
    log and the hash chain did not see changed: the self-test passed. The chain now holds an
    event's text, not only its value, to what the console writes."""
    seq = _a_wager_only_sql_reads(db)
    assert _self_test_records(db)[0]  # the rows and the log's text agree: SQL reads the same
    report = Report()
    check_database(report, db, get_profile("washington-face-up"))
    chain = next(c for c in report.checks if c.item == "hash chain")
    assert not chain.ok and chain.detail.startswith(
        f"event {seq} (game_started): its payload is not as the console writes it (a key "
        "written twice: 'wagers')"), chain.detail
    assert main(["audit", "verify", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert (f"PROBLEM: event {seq} (game_started): its payload is not as the console writes "
            "it (a key written twice: 'wagers')") in out, out
