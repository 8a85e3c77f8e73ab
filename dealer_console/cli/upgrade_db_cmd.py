"""``dealer-console upgrade-db --db table.db``: bring a table database's schema up to this
console's, as the installer does after its backup when the console is updated (the console
would do it at its next start; the installer does it first so a failure is seen there, with
the table still closed)."""

from __future__ import annotations

import argparse
from typing import Any

from dealer_console.cli.checks import file_path


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "upgrade-db", help="apply this console's schema migrations to a table database",
        description="Applies the migrations the database lacks (take a backup first: "
                    "`dealer-console backup`). A database from a later console is refused.")
    parser.add_argument("--db", required=True, type=file_path, help="the table's database")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.table_db import open_table_db, schema_version

    open_table_db(args.db, create=False).close()  # refuses, verifies, then migrates
    print(f"{args.db}: schema current (version {schema_version()})")
    return 0
