"""The shift report on paper: a PDF written with fpdf2.

fpdf2 rather than Qt's QPdfWriter because the report is also written by the command line
(``dealer-console report --pdf``), and this package imports no Qt; the console's screen calls
the same function, so the paper is the same from both. The PDF's built-in Helvetica covers
Latin-1 only: any other character (a name in another script) is printed as ``?``, and the
on-screen report shows it as typed."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from dealer_console.award_words import local_time
from dealer_console.reports.shift import ShiftReport, detail_lines, summary_lines


def _latin1(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def write_shift_pdf(report: ShiftReport, table: str, path: Path) -> Path:
    """Write the report to ``path`` (in a folder that exists) and return the path."""
    pdf = FPDF(format="A4")
    pdf.set_title("Shift report")
    pdf.set_creator("dealer-console")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 12, "Shift report", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    for line in (f"Table: {table}", f"From {local_time(report.start)}",
                 f"To   {local_time(report.end)}",
                 "Rounds counted: those ended in the range (amounts in dollars)"):
        pdf.cell(0, 7, _latin1(line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    for label, value in summary_lines(report):
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(85, 7, _latin1(label))
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 7, _latin1(value), new_x="LMARGIN", new_y="NEXT")
    details = detail_lines(report)
    if details:
        pdf.ln(4)
        pdf.set_font("Helvetica", "B", 13)
        pdf.cell(0, 9, "Interventions, card swipes, jackpot hits and win pages",
                 new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=10)
        for line in details:
            pdf.multi_cell(0, 6, _latin1(line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(10)
    pdf.set_font("Helvetica", size=11)
    for who in ("Supervisor", "Shift manager"):
        pdf.cell(0, 10, f"{who}: ______________________________", new_x="LMARGIN",
                 new_y="NEXT")
    pdf.output(str(path))
    return path
