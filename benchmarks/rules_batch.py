"""Hands per second through the ``rules`` batch paths: each House Way and ``classify``.

    .venv/bin/python benchmarks/rules_batch.py [--hands 20000] [--seed 1]

A supervisor or auditor pipes a whole shoe history through ``dealer-console rules house-way
--batch --json`` or ``rules classify --batch --json``; this measures that path in one process
(parse a line, set or classify it, write one JSON line), without the interpreter start-up.
The hands are random seven-card hands from the 53-card deck, the same for every path; the
value cache of the hand engine starts cold for each path.
"""

from __future__ import annotations

import argparse
import io
import random
import time
from types import SimpleNamespace

from dealer_console.cards import DECK, format_cards
from dealer_console.cli.rules_cmd import _answerer, _run_batch
from dealer_console.hands import HandRules, _five_value
from dealer_console.house_ways import NAMES


def random_lines(count: int, seed: int) -> str:
    rnd = random.Random(seed)
    return "".join(format_cards(rnd.sample(DECK, 7)) + "\n" for _ in range(count))


def measure(args: SimpleNamespace, lines: str) -> tuple[float, float]:
    """Hands per second and seconds for one batch path, from a cold value cache."""
    _five_value.cache_clear()
    answer = _answerer(args, HandRules())  # type: ignore[arg-type]
    sink = io.StringIO()
    started = time.perf_counter()
    _run_batch(answer, io.StringIO(lines), sink)
    seconds = time.perf_counter() - started
    count = lines.count("\n")
    assert sink.getvalue().count("\n") == count and '"error"' not in sink.getvalue()
    return count / seconds, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = random_lines(args.hands, args.seed)
    print(f"rules --batch --json, {args.hands} random hands (seed {args.seed}), one process")
    for name in NAMES:
        rate, seconds = measure(SimpleNamespace(question="house-way", house_way=name), lines)
        print(f"  house-way {name:13} {rate:9,.0f} hands/s  ({seconds:.2f} s)")
    rate, seconds = measure(SimpleNamespace(question="classify"), lines)
    print(f"  classify                {rate:9,.0f} hands/s  ({seconds:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
