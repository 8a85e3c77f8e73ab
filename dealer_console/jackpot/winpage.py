"""The win page of a confirmed award: what the money-bag button prints for accounting.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 f: pressing the money
bag prints a win page that helps record the payout. It names the table, round, seat, hand,
paytable line, amount (off the meter and from the tray), the meter before and after, who
confirmed it (both people where two were needed) and when, in the table's local time; a
backed-out award says so, with who backed it out, when and why (``award_words``). Beside the
title, which print it is: the console's ORIGINAL or COPY n, each print recorded
(``win_prints.py``); the command line's page, made from the records and recorded nowhere,
says it is no voucher.
"""

from __future__ import annotations

from pathlib import Path

from dealer_console.award_words import local_time
from dealer_console.jackpot.hits import HitRecord
from dealer_console.jackpot.win_prints import copy_words
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.money import format_cents

TITLE = "Jackpot win page"
SIGNATURES = ("Dealer", "Supervisor", "Cashier")
"""Who signs the page for the payout's record, below the fields."""


def _meter(micro: int | None) -> str:
    return "-" if micro is None else format_cents(micro // MICRO)


def win_page_lines(hit: HitRecord, table: str) -> list[tuple[str, str]]:
    """The page's fields, in print order (also what a screen preview shows)."""
    return [
        ("Table", table),
        ("Jackpot game", f"sensor {hit.spot}, paytable {hit.paytable.upper()}"),
        ("Round", str(hit.round_id)),
        ("Seat", str(hit.seat)),
        ("Hand", hit.cards or "(cards not read by the console)"),
        ("Paytable line", f"{hit.line_no}: {hit.line_label}, {hit.pay}"),
        ("Fixed wager", format_cents(hit.wager_cents)),
        ("Amount", format_cents(hit.amount_cents)),
        ("Off the meter", format_cents(hit.from_meter_cents)),
        ("From the tray", format_cents(hit.from_tray_cents)),
        ("Meter before", _meter(hit.meter_before_micro)),
        ("Meter after", _meter(hit.meter_after_micro)),
        ("Confirmed by", hit.confirmers),
        ("Confirmed at", local_time(hit.confirmed_at)),
        ("Award number", str(hit.hit_id)),
        ("Status", hit.back_out.words() if hit.back_out is not None else "paid"),
    ]


def write_win_page(hit: HitRecord, table: str, path: Path, copy: int | None = None) -> Path:
    """The page as a PDF with fpdf2, for the command line (``jackpot winpage``): the core
    imports no Qt, so the console's own printing (``ui/supervisor/win_page.py``) lays out the
    same fields with Qt's printer instead. ``copy`` None (the command line: it opens the
    table read-only and records nothing): marked a copy from the records, not for payment."""
    from fpdf import FPDF  # here: about 0.2 s of every console's start otherwise

    pdf = FPDF(format="A4")
    pdf.set_title(f"Jackpot win page {hit.hit_id}")
    pdf.set_creator("dealer-console")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 12, TITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 10, copy_words(copy), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=12)
    for label, value in win_page_lines(hit, table):
        pdf.set_font("Helvetica", "B", 12)
        pdf.cell(50, 9, label)
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 9, value, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(12)
    for who in SIGNATURES:
        pdf.cell(0, 12, f"{who}: ______________________________", new_x="LMARGIN", new_y="NEXT")
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path
