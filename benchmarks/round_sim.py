"""Rounds per second through ``simulate``: simulated devices, the round procedure, settlement
and storage with ``synchronous=FULL`` (every transition is a committed, fsynced transaction).

    .venv/bin/python benchmarks/round_sim.py [--rounds 500] [--profile washington-face-up]

Prints one line per device mode: ``drivers`` (the shuffler double on a pseudo-terminal behind
the real driver and pyserial) and ``inline`` (the same device events made in-process), plus
the cost per logged event.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path

from drivers.table_sim import open_sim, summary


def measure(profile: str, rounds: int, devices: str, faults: str, workdir: Path
            ) -> tuple[float, int, float]:
    from drivers.table_sim import parse_faults

    db = workdir / f"{profile}-{devices}.db"
    with open_sim(db, profile, 7, devices, parse_faults(faults), resume=False) as sim:
        started = time.perf_counter()
        sim.run(rounds)
        seconds = time.perf_counter() - started
        events = summary(sim.table)["events"]
    return rounds / seconds, events, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--profile", default="washington-face-up")
    parser.add_argument("--faults", default="", help="as simulate's --faults")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=".") as tmp:
        print(f"simulate {args.profile}, {args.rounds} rounds, synchronous=FULL, WAL, "
              f"SQLite {sqlite3.sqlite_version}, faults: {args.faults or 'none'}")
        for devices in ("drivers", "inline"):
            rate, events, seconds = measure(args.profile, args.rounds, devices, args.faults,
                                            Path(tmp))
            print(f"  {devices:8} {rate:7.1f} rounds/s  ({seconds:.2f} s, {events} events, "
                  f"{seconds / events * 1000:.2f} ms per event)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
