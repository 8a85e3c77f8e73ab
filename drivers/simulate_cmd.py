"""``dealer-console simulate``: a headless table playing whole rounds through the real round
procedure, settlement and storage, with the simulated devices behind the real drivers.

It lives in ``drivers`` because it needs the drivers and their doubles; ``dealer_console``
never imports them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play whole rounds headless with simulated devices",
        description="Plays rounds with random but legal wagers and settings (seeded: the same "
                    "seed gives the same result) and prints a summary.")
    parser.add_argument("--profile", required=True,
                        help="a shipped profile's name, or the path of a profile TOML file")
    parser.add_argument("--rounds", type=int, default=100, help="rounds to complete in all")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random choice")
    parser.add_argument("--db", required=True, type=Path, help="the table's database file")
    parser.add_argument("--resume", action="store_true",
                        help="continue a run in this database (after a crash or a stop)")
    parser.add_argument("--faults", default="",
                        help="comma-separated faults to inject: misdeal, exposed, wrong-first, "
                             "reconstruct, foul, device-repeat, wire, jackpot-hands (a stacked "
                             "deck in about 3 rounds in 10, so jackpot hits happen), or 'all'")
    parser.add_argument("--hold-before-end", type=float, default=0.0, metavar="SECONDS",
                        help="wait this long between a round's last jackpot confirmation and "
                             "END GAME (to watch the monitor; the crash test kills there)")
    parser.add_argument("--hold", action="append", default=[], metavar="PHASE=SECONDS",
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
    parser.add_argument("--audit-key", default=None, metavar="FILE",
                        help="the audit key file for the checkpoints written beside the "
                             "database after each round (default: $DEALER_CONSOLE_AUDIT_KEY; "
                             "without a key they carry no MAC)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from drivers.sim.table.run import run_simulate

    return run_simulate(args)
