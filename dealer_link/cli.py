"""``dealer-console link ...``: the linked jackpots' server (``docs/link.md``).

The server's address is ``--dsn`` or ``DEALER_CONSOLE_LINK_DSN`` (a libpq address without a
password: libpq reads one from a password file, ``~/.pgpass`` or ``passfile=``). ``init``
creates or upgrades the schema and, with ``--profile``, installs the profile's linked games
seeded; ``add-table`` makes a table's own login and writes its credentials file, and
``table-link`` puts a table on a link or takes it off (a table acts on its links only);
``add-confirmer`` keeps the link's list of who may confirm a linked jackpot; ``thresholds``
and ``adjust`` change a game's thresholds or a meter; ``cards-on-server`` has the server read
each confirmer's card itself; ``rounds-an-hour`` shows, and with a number sets, the most
rounds a table plays in an hour; ``went-back`` lists the tables' "the server went back in
time" claims and acknowledges or grants one; ``accept-wagers`` accepts, from a table's own
database, its wagers the play bound refuses for good (each change with a reason: all of
these need a link administrator's login); ``status`` shows each table's last contact and
what the server has from it; ``audit`` replays every linked meter from its seed (read-only:
the auditor role can run it) and exits 1 when something does not hold.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import file_path, label, profile_ref, whole_number

_ACTIONS = (("init", "create or upgrade the link's schema (and install games)"),
            ("add-table", "make a table's own login and write its credentials file"),
            ("table-link", "put a table on a link (it acts on its links only), or take it off"),
            ("add-confirmer", "let an employee confirm linked jackpots (or no longer)"),
            ("thresholds", "change a linked game's executive threshold and two-person level"),
            ("adjust", "reset a linked meter to its seed, or move it by an amount"),
            ("cards-on-server", "pay off a linked meter only on cards the server reads"),
            ("rounds-an-hour", "show or set the most rounds a table of a link plays in an "
             "hour"),
            ("went-back", "the tables' 'server went back in time' claims; acknowledge or "
             "grant one"),
            ("accept-wagers", "take a table's honest wagers the play bound refuses for good, "
             "from its database"),
            ("status", "each table's last contact and what it sent"),
            ("reconcile", "a table's records beside the server's, every difference named"),
            ("audit", "replay every linked meter from its seed and check it"))


_REASON_FOR_A_CHANGE = ("rounds-an-hour", "went-back")
"""Actions that show without ``--reason`` and change with it."""


def _rounds(text: str) -> int:
    from dealer_console.input_checks import shown
    from dealer_link.server_rounds_an_hour import MOST_ROUNDS_AN_HOUR as most

    value = text.strip()
    if not re.fullmatch(r"[0-9]{1,9}", value) or not 1 <= int(value) <= most:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a number of rounds from 1 to {most} (0 would refuse every "
            f"wager; above {most}, a round every 6 s, no table deals and the bound is gone)")
    return int(value)


def _money(text: str) -> int:
    from dealer_console.money import MoneyError, parse_cents

    negative = text.strip().startswith("-")
    try:
        cents = parse_cents(text.strip().removeprefix("-"))
    except MoneyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return -cents if negative else cents


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("link", help="linked jackpots' server: init, add-table, "
                                   "table-link, add-confirmer, thresholds, adjust, "
                                   "cards-on-server, rounds-an-hour, went-back, "
                                   "accept-wagers, status, reconcile, audit")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, helptext in _ACTIONS:
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--dsn", type=label(1000), default=None,
                       help="the server's address (default: $DEALER_CONSOLE_LINK_DSN)")
        if name not in ("status", "audit", "init", "reconcile"):
            p.add_argument("--reason", type=label(300),
                           required=name not in _REASON_FOR_A_CHANGE,
                           help="why (kept with the change and who made it)")
        if name == "init":
            p.add_argument("--profile", type=profile_ref, default=None,
                           help="install this profile's linked jackpot games")
        elif name == "reconcile":
            p.add_argument("table_db", type=file_path, help="the table's database (TABLE.db)")
        elif name == "add-table":
            p.add_argument("table_id", type=label(64), help="the table's name on the link "
                           "(its DEALER_CONSOLE_TABLE_ID)")
            p.add_argument("--credentials", type=file_path, required=True,
                           help="the credentials file to write (a libpq password file, 0600)")
            p.add_argument("--login", type=label(63), default=None,
                           help="the login's name (default: table-TABLE_ID)")
            p.add_argument("--link", type=label(64), action="append", default=[],
                           dest="links", metavar="LINK",
                           help="a link the table plays (again for each; none for a table "
                           "that only reports to the pit)")
        elif name == "table-link":
            p.add_argument("table_id", type=label(64), help="the table's name on the link")
            p.add_argument("link", type=label(64))
            p.add_argument("--remove", action="store_true",
                           help="take the table off the link")
        elif name == "add-confirmer":
            p.add_argument("employee_id", type=label(64))
            p.add_argument("--name", type=label(100), required=True)
            p.add_argument("--role", choices=("supervisor", "executive"), required=True)
            p.add_argument("--disable", action="store_true",
                           help="they may no longer confirm")
        elif name == "thresholds":
            p.add_argument("link", type=label(64))
            p.add_argument("--executive", type=_money, required=True,
                           help="an award above this needs an executive (\"$10,000\")")
            p.add_argument("--two-person", type=_money, default=None,
                           help="an award above this needs two people (default: never)")
        elif name == "adjust":
            p.add_argument("link", type=label(64))
            p.add_argument("level", type=label(64), help="the meter (main, mega, ...)")
            how = p.add_mutually_exclusive_group(required=True)
            how.add_argument("--reset", action="store_true",
                             help="to its seed plus its reserve")
            how.add_argument("--by", type=_money,
                             help="move it by this amount (--by=-$12.50 takes off)")
        elif name == "cards-on-server":
            p.add_argument("link", type=label(64))
            p.add_argument("--off", action="store_true",
                           help="back to the confirmers' ids the tables send")
        elif name == "rounds-an-hour":
            p.add_argument("link", type=label(64))
            p.add_argument("rounds", type=_rounds, nargs="?", default=None,
                           help="the new bound (with --reason); without it, the bound is "
                           "shown")
        elif name == "accept-wagers":
            p.add_argument("link", type=label(64))
            p.add_argument("table_id", type=label(64), help="the table whose wagers they are")
            p.add_argument("table_db", type=file_path,
                           help="the table's database (TABLE.db): its outbox is the evidence")
        elif name == "went-back":
            p.add_argument("link", type=label(64), nargs="?", default=None,
                           help="the link (default: every link's claims are listed)")
            p.add_argument("table_id", type=label(64), nargs="?", default=None,
                           help="the table whose claim is reviewed")
            p.add_argument("hit", type=whole_number(1, 2**63 - 1), nargs="?", default=None,
                           help="the hit number it claims to have recorded")
            how = p.add_mutually_exclusive_group()
            how.add_argument("--acknowledge", action="store_true",
                             help="a claim the server took, looked at: link audit no longer "
                             "names it")
            how.add_argument("--grant", action="store_true",
                             help="a claim the server refused, taken: the hit numbers go on "
                             "after it and the table's link comes back")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import psycopg

    from dealer_link import server
    from dealer_link.settings import dsn_from_environment

    games = _linked_games(args.profile) if args.action == "init" else []  # before the network
    _reason_only_for_a_change(args)
    conn = server.connect(dsn_from_environment(args.dsn))
    try:
        return _act(conn, args, games)
    except psycopg.Error as exc:
        first = (exc.diag.message_primary or str(exc).strip() or type(exc).__name__)
        raise CommandError(f"the link server refused: {first.splitlines()[0]}") from None
    finally:
        conn.close()


def _act(conn: Any, args: argparse.Namespace, games: list[Any]) -> int:
    from pathlib import Path

    from dealer_console.money import format_cents
    from dealer_link import admin

    if args.action == "init":
        return _init(conn, games)
    if args.action == "status":
        return _status(conn)
    if args.action == "audit":
        return _audit(conn)
    _need_schema(conn)
    if args.action == "reconcile":
        from dealer_link.reconcile import reconcile

        found = reconcile(conn, Path(args.table_db))
        for line in found:
            print(line)
        print(f"{args.table_db}: " + ("the same as the server" if not found
                                      else f"{len(found)} differences"))
        return 1 if found else 0
    if args.action == "add-table":
        login = admin.add_table(conn, args.table_id, Path(args.credentials),
                                login=args.login, links=args.links, reason=args.reason)
        print(f"table {args.table_id}: login {login}, its password in {args.credentials} "
              "(mode 0600); the table's address names them: user=" + login
              + f" passfile={args.credentials}")
        links = ", ".join(dict.fromkeys(args.links))
        print(f"table {args.table_id}: " + (f"on link {links}" if links
                                           else "on no link (it reports to the pit only)"))
    elif args.action == "table-link":
        changed = admin.set_table_link(conn, args.table_id, args.link, not args.remove,
                                       reason=args.reason)
        state = "off" if args.remove else "on"
        print(f"table {args.table_id}: {state} link {args.link}"
              + ("" if changed else " already (nothing changed)"))
    elif args.action == "add-confirmer":
        admin.set_confirmer(conn, args.employee_id, args.name, args.role,
                            enabled=not args.disable, reason=args.reason)
        print(f"{args.employee_id} ({args.name}, {args.role}) "
              + ("may no longer confirm" if args.disable else "may confirm")
              + " linked jackpots")
    elif args.action == "thresholds":
        admin.set_thresholds(conn, args.link, executive_cents=args.executive,
                             two_person_cents=args.two_person, reason=args.reason)
        print(f"link {args.link}: executive threshold {format_cents(args.executive)}, "
              "two-person level " + ("none" if args.two_person is None
                                      else format_cents(args.two_person)))
    elif args.action == "cards-on-server":
        admin.set_cards_on_server(conn, args.link, not args.off, reason=args.reason)
        print(f"link {args.link}: " + (
            "hits paid on the confirmers' ids the tables send" if args.off else
            "hits off the meter paid only on cards the server reads (every table of the "
            "link keeps the casino's staff list: DEALER_CONSOLE_STAFF=casino)"))
    elif args.action == "rounds-an-hour":
        _rounds_an_hour(conn, args)
    elif args.action == "went-back":
        _went_back(conn, args)
    elif args.action == "accept-wagers":
        _accept_wagers(conn, args)
    else:
        after = admin.adjust(conn, args.link, args.level, reset=args.reset,
                             delta_micro=(args.by or 0) * 1_000_000, reason=args.reason)
        print(f"link {args.link} meter {args.level}: now {format_cents(after // 1_000_000)}")
    return 0


def _reason_only_for_a_change(args: argparse.Namespace) -> None:
    """An action that shows or changes: a change needs ``--reason``, and a reason given with
    nothing to change is a slip (the new value left out), refused before the network."""
    if args.action not in _REASON_FOR_A_CHANGE:
        return
    if args.action == "went-back":
        changes = args.acknowledge or args.grant
        if changes and args.hit is None:
            raise CommandError("name the claim: LINK TABLE HIT (as \"link went-back\" lists "
                               "it, or as the table's refusal says it): nothing changed")
        if not changes and args.table_id is not None:
            raise CommandError("say what to do with the claim: --acknowledge (the server took "
                               "it) or --grant (the server refused it): nothing changed")
    else:
        changes = args.rounds is not None
    if changes and args.reason is None:
        raise CommandError("a change needs --reason (why; kept with the change and who made "
                           "it): nothing changed")
    if not changes and args.reason is not None:
        raise CommandError("--reason is for a change, and none is named (the number of rounds, "
                           "or --acknowledge or --grant, is missing?): nothing changed")


def _rounds_an_hour(conn: Any, args: argparse.Namespace) -> None:
    from dealer_link import admin
    from dealer_link.server_rounds_an_hour import WAGERS_A_ROUND

    if args.rounds is None:
        rounds = admin.rounds_an_hour(conn, args.link)
        print(f"link {args.link}: a table plays at most {rounds} rounds an hour (one table's "
              f"login may add at most {rounds * WAGERS_A_ROUND:,} jackpot wagers an hour)")
        return
    was = admin.set_rounds_an_hour(conn, args.link, args.rounds, reason=args.reason)
    print(f"link {args.link}: a table plays at most {args.rounds} rounds an hour"
          + (" already (nothing changed)" if was == args.rounds else f" (was {was})"))


def _went_back(conn: Any, args: argparse.Namespace) -> None:
    from dealer_link import went_back_claims

    if args.hit is None:
        found = went_back_claims.claims(conn, args.link)
        for claim in found:
            print(went_back_claims.said(claim))
        where = "" if args.link is None else f" on link {args.link}"
        if not found:
            print(f"no table has said the link server went back in time{where}")
            return
        audited = sum(claim.audited for claim in found)
        unseen = sum(claim.verdict is None for claim in found)
        print(f"{len(found)} claims{where}, {unseen} not looked at"
              + (f" ({audited} named by link audit)" if audited else ""))
        return
    reached = went_back_claims.review(conn, args.link, args.table_id, args.hit,
                                      grant=args.grant, reason=args.reason)
    what = f"link {args.link} table {args.table_id}: its claim of hit number {args.hit}"
    if args.grant:
        print(f"{what} granted; the hit numbers go on after {max(args.hit, reached)} (they "
              f"stood at {reached}), and the table's next hello is taken")
    else:
        print(f"{what} acknowledged; link audit no longer names it")


def _accept_wagers(conn: Any, args: argparse.Namespace) -> None:
    from pathlib import Path

    from dealer_console.money import format_cents
    from dealer_link.accept_wagers import accept

    done = accept(conn, args.link, args.table_id, Path(args.table_db), reason=args.reason)
    who = f"link {args.link} table {args.table_id}"
    if not done.owed:
        print(f"{who}: the server holds every wager in {args.table_db}: nothing to accept")
        return
    rounds = [o.round_id for o in done.owed]
    before = len(done.owed) - done.accepted
    print(f"{who}: {len(done.owed):,} wagers "
          f"({format_cents(sum(o.wager_cents for o in done.owed))}) of rounds {min(rounds)} to "
          f"{max(rounds)}, taken {done.owed[0].taken_at} to {done.owed[-1].taken_at} by the "
          "table's clock, accepted past the play bound"
          + (f" ({before:,} of them before)" if before else "")
          + "; the table's sender delivers them at its next try")
    if done.left:
        print(f"{who}: {done.left:,} more wait: run this again once the table has delivered "
              "these")


def _linked_games(profile_text: str | None) -> list[Any]:
    """The linked games of ``--profile`` (none without it); a bad profile is one line."""
    if profile_text is None:
        return []
    from dealer_console.config_file import ConfigError
    from dealer_console.profiles.loader import find_profile

    try:
        profile = find_profile(profile_text)
    except KeyError as exc:
        raise CommandError(str(exc.args[0])) from None
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    games = [g for g in (profile.jackpots.games if profile.jackpots else ()) if g.linked]
    if not games:
        raise CommandError(f"profile {profile.name} has no linked jackpot game "
                           "(linked = \"NAME\" in its jackpot section)")
    return games


def _init(conn: Any, games: list[Any]) -> int:
    from dealer_link import server, server_schema

    applied = server_schema.apply(conn)
    print("link schema: " + (f"applied {', '.join(applied)}" if applied else "up to date"))
    from dealer_link.pit import server as pit_server  # the pit's part (docs/pit.md)

    print("pit schema: " + ("applied" if pit_server.apply(conn) else "up to date"))
    for game in games:
        assert game.linked is not None
        new = server.install_game(conn, game.linked, game, actor="link init")
        print(f"link {game.linked}: {game.paytable.name} "
              + ("installed, meters at their seeds" if new else "already installed, the same"))
    return 0


def _need_schema(conn: Any) -> None:
    import psycopg

    from dealer_link import server_schema

    try:
        missing = server_schema.pending(conn)
    except psycopg.errors.InsufficientPrivilege:
        who = conn.info.user
        raise CommandError(f"the login {who} may not do this: it is not a link administrator "
                           "or auditor (a table's login reaches the link only through its "
                           "console)") from None
    if missing:
        raise CommandError("the link's schema is missing or older than this console "
                           f"({', '.join(missing)} not applied): run 'dealer-console link init'")


def _status(conn: Any) -> int:
    from dealer_console.money import format_cents
    from dealer_link.display import link_status

    _need_schema(conn)
    for link in link_status(conn):
        meters = ", ".join(f"{m.level} {format_cents(m.cents)}" for m in link.meters)
        print(f"link {link.link} ({link.paytable}): {meters}")
        for t in link.tables:
            print(f"  table {t.table_id}: last contact {t.last_contact}, {t.wagers} wagers "
                  f"({format_cents(t.wagered_cents)}), {t.hits} hits"
                  + ("" if t.table_id in link.on_link else "; taken off the link since"))
        if not link.tables:
            print("  no table has reached this link yet")
        print("  tables on the link: " + (", ".join(link.on_link) or
                                           "none (dealer-console link table-link)"))
        for said in link.went_back:
            print(f"  {said}")
    return 0


def _audit(conn: Any) -> int:
    from dealer_link.audit import verify

    _need_schema(conn)
    problems = verify(conn)
    for problem in problems:
        print(problem)
    print("link meters: " + ("OK" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0
