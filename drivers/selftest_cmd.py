"""``dealer-console self-test``: the power-on check on its own, for a technician (exit status
1 on any failure). It lives with the drivers because it starts each configured device."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_console.cli.checks import file_path, seconds


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "self-test", help="check program, configuration, database and devices (exit 1 on any "
                          "failure)",
        description="The console's power-on self-test: every installed file against the "
                    "manifest written when the package was built (its own SHA-256 printed), "
                    "the profile and its paytables (return at or under 100%%), the devices "
                    "file, the database (integrity, migrations, hash chain from the last "
                    "checkpoint, the jackpot's and the staff's records held to their history, "
                    "last round resumable) and each configured device answering. "
                    "docs/install.md explains every line.")
    parser.add_argument("--profile", required=True, help="the table's profile (name or file)")
    parser.add_argument("--db", required=True, type=file_path, help="the table's database")
    parser.add_argument("--devices", type=file_path, default=None, help="the devices file")
    parser.add_argument("--key", default=None, help="the audit key file (default: "
                                                    "$DEALER_CONSOLE_AUDIT_KEY)")
    parser.add_argument("--anchor", type=file_path, default=None,
                        help="the table database's anchor: the database must be the one it "
                             "names (default: $DEALER_CONSOLE_TABLE_ANCHOR; none: not checked)")
    parser.add_argument("--log", type=Path, default=None,
                        help="append the result to this file (the unit uses "
                             "/var/log/dealer-console/self-test.log)")
    parser.add_argument("--wait", type=seconds(0.5, 60.0), default=5.0, metavar="SECONDS",
                        help="how long each device has to answer (default: 5)")
    parser.add_argument("--require-manifest", action="store_true",
                        help="fail when there is no manifest (an installed table PC)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.cli import CommandError
    from dealer_console.selftest import SelfTestInput, run_self_test
    from dealer_console.selftest.table_anchor import anchor_path
    from dealer_console.storage.anchor import AnchorError, key_path, load_key
    from drivers.selftest_probe import probe_devices

    try:
        chosen = key_path(args.key)
        key = load_key(chosen) if chosen is not None else None
    except AnchorError as exc:
        raise CommandError(str(exc)) from None
    report = run_self_test(SelfTestInput(
        profile=args.profile, db=Path(args.db),
        devices=Path(args.devices) if args.devices else None,
        require_manifest=args.require_manifest, audit_key=key,
        table_anchor=Path(args.anchor) if args.anchor else anchor_path()),
        lambda config: probe_devices(config, args.wait))
    for line in report.lines():
        print(line)
    if args.log is not None:
        try:
            report.append_to_log(args.log)
        except OSError as exc:
            raise CommandError(f"{args.log}: cannot write the self-test log: "
                               f"{exc.strerror}", 1) from None
    return 0 if report.ok else 1
