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
from typing import Any

Register = Callable[[Any], None]
"""``register(subparsers)``: adds one subcommand to ``argparse``'s subparsers action."""


class CommandError(Exception):
    """A failure to report on stderr with exit status ``status`` (2: bad input)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def read_table_db(path: object) -> Any:
    """The table database at ``path`` opened read-only for a report or an audit (see
    ``open_for_reading``); a missing file or an older schema is a :class:`CommandError`."""
    from dealer_console.storage import StorageError, open_for_reading

    try:
        return open_for_reading(str(path))
    except StorageError as exc:
        raise CommandError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealer-console",
        description="Face Up Pai Gow / Fortune Pai Gow dealer console",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for ep in sorted(entry_points(group="dealer_console.commands"), key=lambda e: e.name):
        register: Register = ep.load()
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return func(args)
    except CommandError as exc:
        print(f"dealer-console {args.command}: {exc}", file=sys.stderr)
        return exc.status
    except BrokenPipeError:
        return 0
