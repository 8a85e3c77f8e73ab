"""``dealer-console backup --db table.db --to copy.db``: a consistent, verified copy of a table
database, safe while the table runs (``dealer_console/storage/backup.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_console.cli import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "backup", help="copy a table database consistently (also while the table runs)",
        description="Copies the database with SQLite's backup API (what is still in its -wal "
                    "file included), checks the copy (integrity and hash chain) and only then "
                    "gives it its name; the checkpoint journal is copied beside it. Use this, "
                    "never a file copy, to take a table's database away.")
    parser.add_argument("--db", required=True, type=Path, help="the table's database file")
    parser.add_argument("--to", required=True, type=Path, help="the backup file (must not "
                                                               "exist)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.storage.backup import backup

    try:
        done = backup(args.db, args.to)
    except OSError as exc:
        raise CommandError(f"{args.to}: cannot write the backup: {exc.strerror}") from None
    print(f"backup {done.target}: {done.events} events, chain head event {done.head_seq} "
          f"({done.head[:16]}...); integrity and hash chain verified")
    if done.journal is not None:
        print(f"checkpoint journal copied to {done.journal}")
    return 0
