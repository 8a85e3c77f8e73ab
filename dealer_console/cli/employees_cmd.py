"""``dealer-console employees add|disable|enable|recard|list --db FILE``: the casino
administrator's tool for the employee registry (who may confirm jackpot awards).

Card data is read from standard input (a swipe into the terminal, or typed), never from the
command line, so it stays out of shell history and process lists.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import file_path, label

ROLES = ("dealer", "supervisor", "executive", "technician")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("employees", help="manage employees and their cards")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--db", required=True, type=file_path, help="the table database file")
        p.add_argument("--by", default=None, type=label(64),
                       help="who makes the change (default: login name)")

    add = sub.add_parser("add", help="register an employee; the card is read from stdin")
    common(add)
    add.add_argument("employee_id", type=label(64))
    add.add_argument("name", type=label(200))
    add.add_argument("role", choices=ROLES)
    for name, helptext in (("disable", "stop an employee's card from working"),
                           ("enable", "let a disabled employee's card work again")):
        p = sub.add_parser(name, help=helptext)
        common(p)
        p.add_argument("employee_id", type=label(64))
        p.add_argument("--reason", default=None, type=label(500))
    recard = sub.add_parser("recard", help="give an employee a new card (read from stdin)")
    common(recard)
    recard.add_argument("employee_id", type=label(64))
    lst = sub.add_parser("list", help="list employees (never their cards)")
    common(lst)
    parser.set_defaults(func=run)


def _track() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("swipe the card (or type its data): ").strip()
    return sys.stdin.readline(1024).strip()  # a card's track is under 110 characters


def run(args: argparse.Namespace) -> int:
    from dealer_console.cli import read_table_db
    from dealer_console.employees import registry
    from dealer_console.employees.registry import RegistryError, Role
    from dealer_console.storage.connection import open_table_db

    actor = args.by or getpass.getuser()
    # The registry lives in the table's own database, which the console creates: a change
    # needs the file to exist (and takes the writer's lock); the list only reads it.
    db = (read_table_db(args.db) if args.action == "list"
          else open_table_db(args.db, create=False))
    try:
        if args.action == "list":
            print(f"{'id':<12} {'role':<11} {'state':<9} name")
            for e in registry.list_employees(db):
                state = "enabled" if e.enabled else "disabled"
                print(f"{e.employee_id:<12} {e.role.value:<11} {state:<9} {e.name}")
            return 0
        if args.action == "add":
            e = registry.add(db, args.employee_id, args.name, Role(args.role), _track(),
                             actor=actor)
        elif args.action == "recard":
            e = registry.recard(db, args.employee_id, _track(), actor=actor)
        else:
            e = registry.set_enabled(db, args.employee_id, args.action == "enable",
                                     actor=actor, reason=args.reason or "")
        print(f"{args.action}: {e.employee_id} {e.name} ({e.role.value}, "
              f"{'enabled' if e.enabled else 'disabled'})")
        return 0
    except RegistryError as exc:
        raise CommandError(str(exc)) from None
    finally:
        db.close()
