"""``dealer-console audit verify|init-key|checkpoint``: prove a table database is what the table
wrote (exit status 1 when anything is wrong), make the audit key once, and anchor the chain's
head outside the file (``docs/storage.md``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import file_path

if TYPE_CHECKING:
    from dealer_console.storage.anchor import Checkpoint

_KEY_HELP = ("the audit key file (default: $DEALER_CONSOLE_AUDIT_KEY); made once by "
             "`audit init-key`")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("audit", help="audit a table database")
    actions = parser.add_subparsers(dest="audit_action", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify", help="check the chain, the rules and every table; exit 1 on any problem",
        description="Checks the event log's hash chain and its checkpoints, money conserved "
                    "per line and per round, every wager settled once, every settlement "
                    "recomputed from the cards, and every table rebuilt from the event log.")
    verify.add_argument("--db", required=True, type=file_path, help="the table's database file")
    verify.add_argument("--key", default=None, help=_KEY_HELP)
    verify.add_argument("--journal", type=Path, default=None,
                        help="the checkpoint journal (default: the database's name + "
                             ".checkpoints, when there is one)")
    verify.add_argument("--digest", action="append", default=[], metavar="LINE",
                        help="a checkpoint digest line from a shift report (repeatable)")
    verify.add_argument("--profile", action="append", default=[], type=Path, metavar="TOML",
                        help="a casino profile file the rounds were played under (repeatable; "
                             "shipped profiles need none)")
    verify.set_defaults(func=run_verify)
    init = actions.add_parser(
        "init-key", help="make the audit key file (once; never replaced)",
        description="Writes 32 random bytes, readable by the owner only. Keep the file beside "
                    "the console's configuration, outside the database's folder and backups.")
    init.add_argument("--key", default=None, help="where to write it (default: "
                                                  "$DEALER_CONSOLE_AUDIT_KEY)")
    init.set_defaults(func=run_init_key)
    point = actions.add_parser(
        "checkpoint", help="anchor the chain's head now: add it to the journal and print the "
                           "digest line for the shift report")
    point.add_argument("--db", required=True, type=Path, help="the table's database file")
    point.add_argument("--key", default=None, help=_KEY_HELP)
    point.add_argument("--journal", type=Path, default=None,
                       help="the checkpoint journal (default: beside the database)")
    point.set_defaults(func=run_checkpoint)


def _key(option: str | None, required: bool = False) -> bytes | None:
    from dealer_console.storage.anchor import key_path, load_key

    path = key_path(option)
    if path is None:
        if required:
            raise CommandError("no audit key: give --key FILE or set DEALER_CONSOLE_AUDIT_KEY")
        return None
    return load_key(path)


def run_verify(args: argparse.Namespace) -> int:
    from dealer_console.audit.verify import audit
    from dealer_console.cli import read_table_db
    from dealer_console.profiles.loader import load_profile
    from dealer_console.storage.anchor import journal_for, parse, read_journal

    key = _key(args.key)
    profiles = [load_profile(path) for path in args.profile]
    journal = args.journal or journal_for(args.db)
    checkpoints = read_journal(journal) if (args.journal or journal.is_file()) else []
    checkpoints += [parse(line, f"digest {n}") for n, line in enumerate(args.digest, 1)]
    # an audit never changes what it audits, and checks every page and index first
    db = read_table_db(Path(args.db), full_check=True)
    try:
        report = audit(db, checkpoints=checkpoints, key=key, profiles=profiles)
    finally:
        db.close()
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    verdict = "OK" if report.ok else f"FAILED ({len(report.problems)} problems)"
    print(f"{verdict}: {report.events} events, {report.rounds} rounds, "
          f"{report.lines} settlement lines checked")
    for note in report.notes:
        print(f"NOTE: {note}")
    return 0 if report.ok else 1


def run_init_key(args: argparse.Namespace) -> int:
    from dealer_console.storage.anchor import create_key, key_path

    path = key_path(args.key)
    if path is None:
        raise CommandError("where? give --key FILE or set DEALER_CONSOLE_AUDIT_KEY")
    create_key(path)
    print(f"audit key written to {path} (owner read/write only); keep a sealed copy with the "
          "audit department, never beside the database or its backups")
    return 0


def run_checkpoint(args: argparse.Namespace) -> int:
    from dealer_console.cli import read_table_db
    from dealer_console.storage import anchor
    from dealer_console.storage.eventlog import verify_chain

    key = _key(args.key)
    journal = args.journal or anchor.journal_for(args.db)
    db = read_table_db(args.db)
    try:
        broken = verify_chain(db)
        if broken:
            raise CommandError(f"{args.db}: the hash chain is broken ({broken[0]}); run audit "
                               "verify: a broken chain is not anchored", 1)
        # a log the journal already shows rewritten or cut back is not signed again: an
        # outside review had a new, keyed checkpoint (and its digest for the shift report)
        # made for such a log, which a journal with its earlier lines removed would then back
        held = anchor.check(db, _journal_lines(journal), key)
        if held.problems:
            raise CommandError(f"{args.db}: the log does not match its checkpoint journal "
                               f"({held.problems[0]}); run audit verify: such a log is not "
                               "anchored", 1)
        checkpoint = anchor.take(db, key)
    finally:
        db.close()
    try:
        anchor.append(journal, checkpoint)
    except OSError as exc:
        raise CommandError(f"{journal}: cannot write the checkpoint: {exc.strerror}") from None
    print(checkpoint.digest())
    if key is None:
        print("(no audit key: this checkpoint carries no MAC)")
    return 0


def _journal_lines(journal: Path) -> list[Checkpoint]:
    """The journal's checkpoints (none when it is not there yet: a table's first; nor through
    a symbolic link, which the append then refuses, saying what to do)."""
    from dealer_console.storage import anchor

    if journal.is_symlink() or not journal.is_file():
        return []
    try:
        return anchor.read_journal(journal)
    except anchor.AnchorError as exc:
        raise CommandError(f"{exc}; run audit verify: nothing is anchored to a journal that "
                           "cannot be read", 1) from None
