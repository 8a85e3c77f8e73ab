"""Rounds per second through ``simulate``: simulated devices, the round procedure, settlement
and storage with ``synchronous=FULL`` (every transition is a committed, fsynced transaction).

    .venv/bin/python benchmarks/round_sim.py [--rounds 500] [--profile washington-face-up]

Prints one line per link: ``drivers`` (the doubles on pseudo-terminals behind the real drivers
and pyserial) and ``in-process`` (the same drivers and table controller over the in-process
transport pair), plus the cost per logged event. Both run the console's own path: the table
controller applies every device event. The simulated dealer takes the one-touch steps in most
rounds, as a dealer at the console does; ``seat by seat`` plays the same rounds in-process with
every hand set and every seat settled by its own touch (each touch is a transaction), the
figure measured before the dealer took them. ``in-process, NORMAL`` plays the same rounds with
the database at ``synchronous=NORMAL`` (no fsync at each commit): a comparison only, so the
fsyncs' share of a round is measured every run. The table, and ``simulate``, always commit with
FULL; this benchmark alone sets NORMAL on its own throwaway database.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path

from drivers.sim.table.run import open_sim, parse_faults
from drivers.sim.table.summary import summary


def measure(profile: str, rounds: int, devices: str, faults: str, workdir: Path,
            one_touch: bool = True, synchronous: str = "FULL") -> tuple[float, int, float]:
    db = workdir / f"{profile}-{devices}-{one_touch}-{synchronous}.db"
    with open_sim(db, profile, 7, devices, parse_faults(faults), resume=False) as sim:
        if not one_touch:
            sim.dealer.policy.one_touch_rate = 0.0
        if synchronous != "FULL":  # the comparison's throwaway file only
            sim.opened.db.execute(f"PRAGMA synchronous={synchronous}")
        started = time.perf_counter()
        sim.dealer.run(rounds)
        seconds = time.perf_counter() - started
        events = summary(sim.opened.db, profile)["events"]
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
        for label, devices, one_touch, synchronous in (
                ("drivers", "drivers", True, "FULL"),
                ("in-process", "in-process", True, "FULL"),
                ("in-process, seat by seat", "in-process", False, "FULL"),
                ("in-process, NORMAL", "in-process", True, "NORMAL")):
            rate, events, seconds = measure(args.profile, args.rounds, devices, args.faults,
                                            Path(tmp), one_touch, synchronous)
            print(f"  {label:25} {rate:7.1f} rounds/s  ({seconds:.2f} s, {events} events, "
                  f"{seconds / events * 1000:.2f} ms per event)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
