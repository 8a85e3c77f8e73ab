"""A long simulated run, watched for anything that grows with the rounds played: a table plays
for weeks without a restart. Every ``--every`` rounds it prints the stretch's rounds per
second, the objects the collector tracks, how long a full collection takes (the console runs
it on the GUI thread) and the process's resident memory.

    .venv/bin/python benchmarks/long_run.py [--rounds 5000] [--every 1000]

The objects should level off once the five-card value cache is full (a few hundred rounds);
``tests/test_long_run_memory.py`` holds the parts that grew before.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from pathlib import Path

from drivers.sim.table.run import open_sim


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--profile", default="washington-face-up")
    args = parser.parse_args()
    print(f"simulate {args.profile}, {args.rounds} rounds in-process, figures every "
          f"{args.every}")
    with tempfile.TemporaryDirectory(dir=".") as tmp, open_sim(
            Path(tmp) / "long.db", args.profile, 7, "in-process", frozenset(),
            resume=False) as sim:
        played = 0
        while played < args.rounds:
            stretch = min(args.every, args.rounds - played)
            started = time.perf_counter()
            sim.dealer.run(played + stretch)
            seconds = time.perf_counter() - started
            played += stretch
            started = time.perf_counter()
            gc.collect()
            collection = time.perf_counter() - started
            print(f"  {played:7d} rounds  {stretch / seconds:6.1f} rounds/s  "
                  f"objects {len(gc.get_objects()):8,d}  full collection "
                  f"{collection * 1000:6.1f} ms  resident {resident_mb():6.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
