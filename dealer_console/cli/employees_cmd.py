"""``dealer-console employees setup|add|disable|enable|role|recard|pin|list --db FILE``: the staff
list of a table database (who may confirm jackpot awards).

Every change but the one-time ``setup`` is authorised by an executive's card, and the
authoriser is whoever swiped it. All card data comes from standard input (a reader that types
into the terminal, or a line of track data), never from an argument, so it stays out of shell
history and process lists: first the authorising executive's card, then, for ``add`` and
``recard``, the employee's new card, one per line; for ``pin``, the new PIN twice (hidden on a
terminal), never an argument either.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import file_path, label, pin

if TYPE_CHECKING:
    from collections.abc import Callable

    from sqlite_utils import Database

    from dealer_console.employees.changes import Change
    from dealer_console.employees.registry import Employee

ROLES = ("dealer", "supervisor", "executive", "technician")
_LINE_MAX = 256
"""Longest line read for a card (track 2 is at most 37 characters)."""

_EXECUTIVE = "the authorising executive's card"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "employees", help="manage employees and their cards",
        description="Every change but setup needs an executive's card on standard input.")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    pin_line = ("Where the table's jackpot confirmations take a PIN, the executive's own PIN "
                "follows (once any executive has had one): the line after their card, or for pin "
                "after the new PIN's two lines.")

    def command(name: str, helptext: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(
            name, help=helptext,
            description=helptext + ("" if name in ("setup", "list") else ". " + pin_line))
        p.add_argument("--db", required=True, type=file_path, help="the table database file")
        return p

    setup = command("setup", "put the table's first executive on file, once: their card is "
                    "read from stdin; refused once any executive was ever on file")
    setup.add_argument("employee_id", type=label(64))
    setup.add_argument("name", type=label(200))
    add = command("add", "register an employee: stdin gives an executive's card, then the "
                  "new employee's card")
    add.add_argument("employee_id", type=label(64))
    add.add_argument("name", type=label(200))
    add.add_argument("role", choices=ROLES)
    for name, helptext in (("disable", "stop an employee's card from working"),
                           ("enable", "let a disabled employee's card work again")):
        p = command(name, f"{helptext}: stdin gives an executive's card")
        p.add_argument("employee_id", type=label(64))
        p.add_argument("--reason", default=None, type=label(500))
    role = command("role", "give an employee another role: stdin gives an executive's card "
                   "(not the employee's own)")
    role.add_argument("employee_id", type=label(64))
    role.add_argument("role", choices=ROLES)
    role.add_argument("--reason", default=None, type=label(500))
    recard = command("recard", "give an employee a new card: stdin gives an executive's card, "
                     "then the new card")
    recard.add_argument("employee_id", type=label(64))
    pin_cmd = command("pin", "set or change an employee's PIN (4 to 8 digits): stdin gives an "
                      "executive's card, then the new PIN twice")
    pin_cmd.add_argument("employee_id", type=label(64))
    command("list", "list employees (never their cards)")
    parser.set_defaults(func=run)


def _hidden_line(prompt: str, missing: str) -> str:
    """One line from standard input: a hidden prompt on a terminal (never echoed), else the
    next line; ``missing``: the refusal when standard input has ended."""
    if sys.stdin.isatty():
        return getpass.getpass(f"{prompt}: ")
    line = sys.stdin.readline(_LINE_MAX)
    if not line:
        raise CommandError(missing)
    return line


def read_card(what: str) -> str:
    """One card from standard input: a hidden prompt on a terminal, else the next line.
    A reader's start and end sentinels (``;`` and ``?``) are dropped."""
    track = _hidden_line(f"swipe {what} (or type its data)",
                         f"no card data on standard input for {what}").strip()
    if track.startswith(";"):
        track = track[1:]
    if track.endswith("?"):
        track = track[:-1]
    return track


def read_one_pin(prompt: str) -> str:
    """One PIN from standard input (hidden on a terminal), checked; never echoed."""
    line = _hidden_line(prompt, f"no PIN on standard input for {prompt}")
    try:
        return pin(line.strip())
    except argparse.ArgumentTypeError as exc:
        raise CommandError(f"{prompt}: {exc}") from None


def read_pin() -> str:
    """The new PIN, typed twice (hidden on a terminal), checked and compared; never echoed."""
    typed = [read_one_pin(prompt) for prompt in ("the new PIN", "the same PIN again")]
    if typed[0] != typed[1]:
        raise CommandError("the two PINs differ; nothing was changed")
    return typed[0]


