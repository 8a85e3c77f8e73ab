"""``dealer-console simulate``: a headless table playing whole rounds through the real round
procedure, settlement and storage, with the simulated devices behind the real drivers.

It lives in ``drivers`` because it needs the drivers and their doubles; ``dealer_console``
never imports them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_console.cli.checks import (
    SQLITE_MAX_INT,
    file_path,
    label,
    profile_ref,
    seconds,
    whole_number,
)
from dealer_console.input_checks import shown

MAX_ROUNDS = 10_000_000
MAX_HOLD_SECONDS = 3600.0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play whole rounds headless with simulated devices",
        description="Plays rounds with random but legal wagers and settings (seeded: the same "
                    "seed gives the same result) and prints a summary.")
    parser.add_argument("--profile", required=True, type=profile_ref,
                        help="a shipped profile's name, or the path of a profile TOML file")
    parser.add_argument("--rounds", type=whole_number(1, MAX_ROUNDS), default=100,
                        help="rounds to complete in all")
    parser.add_argument("--seed", type=whole_number(0, SQLITE_MAX_INT), default=0,
                        help="seed of every random choice")
    parser.add_argument("--db", required=True, type=_db_path, help="the table's database file")
    parser.add_argument("--resume", action="store_true",
                        help="continue a run in this database (after a crash or a stop)")
    parser.add_argument("--faults", default=None, type=label(200),
                        help="comma-separated faults to inject: misdeal, exposed, wrong-first, "
                             "reconstruct, foul, device-repeat, wire, jackpot-hands (a stacked "
                             "deck in about 3 rounds in 10, so jackpot hits happen), or 'all'")
    parser.add_argument("--hold-before-end", type=seconds(0.0, MAX_HOLD_SECONDS), default=0.0,
                        metavar="SECONDS",
                        help="wait this long between a round's last jackpot confirmation and "
                             "END GAME (to watch the monitor; the crash test kills there)")
    parser.add_argument("--hold", action="append", default=[], metavar="PHASE=SECONDS",
                        type=_hold,
                        help="wait this long each time the round is in PHASE (repeatable), so "
                             "a power cut can be pulled there on purpose: the crash test uses "
                             "it to kill in every phase")
    parser.add_argument("--devices", choices=("drivers", "in-process"), default="drivers",
                        help="the real drivers with the doubles behind them, over "
                             "pseudo-terminals (drivers) or over an in-process transport "
                             "pair (in-process: the same drivers and controller, faster); the "
                             "keypad is on the virtual USB bus either way")
    parser.add_argument("--deal", choices=("shuffler", "hand"), default=None,
                        help="how hands are dealt (default: the shuffler when the profile "
                             "allows it)")
    parser.add_argument("--audit-key", default=None, metavar="FILE", type=file_path,
                        help="the audit key file for the checkpoints written beside the "
                             "database after each round (default: $DEALER_CONSOLE_AUDIT_KEY; "
                             "without a key they carry no MAC)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


def _db_path(text: str) -> Path:
    return Path(file_path(text))


def _hold(text: str) -> str:
    """``PHASE=SECONDS``: the pause must be finite, from 0 to an hour (the phase and the form
    are checked where the simulator reads them)."""
    _phase, sep, pause = text.partition("=")
    if sep:
        try:
            seconds(0.0, MAX_HOLD_SECONDS)(pause)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                f"--hold {shown(text)}: SECONDS must be a number from 0 to 3600") from None
    return text


def run(args: argparse.Namespace) -> int:
    from dealer_console.storage.identity import check_path
    from dealer_console.table_db import check_table_file
    from drivers.sim.table.run import run_simulate

    args.faults = args.faults or ""
    # Refused before any device starts: a folder, a file that is not a table database, a
    # damaged or later one, a read-only one for --resume, one another table has open. (A
    # missing one to resume, or an existing one without --resume, the simulator refuses.)
    if check_path(args.db, must_exist=False) and args.resume:
        check_table_file(args.db)
    return run_simulate(args)
