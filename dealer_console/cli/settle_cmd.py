"""``dealer-console settle ROUND.json --profile NAME [--json]``: the dealer's payout sheet for
one round (format: ``docs/round-format.md``). A malformed round is refused with the reason and
the place in the file, and nothing is printed as settled."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("settle", help="settle a round from a ROUND.json file")
    parser.add_argument("round", help="the round file (ROUND.json format), or - for stdin")
    parser.add_argument("--profile", required=True, help="table profile name or TOML file")
    parser.add_argument("--json", action="store_true", help="print the sheet as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path

    from dealer_console.cli import CommandError
    from dealer_console.profiles.loader import get_profile, load_profile
    from dealer_console.profiles.schema import ConfigError
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
    try:
        text = sys.stdin.read() if args.round == "-" else Path(args.round).read_text("utf-8")
    except OSError as exc:
        raise CommandError(f"{args.round}: cannot read: {exc.strerror}") from None
    try:
        sheet = settle(profile, read_round(text))
    except RoundError as exc:
        raise CommandError(f"{args.round}: {exc}") from None
    if args.json:
        print(json.dumps(sheet_to_json(sheet), indent=2))
    else:
        print(sheet_text(sheet), end="")
    return 0
