"""``dealer-console link init|status|audit``: the linked jackpots' server (``docs/link.md``).

The server's address is ``--dsn`` or ``DEALER_CONSOLE_LINK_DSN`` (a libpq address without a
password: libpq reads one from ``~/.pgpass``). ``init`` creates or upgrades the schema and, with
``--profile``, installs the profile's linked games seeded; ``status`` shows each table's last
contact and what the server has from it; ``audit`` proves every linked meter from its history
(read-only: the auditor role can run it) and exits 1 when something does not hold.
"""

from __future__ import annotations

import argparse
from typing import Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import label, profile_ref


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("link", help="linked jackpots' server: init, status, audit")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, helptext in (("init", "create or upgrade the link's schema (and install games)"),
                           ("status", "each table's last contact and what it sent"),
                           ("audit", "prove every linked meter from its history")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--dsn", type=label(1000), default=None,
                       help="the server's address (default: $DEALER_CONSOLE_LINK_DSN)")
        if name == "init":
            p.add_argument("--profile", type=profile_ref, default=None,
                           help="install this profile's linked jackpot games")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.link import server
    from dealer_console.link.settings import LinkError, dsn_from_environment

    games = _linked_games(args.profile) if args.action == "init" else []  # before the network
    try:
        dsn = dsn_from_environment(args.dsn)
        conn = server.connect(dsn)
    except LinkError as exc:
        raise CommandError(str(exc)) from None
    try:
        if args.action == "init":
            return _init(conn, games)
        if args.action == "status":
            return _status(conn)
        return _audit(conn)
    except LinkError as exc:
        raise CommandError(str(exc)) from None
    finally:
        conn.close()


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
    from dealer_console.link import server, server_schema

    applied = server_schema.apply(conn)
    print("link schema: " + (f"applied {', '.join(applied)}" if applied else "up to date"))
    for game in games:
        assert game.linked is not None
        new = server.install_game(conn, game.linked, game, actor="link init")
        print(f"link {game.linked}: {game.paytable.name} "
              + ("installed, meters at their seeds" if new else "already installed, the same"))
    return 0


def _need_schema(conn: Any) -> None:
    from dealer_console.link import server_schema

    missing = server_schema.pending(conn)
    if missing:
        raise CommandError("the link's schema is missing or older than this console "
                           f"({', '.join(missing)} not applied): run 'dealer-console link init'")


def _status(conn: Any) -> int:
    from dealer_console.link.display import link_status
    from dealer_console.money import format_cents

    _need_schema(conn)
    for link in link_status(conn):
        meters = ", ".join(f"{m.level} {format_cents(m.cents)}" for m in link.meters)
        print(f"link {link.link} ({link.paytable}): {meters}")
        for t in link.tables:
            print(f"  table {t.table_id}: last contact {t.last_contact}, {t.wagers} wagers "
                  f"({format_cents(t.wagered_cents)}), {t.hits} hits")
        if not link.tables:
            print("  no table has reached this link yet")
    return 0


def _audit(conn: Any) -> int:
    from dealer_console.link.audit import verify

    _need_schema(conn)
    problems = verify(conn)
    for problem in problems:
        print(problem)
    print("link meters: " + ("OK" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0
