"""``dealer-console pit``: the pit's screen, and the link administrator's and executives'
pit commands (Qt is imported only when the screen opens).

- ``pit`` opens the screen (the pit's login in ``DEALER_CONSOLE_LINK_DSN``);
- ``pit add-login LOGIN --credentials FILE``: the podium's login (the administrator's);
- ``pit staff EMPLOYEE --name ... --role ... --reason ...``: a change to the casino's staff
  list (``--new-card``, ``--new-pin``, ``--disable``), on an executive's card swiped at the
  terminal (``--first``: the administrator's login
  puts the casino's first executive on it, no card, while the list has none);
- ``pit unlock-cards LOGIN --reason ...``: lift a login's lock on card attempts (five refused
  cards in ten minutes lock it; the administrator's login, written with the reason);
- ``pit card-attempts``: the last refused card attempts (who, from which login, when, what);
- ``pit check-staff --db FILE``: every change of a table's staff list said to come from the
  casino's list, held to the server's own log of the list (an administrator's or auditor's
  login; ``dealer_link/pit/staff_check.py``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer_console.cli.checks import label, seconds

if TYPE_CHECKING:
    from dealer_link.server import Connection


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pit", help="the pit's screen on a podium PC; the pit's login and the staff list",
        description="Open the pit's screen (DEALER_CONSOLE_LINK_DSN with the pit's own login, "
        "docs/pit.md), or an administrator's or executive's pit command.")
    parser.add_argument("--full-screen", action="store_true", help="fill the screen")
    parser.add_argument("--quit-after", type=seconds(0.0, 86400.0), default=None,
                        metavar="SECONDS", help="close after SECONDS (smoke tests)")
    actions = parser.add_subparsers(dest="pit_action", metavar="ACTION")
    login = actions.add_parser("add-login", help="make the podium's login (administrator)")
    login.add_argument("login", type=label(63))
    login.add_argument("--credentials", type=Path, required=True,
                       help="the libpq password file to write (mode 0600; must not exist)")
    staff = actions.add_parser("staff", help="add or change someone on the casino's staff "
                               "list, on an executive's card")
    staff.add_argument("employee", type=label(64))
    staff.add_argument("--name", type=label(100), required=True)
    staff.add_argument("--role", choices=("dealer", "supervisor", "technician", "executive"),
                       required=True)
    staff.add_argument("--new-card", action="store_true",
                       help="swipe the employee's card (needed for someone new)")
    staff.add_argument("--disable", action="store_true", help="take the card off (kept listed)")
    staff.add_argument("--new-pin", action="store_true",
                       help="type the employee's new PIN twice (the tables get only its "
                            "hash, with the list; the server keeps its own check of it)")
    staff.add_argument("--executive-pin", action="store_true",
                       help="the executive types their PIN after their card (needed once the "
                            "casino's executives took PINs up at the pit)")
    staff.add_argument("--reason", required=True, type=label(200))
    staff.add_argument("--first", action="store_true",
                       help="the administrator's login, no executive's card: the first "
                            "executive, while the list has no enabled executive; or, with "
                            "--new-pin, an executive's PIN while no executive has one the "
                            "server can check")
    unlock = actions.add_parser("unlock-cards", help="lift a login's lock on card attempts "
                                "(administrator)")
    unlock.add_argument("login", type=label(63))
    unlock.add_argument("--reason", required=True, type=label(200))
    actions.add_parser("card-attempts", help="the last refused card attempts (administrator)")
    check = actions.add_parser("check-staff", help="hold a table's changes of the casino's "
                               "staff list to the server's log of it (administrator, auditor)")
    check.add_argument("--db", type=Path, required=True, help="the table's database (a copy)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.cli import CommandError
    from dealer_link.settings import LinkError, dsn_from_environment

    try:
        dsn = dsn_from_environment()
    except LinkError as exc:
        raise CommandError(str(exc)) from None
    if args.pit_action is None:
        from ui.pit.app import run_pit

        return run_pit(dsn, full_screen=args.full_screen, quit_after=args.quit_after)
    from dealer_console.cli.employees_cmd import read_card, read_one_pin, read_pin
    from dealer_link import server as link_server
    from dealer_link.pit import server

    try:
        with link_server.connect(dsn) as conn:
            if args.pit_action == "add-login":
                server.add_pit_login(conn, args.login, args.credentials)
                print(f"pit login {args.login}: made; its credentials in {args.credentials}")
                return 0
            if args.pit_action == "unlock-cards":
                print(server.unlock_cards(conn, args.login, args.reason))
                return 0
            if args.pit_action == "check-staff":
                return _check_staff(conn, args.db)
            if args.pit_action == "card-attempts":
                for a in server.card_attempts(conn):
                    print(f"{a.at}  {a.login} ({a.caller}): {a.action}: {a.refusal}"
                          f"{'' if a.counts else ' [not counted]'}")
                return 0
            executive = None if args.first else read_card("an executive's card")
            executive_pin = (read_one_pin("the executive's PIN")
                             if args.executive_pin and not args.first else None)
            card = read_card(f"{args.name}'s card") if args.new_card else None
            new_pin = read_pin() if args.new_pin else None
            version = server.set_staff(conn, executive_track=executive,
                                       employee_id=args.employee, name=args.name,
                                       role=args.role, card_track=card,
                                       enabled=not args.disable, reason=args.reason,
                                       pin=new_pin, executive_pin=executive_pin)
    except LinkError as exc:
        raise CommandError(str(exc)) from None
    print(f"staff list: {args.employee} ({args.name}, {args.role}"
          f"{', disabled' if args.disable else ''}{', new PIN' if new_pin else ''}) recorded "
          f"as change {version}")
    return 0


def _check_staff(conn: Connection, path: Path) -> int:
    """Print what the server does not vouch for; 1 when anything."""
    from dealer_console.table_db import open_for_reading
    from dealer_link.pit.staff_check import unvouched

    with open_for_reading(path) as db:
        count, problems = unvouched(db, conn)
    for problem in problems:
        print(f"PROBLEM: {problem}")
    if problems:
        return 1
    print(f"OK: {count} changes of the casino's staff list, each on the server's log")
    return 0
