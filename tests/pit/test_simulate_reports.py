"""A simulated floor shows on the pit: ``simulate`` with a table's login on the link reports
as a console does (its own login, its rounds as they go), so two simulated tables are two
tiles; without a login it reports nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from dealer_console.table_name import TABLE_ID_VARIABLE
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.settings import DSN_VARIABLE
from tests.link.helpers import table_dsn
from tests.pit.helpers import init_pit, pit_dsn

ROOT = Path(__file__).resolve().parents[2]


def _simulate(db: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "dealer_console.cli", "simulate", "--profile",
         "washington-face-up", "--devices", "in-process", "--rounds", "3", "--seed", "5",
         "--hold", "betting=1", "--db", str(db)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_simulated_tables_report_to_the_pit(tmp_path: Path, link_dsn: str) -> None:
    init_pit(link_dsn).close()
    base = {k: v for k, v in os.environ.items() if k not in (DSN_VARIABLE, TABLE_ID_VARIABLE)}
    runs = {t: _simulate(tmp_path / f"{t}.db", {**base, DSN_VARIABLE: table_dsn(link_dsn, t),
                                                TABLE_ID_VARIABLE: t})
            for t in ("t1", "t2")}
    alone = _simulate(tmp_path / "alone.db", base)  # no login on the link: no report
    seen: dict[str, set[int]] = {"t1": set(), "t2": set()}
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and any(p.poll() is None for p in runs.values()):
            for row in server.read_reports(pit):
                if row.report.round_id is not None:
                    seen[row.report.table_id].add(row.report.round_id)
            time.sleep(0.1)
        final = {r.report.table_id: r.report for r in server.read_reports(pit)}
    for table, run in runs.items():
        _out, err = run.communicate(timeout=60)
        assert run.returncode == 0, err[-2000:]
        assert len(seen[table]) >= 2, (table, seen)  # its rounds, as they went
    assert alone.wait(timeout=60) == 0
    assert sorted(final) == ["t1", "t2"]
    assert all(r.table_open and r.self_test == "passed" for r in final.values())
    assert all(any("round" in e for e in r.events) for r in final.values())
