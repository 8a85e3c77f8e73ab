"""``dealer-console audit verify --db table.db``: the hash chain and every invariant of a table
database; exit status 1 when anything is wrong."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_console.cli.checks import file_path


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("audit", help="audit a table database")
    actions = parser.add_subparsers(dest="audit_action", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify", help="check the hash chain and every invariant; exit 1 on any problem",
        description="Checks the event log's hash chain, money conserved per line and per "
                    "round, every wager settled once, every round complete or voided, and the "
                    "state tables against the event log.")
    verify.add_argument("--db", required=True, type=file_path, help="the table's database file")
    verify.set_defaults(func=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    from dealer_console.cli import read_table_db
    from dealer_console.round.audit import audit

    # an audit never changes what it audits, and checks every page and index first
    db = read_table_db(Path(args.db), full_check=True)
    report = audit(db)
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    verdict = "OK" if report.ok else f"FAILED ({len(report.problems)} problems)"
    print(f"{verdict}: {report.events} events, {report.rounds} rounds, "
          f"{report.lines} settlement lines checked")
    return 0 if report.ok else 1
