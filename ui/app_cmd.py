"""``dealer-console gui``: start the console window (Qt is imported only when it runs)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("gui", help="start the dealer console window")
    parser.add_argument("--simulated", action="store_true", help="use the simulated devices")
    parser.add_argument("--db", default="var/table.db", help="the table's SQLite database")
    parser.add_argument(
        "--quit-after", type=float, default=None, metavar="SECONDS",
        help="close the window after SECONDS (smoke tests)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ui.app import run_app

    return run_app(simulated=args.simulated, db_path=args.db, quit_after=args.quit_after)
