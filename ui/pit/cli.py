"""``dealer-console pit``: the pit's screen (Qt is imported only when it runs)."""

from __future__ import annotations

import argparse
from typing import Any

from dealer_console.cli.checks import seconds


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pit", help="the pit's screen on a podium PC: every table of the link's server",
        description="Open the pit's screen. The address is DEALER_CONSOLE_LINK_DSN with the "
        "pit's own login (docs/pit.md).")
    parser.add_argument("--full-screen", action="store_true", help="fill the screen")
    parser.add_argument("--quit-after", type=seconds(0.0, 86400.0), default=None,
                        metavar="SECONDS", help="close after SECONDS (smoke tests)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.cli import CommandError
    from dealer_console.link.settings import LinkError, dsn_from_environment

    try:
        dsn = dsn_from_environment()
    except LinkError as exc:
        raise CommandError(str(exc)) from None
    from ui.pit.app import run_pit

    return run_pit(dsn, full_screen=args.full_screen, quit_after=args.quit_after)
