"""A table's log settled by a console before stop 39 stays honest to the audit: that console
gave the dealer the whole of a winning tip bet the designated player's bank could not match
(now the unmatched part goes back to the player). The plans it wrote carry no ``tips`` key;
the audit judges them by that reading and notes each tip it settled so, never a problem."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.storage.eventlog import canonical_json
from tests.cli.audit_helpers import guards_off, rechain, resync_tables

CLI = [sys.executable, "-m", "dealer_console.cli"]


def _as_before_39(lines: list[dict[str, object]]) -> list[dict[str, object]]:
    out = []
    for line in lines:
        returned = int(str(line["returned"]))
        if str(line["kind"]).split("#")[0] == "tips" and line["outcome"] == "win" and returned:
            line = {**line, "returned": 0,
                    "house_delta": int(str(line["house_delta"])) + returned}
        out.append(line)
    return out


def _settled_before_39(source: Path, copy: Path, plans: list[tuple[int, str]]) -> Path:
    """A copy of ``source`` with ``plans`` (``(seq, payload)``) as a console before stop 39
    wrote them, the chain recomputed from the first and the tables made to agree."""
    copy.write_bytes(source.read_bytes())
    conn = sqlite3.connect(copy)
    with guards_off(conn, "events_no_update"):
        for seq, text in plans:
            payload = json.loads(text)
            payload.pop("tips", None)
            payload["lines"] = _as_before_39(payload["lines"])
            conn.execute("UPDATE events SET payload = ? WHERE seq = ?",
                         [canonical_json(payload), seq])
        rechain(conn, plans[0][0])
    conn.commit()
    conn.close()
    resync_tables(copy)
    return copy


@pytest.fixture(scope="module")
def oxford(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("oxford") / "table.db"
    out = subprocess.run([*CLI, "simulate", "--profile", "oxford-downs-face-up", "--rounds",
                          "40", "--seed", "3", "--faults", "all", "--devices", "in-process",
                          "--db", str(path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return path


def test_a_plan_of_an_earlier_console_is_judged_by_its_reading_and_noted(
        oxford: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(oxford)
    plans = conn.execute("SELECT seq, payload FROM events WHERE kind IN "
                         "('settlement_planned', 'seat_settled') ORDER BY seq").fetchall()
    conn.close()
    unmatched = {(json.loads(p)["lines"][i]["seat"]) for _s, p in plans
                 for i, x in enumerate(json.loads(p)["lines"])
                 if x["kind"] == "tips" and x["outcome"] == "win" and x["returned"]}
    assert unmatched, "the fixture needs a winning tip bet past the bank"
    assert all(json.loads(p).get("tips") == "returned" for _s, p in plans
               if "seats" in json.loads(p))  # this console writes its reading
    # the same log as a console before stop 39 wrote it
    old = _settled_before_39(oxford, tmp_path / "old.db", plans)
    status = main(["audit", "verify", "--db", str(old)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "winning tip bet gave the toke box" in out and "before stop 39" in out
    # this console's own log: no such note
    status = main(["audit", "verify", "--db", str(oxford)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "before stop 39" not in out


def test_one_round_rewritten_to_the_earlier_reading_is_a_problem(
        oxford: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An outside review dropped the key from one round this console played, and moved its
    winning tips' returns to the toke box (chain recomputed, tables made to agree): it passed
    as the earlier console's reading. That reading holds only for the rounds before the first
    plan that records it."""
    conn = sqlite3.connect(oxford)
    rows = conn.execute("SELECT seq, round_id, payload FROM events WHERE kind IN "
                        "('settlement_planned', 'seat_settled') ORDER BY seq").fetchall()
    conn.close()
    first_plan = min(rid for _s, rid, p in rows if "seats" in json.loads(p))
    target = max(rid for _s, rid, p in rows if any(
        x["kind"] == "tips" and x["outcome"] == "win" and x["returned"]
        for x in json.loads(p)["lines"]))
    assert target > first_plan, "the fixture needs a winning tip after the first plan"
    mine = [(s, p) for s, rid, p in rows if rid == target]
    forged = _settled_before_39(oxford, tmp_path / "forged.db", mine)
    status = main(["audit", "verify", "--db", str(forged)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert (f"round {target} event {mine[0][0]} (settlement_planned): the plan does not say "
            f"how its tip bets were settled, but round {first_plan}'s did") in out
