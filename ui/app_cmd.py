"""``dealer-console gui``: start the console window (Qt is imported only when it runs)."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from dealer_console.cli.checks import file_path, label, seconds


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("gui", help="start the dealer console window")
    parser.add_argument("--simulated", action="store_true",
                        help="start the simulated shuffler, bet sensors and keypad")
    parser.add_argument("--profile", default="washington-face-up", type=label(64),
                        help="the table profile (default: washington-face-up)")
    parser.add_argument("--db", default="var/table.db", type=file_path,
                        help="the table's SQLite database")
    parser.add_argument("--devices", default=None, metavar="FILE", type=file_path,
                        help="the table's devices file (devices.toml: real ports and USB "
                             "ids, docs/protocols/README.md); without it and without "
                             "--simulated the console runs with no devices")
    parser.add_argument("--four-colour", action="store_true",
                        help="draw the cards in a four-colour deck")
    parser.add_argument("--full-screen", action="store_true",
                        help="fill the screen (a table PC's kiosk)")
    parser.add_argument("--no-meter-display", action="store_true",
                        help="do not open the jackpot meter display (the table's monitor); "
                             "the supervisor's area can open it later")
    parser.add_argument(
        "--quit-after", type=seconds(0.0, 86400.0), default=None, metavar="SECONDS",
        help="close the window after SECONDS (smoke tests)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.cli import CommandError
    from dealer_console.config_file import ConfigError
    from dealer_console.profiles.loader import get_profile

    try:
        profile = get_profile(args.profile)
    except (KeyError, ConfigError) as exc:
        raise CommandError(str(exc.args[0] if isinstance(exc, KeyError) else exc)) from None
    from dealer_console.errors import ConsoleError
    from dealer_console.storage.connection import StorageError

    import_core_before_qt(simulated=args.simulated)
    from ui.app import run_app

    if args.simulated and args.devices:
        raise CommandError("--simulated and --devices exclude each other")
    from ui.supervisor.session import idle_lock_seconds

    try:
        idle_lock_seconds()  # a typo in the idle lock stops the start, never unlocks a table
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    try:
        return run_app(profile=profile, simulated=args.simulated, db_path=args.db,
                       quit_after=args.quit_after, devices_file=args.devices,
                       four_colour=args.four_colour, full_screen=args.full_screen,
                       meter_display=not args.no_meter_display)
    except StorageError as exc:  # its message names the file and what to do
        raise CommandError(str(exc)) from None
    except ConsoleError as exc:
        raise CommandError(f"{args.db}: {exc}") from None


def import_core_before_qt(*, simulated: bool) -> None:
    """The console's own modules imported before PySide6 is: once it is, its import hook
    (for its ``__feature__`` switches) does work for every later import, about 35 ms of a
    start for the core, the link and the simulated devices (``benchmarks/gui_console.py``)."""
    sim = ("drivers.sim.hardware", "drivers.sim.table.dealer") if simulated else ()
    for module in ("dealer_console.controller", "dealer_link.wiring", *sim):
        importlib.import_module(module)
