"""``audit verify`` holds each round's opening to what the round before it left the table (who
banks, who is offered the bank, the rotation: ``round/rotation.py``). An outside review noted
that a rewritten opening, its chain recomputed and the tables made to agree, was replayed as
logged."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dealer_console.cli import main
from dealer_console.storage.eventlog import canonical_json
from tests.cli.audit_helpers import rechain, resync_tables, rewrite_event

CLI = [sys.executable, "-m", "dealer_console.cli"]


@pytest.fixture(scope="module")
def california(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A player-banked table: the bank passes seat to seat (a voided round keeps its banker)."""
    path = tmp_path_factory.mktemp("ca") / "table.db"
    out = subprocess.run([*CLI, "simulate", "--profile", "california-face-up", "--rounds", "12",
                          "--seed", "3", "--faults", "all", "--devices", "in-process", "--db",
                          str(path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return path


def _openings(path: Path) -> list[tuple[int, int, dict[str, Any]]]:
    conn = sqlite3.connect(path)
    try:
        return [(int(s), int(r), json.loads(p)) for s, r, p in conn.execute(
            "SELECT seq, round_id, payload FROM events WHERE kind = 'round_opened' "
            "ORDER BY seq")]
    finally:
        conn.close()


def _audited_after(path: Path, seq: int, change: Callable[[dict[str, Any]], object],
                   capsys: pytest.CaptureFixture[str]) -> str:
    """The audit's words after event ``seq`` is changed (chain recomputed, tables made to
    agree); it must fail."""
    rewrite_event(path, seq, change)
    resync_tables(path)
    status = main(["audit", "verify", "--db", str(path)])
    out = capsys.readouterr().out
    assert status == 1, out
    return out


def test_each_honest_opening_follows_the_round_before(
        california: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert len({o[2]["banker_seat"] for o in _openings(california)}) > 1  # the bank moved
    assert main(["audit", "verify", "--db", str(california)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("change", ["offer_seat", "consecutive"])
def test_an_opening_rewritten_is_reported(california: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str],
                                         change: str) -> None:
    path = tmp_path / "table.db"
    shutil.copy(california, path)
    seq, rid, p = _openings(path)[5]
    forged = int(p[change]) % 7 + 1  # another seat, another count

    out = _audited_after(path, seq, lambda q: q.update({change: forged}), capsys)
    assert (f"PROBLEM: round {rid} event {seq} (round_opened): {change} is {forged} in the "
            f"log, but round {rid - 1} left {p[change]}") in out


@pytest.mark.parametrize("key", ["prev_banker", "offer_start", "rotation_seat"])
def test_a_value_dropped_from_an_opening_is_reported(
        california: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str) -> None:
    """A second review: the check compared only the values both sides had, so a dropped one
    (the consecutive banks, the end of the bank's offer, the rotation) passed. A console
    always copies the whole block the round before left."""
    path = tmp_path / "table.db"
    shutil.copy(california, path)
    seq, rid, p = next(o for o in _openings(path)[1:] if o[2].get(key) is not None)
    out = _audited_after(path, seq, lambda q: q.pop(key), capsys)
    assert (f"round {rid} event {seq} (round_opened): {key} is nothing in the log, but round "
            f"{rid - 1} left {json.dumps(p[key])}") in out


def test_a_forged_opening_behind_a_gap_in_the_round_numbers_is_reported(
        california: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A second review numbered the forged round and every later one one higher, so no round
    before it was there to hold it to: rounds are numbered on without a gap."""
    path = tmp_path / "table.db"
    shutil.copy(california, path)
    seq, rid, p = _openings(path)[5]
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    conn.execute("UPDATE events SET round_id = round_id + 1 WHERE round_id >= ?", [rid])
    for s, text in conn.execute("SELECT seq, payload FROM events WHERE kind = 'round_opened' "
                                "AND round_id > ?", [rid]).fetchall():
        q = json.loads(text)
        q["round_id"] = int(q["round_id"]) + 1
        if s == seq:
            q["offer_seat"] = int(p["offer_seat"]) % 7 + 1
        conn.execute("UPDATE events SET payload = ? WHERE seq = ?", [canonical_json(q), s])
    rechain(conn, seq)
    conn.commit()
    conn.close()
    resync_tables(path)
    status = main(["audit", "verify", "--db", str(path)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert (f"round {rid + 1} event {seq} (round_opened): opened after round {rid - 1}: the "
            "rounds between are missing") in out
