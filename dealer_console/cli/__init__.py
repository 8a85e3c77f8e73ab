"""The ``dealer-console`` command.

Subcommands are registered through the ``dealer_console.commands`` entry-point group
(``pyproject.toml``), so commands that need the drivers or Qt live in those packages and this
package never imports them. A ``register`` function adds its subparser and sets ``func``;
it must stay cheap (import heavy modules inside ``func``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, NoReturn

Register = Callable[[Any], None]
"""``register(subparsers)``: adds one subcommand to ``argparse``'s subparsers action."""


class CommandError(Exception):
    """A failure to report on stderr with exit status ``status`` (2: bad input)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def read_table_db(path: object, *, full_check: bool = False) -> Any:
    """The table database at ``path`` opened read-only for a report or an audit (see
    ``open_for_reading``; ``full_check`` for the audits); a missing file, a file that is not
    a table database, a damaged one or an older schema is a :class:`CommandError`."""
    from dealer_console.storage.connection import StorageError
    from dealer_console.table_db import open_for_reading

    try:
        return open_for_reading(str(path), full_check=full_check)
    except StorageError as exc:
        raise CommandError(str(exc)) from None


class _Parser(argparse.ArgumentParser):
    """Usage mistakes as one line (what was wrong, and where to find the usage), status 2."""

    def error(self, message: str) -> NoReturn:
        command = " ".join(self.prog.split()[:2])  # "dealer-console recall", as main() prints
        self.exit(2, one_line(f"{command}: {message} (see {self.prog} --help)") + "\n")


def one_line(message: str, limit: int = 1000) -> str:
    """``message`` on one line of at most ``limit`` characters, whatever it echoes."""
    text = " / ".join(part.strip() for part in message.splitlines() if part.strip())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dealer-console",
        description="Face Up Pai Gow / Fortune Pai Gow dealer console",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for ep in sorted(entry_points(group="dealer_console.commands"), key=lambda e: e.name):
        register: Register = ep.load()
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Every expected failure (bad input, a file that is not a table
    database, a full disk) is one line on stderr and exit status 2; only a bug in the
    console shows a traceback."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage mistake, already printed (2)
        return exc.code if isinstance(exc.code, int) else 2
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return func(args)
    except CommandError as exc:
        return _fail(args, str(exc), exc.status)
    except BrokenPipeError:
        return 0
    except Exception as exc:
        message = _expected_failure(exc, args)
        if message is None:
            raise
        return _fail(args, message, 2)


def _fail(args: argparse.Namespace, message: str, status: int) -> int:
    print(one_line(f"dealer-console {args.command}: {message}"), file=sys.stderr)
    return status


def _expected_failure(exc: Exception, args: argparse.Namespace) -> str | None:
    """The message for a failure any command may meet that is not a bug, or None."""
    import sqlite3

    from dealer_console.errors import ConsoleError
    from dealer_console.storage.failures import explain

    if isinstance(exc, ConsoleError):  # written for the person at the table: said as it is
        return str(exc)
    if isinstance(exc, sqlite3.Error):
        failure = explain(exc, str(getattr(args, "db", None) or "the table database"))
        return None if failure is None else str(failure)
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename or 'a file'}: {exc.strerror}"
    return None
