"""Linked jackpot figures on a PostgreSQL of the benchmark's own (initdb + pg_ctl in a
temporary folder, as the tests do):

- contributions per second the server accepts from N concurrent tables (N = 1, 10, 50), each
  table a thread with its own connection sending a round's wagers (3 seats) per transaction,
  as the sender does;
- the time from a confirmed swipe (the server's ordered hit, a 100% award) to the linked
  meter display (another connection, as a screen's worker) showing the reseed;
- with ``--soak``, the full soak: 50 ``simulate`` processes on the link with SIGKILLs, a
  server restart and a cut connection (``tests/link/soak.py``), then every check.

Run: ``.venv/bin/python benchmarks/link_soak.py`` (``--seconds S`` per N, ``--soak``).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from dealer_console.jackpot.meters import MICRO  # noqa: E402
from dealer_console.link import server, server_schema  # noqa: E402
from dealer_console.link.display import linked_meters  # noqa: E402
from dealer_console.link.records import Owed  # noqa: E402
from tests.link.helpers import LINK, linked_game  # noqa: E402
from tests.link.pg_server import PgServer, find_bin  # noqa: E402


def fresh(pg: PgServer, name: str) -> str:
    with psycopg.connect(pg.dsn(), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}".encode())
        admin.execute(f"CREATE DATABASE {name}".encode())
    dsn = pg.dsn(name)
    conn = server.connect(dsn)
    server_schema.apply(conn)
    server.install_game(conn, LINK, linked_game(), actor="benchmark")
    conn.close()
    return dsn


def contributions_per_second(pg: PgServer, tables: int, seconds: float) -> float:
    dsn = fresh(pg, f"bench_{tables}")
    counts = [0] * tables
    stop = time.monotonic() + seconds
    start = threading.Barrier(tables)

    def table(i: int) -> None:
        conn = server.connect(dsn, who=f"b{i}")
        start.wait()
        for round_id in itertools.count(1):
            if time.monotonic() >= stop:
                break
            counts[i] += server.contribute(conn, LINK, f"b{i}", [
                Owed(round_id, 1, 1, seat, 100, "bench") for seat in (1, 4, 7)])
        conn.close()

    threads = [threading.Thread(target=table, args=(i,)) for i in range(tables)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - t0)


def swipe_to_reseed(pg: PgServer, n: int = 30) -> list[float]:
    dsn = fresh(pg, "bench_hits")
    table, display = server.connect(dsn, who="h1"), server.connect(dsn, who="display")
    seed = linked_game().levels[0].seed_cents
    times = []
    for round_id in range(1, n + 1):
        server.contribute(table, LINK, "h1", [Owed(round_id, 1, 1, 1, 100, "bench")])
        t0 = time.perf_counter()
        hit = server.confirm_hit(table, LINK, "h1", round_id=round_id, spot=1, seat=1,
                                 line_no=1, employee_id="S1")
        while True:
            shown = linked_meters(display, LINK)[0].cents
            if shown == (hit.meter_after_micro or 0) // MICRO and shown >= seed:
                break
        times.append((time.perf_counter() - t0) * 1000)
    table.close()
    display.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--soak", action="store_true", help="also run the 50-table soak")
    parser.add_argument("--soak-tables", type=int, default=50)
    args = parser.parse_args()
    bindir = find_bin()
    if bindir is None:
        print("PostgreSQL is not installed: run installers/setup-dev.sh", file=sys.stderr)
        return 2
    pg = PgServer(bindir, durable=True)  # fsync on, as a card room's server
    try:
        for n in (1, 10, 50):
            rate = contributions_per_second(pg, n, args.seconds)
            print(f"contributions accepted, {n:2d} tables: {rate:8,.0f} wagers/s")
        ms = swipe_to_reseed(pg)
        q = statistics.quantiles(ms, n=20)
        print("confirmed swipe -> linked meter shows the reseed: median "
              f"{statistics.median(ms):.2f} ms  p95 {q[-1]:.2f} ms  max {max(ms):.2f} ms  "
              f"(n={len(ms)})")
        if args.soak:
            from tests.link.soak import run_soak

            with tempfile.TemporaryDirectory() as folder:
                r = run_soak(pg, Path(folder), tables=args.soak_tables, runs_each=1,
                             rounds=4, kills=5)
            print(f"soak: {r.tables} tables, {r.runs} runs, {r.kills} SIGKILLs, server "
                  f"restarted {r.restarted}, {r.cuts} connections cut, {r.seconds:.0f} s")
            print(f"soak: link audit {'OK' if not r.link_problems else r.link_problems}; "
                  f"table problems {len(r.table_problems)}; wagers tables "
                  f"{sum(r.wagers_tables.values())} cents, server "
                  f"{sum(r.wagers_server.values())} cents, per table equal: "
                  f"{r.wagers_tables == r.wagers_server}")
            for p in r.table_problems[:5]:
                print("  " + p.splitlines()[0])
    finally:
        pg.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
