"""``dealer-console settle ROUND.json --profile NAME [--json]``: the dealer's payout sheet for
one round (format: ``docs/round-format.md``). A malformed round is refused with the reason and
the place in the file, and nothing is printed as settled."""

from __future__ import annotations

import argparse
from typing import Any

from dealer_console.cli.checks import file_path, profile_ref

MAX_ROUND_BYTES = 1 << 20
"""A round file is about a kilobyte; a megabyte is already absurd."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("settle", help="settle a round from a ROUND.json file")
    parser.add_argument("round", type=file_path,
                        help="the round file (ROUND.json format), or - for stdin")
    parser.add_argument("--profile", required=True, type=profile_ref,
                        help="table profile name or TOML file")
    parser.add_argument("--json", action="store_true", help="print the sheet as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path

    from dealer_console.cli import CommandError
    from dealer_console.config_file import ConfigError
    from dealer_console.input_checks import (
        InputError,
        check_structure,
        decode_text,
        read_text_file,
    )
    from dealer_console.profiles.loader import get_profile, load_profile
    from dealer_console.settlement import RoundError, settle
    from dealer_console.settlement.round_json import read_round
    from dealer_console.settlement.sheet import sheet_text, sheet_to_json

    try:
        if args.profile.endswith(".toml"):
            profile = load_profile(Path(args.profile))
        else:
            profile = get_profile(args.profile)
    except KeyError as exc:
        raise CommandError(str(exc.args[0])) from None
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    try:  # within the limits of any input (size, nesting, digits) before JSON parses it
        if args.round == "-":
            text = decode_text(sys.stdin.buffer.read(MAX_ROUND_BYTES + 1), "standard input",
                               MAX_ROUND_BYTES)
        else:
            text = read_text_file(Path(args.round), "a round file", MAX_ROUND_BYTES)
        check_structure(text, args.round, toml=False)
    except InputError as exc:
        raise CommandError(str(exc)) from None
    try:
        sheet = settle(profile, read_round(text))
    except RoundError as exc:
        raise CommandError(f"{args.round}: {exc}") from None
    if args.json:
        print(json.dumps(sheet_to_json(sheet), indent=2))
    else:
        print(sheet_text(sheet), end="")
    return 0
