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
from pathlib import Path
from typing import Any

import pytest

from dealer_console.cli import main
from tests.cli.audit_helpers import resync_tables, rewrite_event

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

    rewrite_event(path, seq, lambda q: q.update({change: forged}))
    resync_tables(path)
    status = main(["audit", "verify", "--db", str(path)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert (f"PROBLEM: round {rid} event {seq} (round_opened): {change} is {forged} in the "
            f"log, but round {rid - 1} left {p[change]}") in out
