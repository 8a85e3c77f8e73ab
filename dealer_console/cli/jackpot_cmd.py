"""``dealer-console jackpot meters|hits|winpage|audit --db FILE``: the jackpot from a terminal."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import SQLITE_MAX_INT, file_path, label, whole_number


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("jackpot", help="jackpot meters, hits, win pages, audit")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, helptext in (("meters", "what the table's jackpot monitor shows"),
                           ("hits", "confirmed hits, oldest first"),
                           ("audit", "check every meter against its history")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--db", required=True, type=file_path)
    win = sub.add_parser("winpage", help="print (as PDF) the win page of a confirmed award")
    win.add_argument("--db", required=True, type=file_path)
    win.add_argument("hit_id", type=whole_number(1, SQLITE_MAX_INT))
    win.add_argument("--table", default=None, type=label(60),
                     help="the table's name on the page (default: DEALER_CONSOLE_TABLE_ID, "
                          "else the database file's name)")
    win.add_argument("-o", "--output", type=file_path, default=None)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.award_words import local_time
    from dealer_console.cli import read_table_db
    from dealer_console.jackpot.audit import verify_meters
    from dealer_console.jackpot.display import meter_display
    from dealer_console.jackpot.history import hit_history
    from dealer_console.jackpot.hits import get_hit
    from dealer_console.jackpot.win_prints import prints_of
    from dealer_console.money import format_cents
    from dealer_console.table_name import table_name

    # reports and the meter audit never write; the audit checks every page and index first
    db = read_table_db(Path(args.db), full_check=args.action == "audit")
    try:
        if args.action == "meters":
            shown = meter_display(db)
            for game in shown.games:
                meters = ", ".join(f"{m.level} {format_cents(m.cents)}" for m in game.meters)
                print(f"game {game.spot} {game.paytable} ({game.mode}, "
                      f"{format_cents(game.wager_cents)} wager): {meters}")
            if shown.last_hit:
                h = shown.last_hit
                print(f"last hit: game {h.spot} seat {h.seat} {h.line_label} "
                      f"{format_cents(h.amount_cents)} at {local_time(h.confirmed_at)}")
        elif args.action == "hits":
            for hit in hit_history(db):
                print(f"{hit.hit_id} {local_time(hit.confirmed_at)} round {hit.round_id} game "
                      f"{hit.spot} seat {hit.seat} {hit.line_label} "
                      f"{format_cents(hit.amount_cents)} confirmed by {hit.confirmers}")
                if hit.back_out is not None:  # its own line: who, when, why
                    print(f"{hit.hit_id} {hit.back_out.words()}")
                for made in prints_of(db, hit.hit_id):  # each print of its win page
                    print(f"{hit.hit_id} {made.words()}")
        elif args.action == "audit":
            problems = verify_meters(db)
            for problem in problems:
                print(problem)
            print("jackpot meters: " + ("OK" if not problems else f"{len(problems)} problems"))
            return 1 if problems else 0
        else:
            from dealer_console.jackpot.winpage import write_win_page

            hit = get_hit(db, args.hit_id)
            out = Path(args.output) if args.output else Path(f"win-page-{hit.hit_id}.pdf")
            if out.is_dir():
                raise CommandError(f"-o {out}: is a folder; give the PDF file's name")
            print(write_win_page(hit, args.table or table_name(args.db), out))
        return 0
    finally:
        db.close()
