"""``dealer-console profile check FILE`` and ``profile show NAME``: an operator checks a
casino's profile before it goes on a table, and reads back what a shipped one resolves to."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from dealer_console.cli.checks import file_path


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("profile", help="check or show a table profile")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate a profile file (any path)")
    check.add_argument("file", type=file_path, help="a profile TOML file")
    check.set_defaults(func=run_check)
    show = actions.add_parser("show", help="print a shipped profile, paytables included")
    show.add_argument("name", help="a profile name, e.g. washington-face-up")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=run_show)


def run_check(args: argparse.Namespace) -> int:
    from pathlib import Path

    from dealer_console.math.verdict import bonus_verdicts
    from dealer_console.profiles.loader import load_profile

    profile = load_profile(Path(args.file))
    refused = [v for v in bonus_verdicts(profile) if v.refused is not None]
    for verdict in refused:  # the self-test's verdict, word for word (math/verdict.py)
        print(_red(f"{args.file}: {verdict.key}.paytable: {verdict.refused}; choose another "
                   "paytable"), file=sys.stderr)
    if refused:
        return 1
    for warning in _jackpot_warnings(profile):
        print(f"{args.file}: warning: {warning}", file=sys.stderr)
    print(f"{args.file}: ok ({profile.name}: {profile.title})")
    return 0


def _jackpot_warnings(profile: Any) -> list[str]:
    """Advice the Washington document gives ("Progressive systems flexibility", seed amount):
    a seed below the largest fixed award is allowed but not recommended."""
    from dealer_console.money import format_cents
    from dealer_console.profiles.jackpot_section import largest_fixed_award

    out = []
    for game in profile.jackpots.games if profile.jackpots is not None else ():
        largest = largest_fixed_award(game)
        for level in game.levels:
            if level.seed_cents < largest:
                out.append(f"jackpot game {game.spot}, meter {level.name}: the seed "
                           f"{format_cents(level.seed_cents)} is below the largest fixed award "
                           f"{format_cents(largest)}; the document recommends at least that")
    return out


def _red(text: str) -> str:
    return f"\033[31m{text}\033[0m" if sys.stderr.isatty() else text


def _text(data: dict[str, Any], indent: int = 0) -> list[str]:
    pad = "  " * indent
    out = []
    for key, value in data.items():
        if isinstance(value, dict):
            out.append(f"{pad}{key}:")
            out += _text(value, indent + 1)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out.append(f"{pad}{key}:")
            for item in value:
                out.append(f"{pad}  - " + ", ".join(f"{k}: {v}" for k, v in item.items()))
        else:
            out.append(f"{pad}{key}: {'-' if value is None else value}")
    return out


def run_show(args: argparse.Namespace) -> int:
    import json

    from dealer_console.cli import CommandError
    from dealer_console.config_file import ConfigError
    from dealer_console.profiles.export import profile_to_data
    from dealer_console.profiles.loader import get_profile

    try:
        profile = get_profile(args.name)
    except KeyError as exc:
        raise CommandError(str(exc.args[0])) from None
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    data = profile_to_data(profile)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(_text(data)))
    return 0
