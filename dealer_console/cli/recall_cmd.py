"""``dealer-console recall --db table.db --last 10``: game recall for regulators."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import file_path, whole_number

MAX_RECALL = 1_000_000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "recall", help="show the last rounds with every hand, setting and payout",
        description="Game recall: the last N rounds (at least the last 10 are kept for "
                    "regulators) with every hand, setting, wager and payout.")
    parser.add_argument("--db", required=True, type=file_path, help="the table's database file")
    parser.add_argument("--last", type=whole_number(1, MAX_RECALL), default=10,
                        help="how many rounds (default 10)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.cli import read_table_db
    from dealer_console.reports.recall_prints import with_prints
    from dealer_console.round.recall import format_round, recall

    if args.last < 1:
        raise CommandError(f"--last must be 1 or more, not {args.last}")
    db = read_table_db(Path(args.db))  # recall never changes what it reads
    rounds = with_prints(db, recall(db, args.last))  # each award's win pages printed
    if args.json:
        print(json.dumps(rounds, indent=2))
    else:
        print("\n\n".join(format_round(r) for r in rounds) if rounds else "no rounds yet")
    return 0