def run(args: argparse.Namespace) -> int:
    from dealer_console.storage.connection import StorageError
    from dealer_console.table_db import open_table_db

    if args.action == "list":
        return _list(args)
    if args.action != "setup" and not Path(args.db).is_file():
        raise CommandError(f"--db {args.db}: no such table database (the first executive is "
                           "put on file with employees setup)")
    if args.action == "pin":  # read and checked before the database is opened
        args.by_track = _checked(read_card(_EXECUTIVE), _EXECUTIVE)
        args.new_pin = read_pin()
    try:
        # the registry lives in the table's own database; only the set-up may create it
        db = open_table_db(args.db, create=args.action == "setup")
    except (StorageError, OSError) as exc:
        raise CommandError(str(exc)) from None
    try:
        change = _change(db, args)
    finally:
        db.close()
    e = change.employee
    line = (f"{args.action}: {e.employee_id} {e.name} ({e.role.value}, "
            f"{'enabled' if e.enabled else 'disabled'})")
    if args.action == "pin":
        line += ", PIN set"
    if change.authorised_by is not None:
        by = change.authorised_by
        line += f", authorised by {by.name} ({by.employee_id})"
    print(line)
    return 0


def _change(db: Database, args: argparse.Namespace) -> Change:
    from dealer_console.employees import changes
    from dealer_console.employees.authorize import Refused
    from dealer_console.employees.registry import Role

    if args.action == "setup":
        card = _checked(read_card("the new executive's card"), "the new executive's card")
        return changes.setup(db, args.employee_id, args.name, card,
                             actor=f"setup from login {getpass.getuser()}")
    if args.action == "pin":
        from dealer_console.employees.pins import set_pin

        try:
            _executive_pin(db, args.by_track, f"set the PIN of employee {args.employee_id}",
                           lambda who: read_one_pin(f"{who.name}'s own PIN"))
            return set_pin(db, args.by_track, args.employee_id, args.new_pin)
        except Refused as exc:
            raise CommandError(f"swipe refused (logged): {exc}") from None
    by = _checked(read_card(_EXECUTIVE), _EXECUTIVE)
    try:
        _executive_pin(db, by, f"staff change: {args.action} {args.employee_id}",
                       lambda who: read_one_pin(f"{who.name}'s PIN"))
        if args.action == "add":
            card = _checked(read_card("the new employee's card"), "the new employee's card")
            return changes.add(db, by, args.employee_id, args.name, Role(args.role), card)
        if args.action == "recard":
            card = _checked(read_card("the new card"), "the new card")
            return changes.recard(db, by, args.employee_id, card)
        if args.action == "role":
            return changes.change_role(db, by, args.employee_id, Role(args.role),
                                       reason=args.reason or "")
        return changes.set_enabled(db, by, args.employee_id, args.action == "enable",
                                   reason=args.reason or "")
    except Refused as exc:
        raise CommandError(f"swipe refused (logged): {exc}") from None


def _pin_asked_of(db: Database, track: str) -> Employee | None:
    """The executive whose PIN must follow their card here, as the console's card prompt asks
    it (``pins.executive_pin_needed``). Any other card is left to the change's own check."""
    from dealer_console.employees import pins
    from dealer_console.employees.registry import find_by_card
    from dealer_console.jackpot import games

    who = find_by_card(db, track)
    if who is None or not who.enabled:
        return None
    return who if pins.executive_pin_needed(db, who, games.pins_in_force(db)) else None


def _executive_pin(db: Database, track: str, action: str,
                   typed: Callable[[Employee], str]) -> None:
    """The executive's PIN (``typed``: the line after the card) where it is asked: refused
    (and logged) when none is on file or it is locked, a wrong one logged and counted towards
    the lock. An outside review changed the staff list from this command with a locked
    executive's card alone."""
    from dealer_console.jackpot import confirm_rules

    who = _pin_asked_of(db, track)
    if who is None:
        return
    confirm_rules.pin_may_follow(db, who, action)
    confirm_rules.check_pin(db, confirm_rules.PinTry(who, action), typed(who), "the change")


def _checked(track: str, what: str) -> str:
    from dealer_console.employees.registry import RegistryError, check_track

    try:
        return check_track(track)
    except RegistryError as exc:
        raise CommandError(f"{what}: {exc}") from None


def _list(args: argparse.Namespace) -> int:
    import sqlite3

    from dealer_console.cli import read_table_db
    from dealer_console.employees.registry import list_employees

    db = read_table_db(args.db)  # a listing writes nothing
    try:
        employees = list_employees(db)
    except sqlite3.Error as exc:
        raise CommandError(f"--db {args.db}: no employee registry ({exc})") from None
    finally:
        db.close()
    print(f"{'id':<12} {'role':<11} {'state':<9} name")
    for e in employees:
        state = "enabled" if e.enabled else "disabled"
        print(f"{e.employee_id:<12} {e.role.value:<11} {state:<9} {e.name}")
    return 0
