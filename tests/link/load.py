"""Load on the link: tables as separate processes, each with its own login, sending a round's
jackpot wagers (three seats) per call as the sender does and asking for a hit every few
rounds as the asker does. Measures each ask from the call to the server's commit (the call
returns once the server committed) and the contributions accepted per second; then checks
every ask was paid once and ``link audit`` holds.

The suite runs a short form (``test_load.py``, no timing asserted); the benchmark
(``benchmarks/link_soak.py``) the full one with 30 tables.

Run as a worker: ``python -m tests.link.load DSN TABLE SECONDS HIT_EVERY OUT``."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.link.health import now as taken_now
from dealer_link import server
from dealer_link.audit import verify
from tests.link.helpers import LINK, init_link, table_dsn

WILD_SF_LINE = 3
"""FUPGPP-WA01's line 3: 25% of the main meter (a hit that moves the shared meter)."""


@dataclass
class LoadResult:
    tables: int
    seconds: float = 0.0
    contributions: int = 0
    asks_ms: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    hits_on_server: int = 0
    link_problems: list[str] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.contributions / self.seconds if self.seconds else 0.0

    def quantiles(self) -> tuple[float, float, float]:
        """(median, p95, max) of ask-to-commit, milliseconds."""
        ms = sorted(self.asks_ms)
        if not ms:
            return 0.0, 0.0, 0.0
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        return statistics.median(ms), p95, ms[-1]


def worker(dsn: str, table: str, seconds: float, hit_every: int, out: Path) -> None:
    conn = server.connect(dsn, who=table)
    asks: list[float] = []
    refused: list[str] = []
    sent = 0
    stop = time.monotonic() + seconds
    round_id = 0
    while time.monotonic() < stop:
        round_id += 1
        sent += server.contribute(conn, LINK, table, [
            Owed(round_id, 1, 1, seat, 100, taken_now()) for seat in (1, 4, 7)])
        if round_id % hit_every == 0:
            t0 = time.perf_counter()
            try:
                server.confirm_hit(conn, LINK, table, round_id=round_id, spot=1, seat=4,
                                   line_no=WILD_SF_LINE, employee_id="S1")
            except server.LinkRefused as exc:
                refused.append(str(exc))
                continue
            asks.append((time.perf_counter() - t0) * 1000)
    conn.close()
    out.write_text(json.dumps({"sent": sent, "asks": asks, "refused": refused}))


def run_load(admin_dsn: str, folder: Path, *, tables: int, seconds: float,
             hit_every: int = 5) -> LoadResult:
    """``tables`` worker processes on a freshly installed link at ``admin_dsn``."""
    with init_link(admin_dsn) as admin:  # the server's speed, not a table's: no play bound
        admin.execute(b"UPDATE link_games SET rounds_an_hour = 1000000")
    names = [f"load{i:02d}" for i in range(1, tables + 1)]
    dsns = {name: table_dsn(admin_dsn, name) for name in names}
    result = LoadResult(tables)
    t0 = time.monotonic()
    procs = [subprocess.Popen([sys.executable, "-m", "tests.link.load", dsns[name], name,
                               str(seconds), str(hit_every), str(folder / f"{name}.json")])
             for name in names]
    for proc in procs:
        proc.wait(timeout=seconds + 120)
    result.seconds = time.monotonic() - t0
    for name, proc in zip(names, procs, strict=True):
        if proc.returncode != 0:
            result.refused.append(f"{name}: exited {proc.returncode}")
            continue
        data = json.loads((folder / f"{name}.json").read_text())
        result.contributions += int(data["sent"])
        result.asks_ms.extend(float(x) for x in data["asks"])
        result.refused.extend(str(x) for x in data["refused"])
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        result.hits_on_server = len(server.hits(conn, LINK))
        result.link_problems = verify(conn)
    return result


if __name__ == "__main__":
    dsn, table, seconds, hit_every, out = sys.argv[1:6]
    worker(dsn, table, float(seconds), int(hit_every), Path(out))
