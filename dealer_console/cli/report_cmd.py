"""``dealer-console report --db table.db --from T --to T [--pdf FILE]``: the shift report."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import file_path, moment


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report", help="the shift report over a time range, on screen and as a PDF",
        description="The shift report: rounds, drop by wager kind, paid out, hold, commission "
                    "and fees, misdeals, voids, supervisor interventions and card swipes, "
                    "jackpot hits and the win pages printed, for the rounds ended from --from "
                    "up to --to (times in ISO 8601, UTC unless a zone is given). Reads the "
                    "database only.")
    parser.add_argument("--db", required=True, type=file_path, help="the table's database file")
    parser.add_argument("--from", dest="start", required=True, type=moment,
                        help="the range's start, e.g. 2026-11-23T18:00")
    parser.add_argument("--to", dest="end", required=True, type=moment,
                        help="the range's end (not included)")
    parser.add_argument("--pdf", type=file_path, help="also write the report to this PDF file")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_console.award_words import local_time
    from dealer_console.cli import read_table_db
    from dealer_console.reports.shift import detail_lines, shift_report, summary_lines
    from dealer_console.reports.shift_pdf import write_shift_pdf
    from dealer_console.table_name import table_name

    if args.end <= args.start:
        raise CommandError(f"--to ({args.end}) must be later than --from ({args.start})")
    pdf = Path(args.pdf) if args.pdf else None
    if pdf is not None and pdf.is_dir():
        raise CommandError(f"--pdf {pdf} is a folder, not a file to write")
    if pdf is not None and not pdf.parent.is_dir():
        raise CommandError(f"--pdf {pdf}: the folder {pdf.parent} does not exist")
    if pdf is not None and pdf.suffix.lower() != ".pdf":
        raise CommandError(f"--pdf {pdf}: name the file with .pdf at the end")
    db = read_table_db(Path(args.db))
    report = shift_report(db, args.start, args.end)
    if pdf is not None:
        write_shift_pdf(report, table_name(args.db), pdf)
    if args.json:
        out = asdict(report)
        out.update(drop_cents=report.drop_cents, paid_cents=report.paid_cents,
                   hold_cents=report.hold_cents, hold_basis_points=report.hold_basis_points,
                   fees_cents=report.fees_cents, jackpot_cents=report.jackpot_cents)
        print(json.dumps(out, indent=2))
    else:
        print(f"Shift report of table {table_name(args.db)}, rounds ended from "
              f"{local_time(report.start)} to {local_time(report.end)}")
        width = max(len(label) for label, _ in summary_lines(report))
        for label, value in summary_lines(report):
            print(f"  {label:{width}}  {value}")
        for line in detail_lines(report):
            print(f"  {line}")
        if pdf is not None:
            print(f"PDF written to {pdf}")
    return 0
