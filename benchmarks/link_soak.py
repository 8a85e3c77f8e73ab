"""Linked jackpot figures on a PostgreSQL of the benchmark's own (initdb + pg_ctl in a
temporary folder, as the tests do):

- contributions per second the server accepts from N concurrent tables (N = 1, 10, 50), each
  table a thread with its own login and connection sending a round's wagers (3 seats) per
  call, as the sender does (one server-side call: the meters locked for one statement);
- ask-to-commit with 30 tables as separate processes (``tests/link/load.py``): each table
  contributes and asks for a hit every five rounds; the median and p95 from the ask to the
  server's commit, and the contributions per second meanwhile;
- the time from a confirmed swipe to the linked meter display showing the reseed, through the
  table's own path: the card authorised at the table, the hit asked of the server on the
  asker's thread, the server's ordered 100% award, the answer recorded in the table's
  database, and the display's reader (another connection, as the meter display's worker)
  seeing the reseeded shared meter;
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

from dealer_console.jackpot_values.link_records import Owed  # noqa: E402
from dealer_console.jackpot_values.meters import MICRO  # noqa: E402
from dealer_console.link.health import now as taken_now  # noqa: E402
from dealer_console.round import commands as c  # noqa: E402
from dealer_link import server  # noqa: E402
from dealer_link.display import linked_meters  # noqa: E402
from tests.jackpot.conftest import CARDS  # noqa: E402
from tests.jackpot.swipes import answered, swipe  # noqa: E402
from tests.link.helpers import (  # noqa: E402
    LINK,
    SEVEN_SF,
    init_link,
    linked_game,
    open_linked,
    play_to_hit,
    table_dsn,
)
from tests.link.pg_server import PgServer, find_bin  # noqa: E402
from tests.round.helpers import settle_all  # noqa: E402


def fresh(pg: PgServer, name: str) -> str:
    with psycopg.connect(pg.dsn(), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}".encode())
        admin.execute(f"CREATE DATABASE {name}".encode())
    dsn = pg.dsn(name)
    with init_link(dsn) as admin:  # the server's speed, not a table's: no play bound
        admin.execute(b"UPDATE link_games SET rounds_an_hour = 1000000")
    return dsn


def contributions_per_second(pg: PgServer, tables: int, seconds: float) -> float:
    dsn = fresh(pg, f"bench_{tables}")
    counts = [0] * tables
    stop = time.monotonic() + seconds
    start = threading.Barrier(tables)

    dsns = [table_dsn(dsn, f"b{i}") for i in range(tables)]

    def table(i: int) -> None:
        conn = server.connect(dsns[i], who=f"b{i}")
        start.wait()
        for round_id in itertools.count(1):
            if time.monotonic() >= stop:
                break
            counts[i] += server.contribute(conn, LINK, f"b{i}", [
                Owed(round_id, 1, 1, seat, 100, taken_now()) for seat in (1, 4, 7)])
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
    display = server.connect(dsn, who="meter display")
    seed = linked_game().levels[0].seed_cents
    times = []
    with tempfile.TemporaryDirectory() as folder:
        t = open_linked(Path(folder) / "h1.db", "h1", dsn)
        try:
            for _ in range(n):
                play_to_hit(t, SEVEN_SF)  # wagers delivered: the hit is quoted on them
                t0 = time.perf_counter()
                swipe(t.system, t.table, CARDS["supervisor"])
                hit = answered(t.system, t.table, t.answer())
                assert hit is not None and hit.link_hit_id is not None
                while True:
                    shown = linked_meters(display, LINK)[0].cents
                    if shown == (hit.meter_after_micro or 0) // MICRO and shown >= seed:
                        break
                times.append((time.perf_counter() - t0) * 1000)
                settle_all(t.table)
                t.table.handle(c.EndGame())
        finally:
            t.close()
            display.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--soak", action="store_true", help="also run the 50-table soak")
    parser.add_argument("--soak-tables", type=int, default=50)
    parser.add_argument("--ask-tables", type=int, default=30,
                        help="tables (processes) for ask-to-commit")
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
        from tests.link.load import run_load

        with tempfile.TemporaryDirectory() as folder:
            load = run_load(fresh(pg, "bench_load"), Path(folder), tables=args.ask_tables,
                            seconds=max(args.seconds, 10.0))
        p50, p95, worst = load.quantiles()
        print(f"ask-to-commit, {load.tables} tables as processes: median {p50:.0f} ms  p95 "
              f"{p95:.0f} ms  max {worst:.0f} ms  (n={len(load.asks_ms)}); contributions "
              f"meanwhile {load.per_second:,.0f} wagers/s; refused {len(load.refused)}; "
              f"hits on the server {load.hits_on_server}; link audit "
              f"{'OK' if not load.link_problems else load.link_problems[:3]}")
        ms = swipe_to_reseed(pg)
        q = statistics.quantiles(ms, n=20)
        print("confirmed swipe -> linked meter shows the reseed: median "
              f"{statistics.median(ms):.2f} ms  p95 {q[-1]:.2f} ms  max {max(ms):.2f} ms  "
              f"(n={len(ms)})")
        if args.soak:
            from tests.link.soak import run_soak

            with tempfile.TemporaryDirectory() as folder:
                r = run_soak(pg, Path(folder), tables=args.soak_tables, runs_each=2,
                             rounds=4, kills=5)
            print(f"soak: {r.tables} tables, {r.runs} runs, {r.kills} SIGKILLs, server "
                  f"restarted (immediate) {r.restarted}, every table's connections cut "
                  f"({r.cut_all}), one table's {r.cuts} more, {r.seconds:.0f} s")
            print(f"soak: link audit {'OK' if not r.link_problems else r.link_problems}; "
                  f"table problems {len(r.table_problems)}; wagers tables "
                  f"{sum(r.wagers_tables.values())} cents, server "
                  f"{sum(r.wagers_server.values())} cents, per table equal: "
                  f"{r.wagers_tables == r.wagers_server}; owed at exit "
                  f"{sum(r.owed_at_exit.values())}")
            print(f"soak: {sum(len(h) for h in r.hits_server.values())} linked hits paid by "
                  f"the server; each table's records equal the server's: "
                  f"{r.hits_tables == r.hits_server}; paid from a table's own meter: "
                  f"{r.unlinked_hits}")
            for p in r.table_problems[:5]:
                print("  " + p.splitlines()[0])
    finally:
        pg.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
