"""The win page through Qt's printing: what the money bag prints and shows.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 f: the money bag
prints a page that helps record the payout. The fields are ``win_page_lines`` (one source for
this page, the on-screen preview and the command line's fpdf2 page); this module only lays them
out. The same drawing goes to the printer, to a PDF and into the preview widget, so what the
supervisor sees is what was printed.

Where it goes: the printer named by ``$DEALER_CONSOLE_PRINTER`` when Qt knows a printer of that
name (``QPrinterInfo``), else a PDF beside the table database, ``win-pages/win-page-N.pdf``
(N the award number), a copy's ``win-page-N-copy-K.pdf``: each print has its own file.

Each page says which print it is (ORIGINAL, COPY n): the controller records the print and its
number before the window prints it, then what became of it: printed (to which printer or
file), or refused, so the next one takes its number. A print recorded and never finished (the
console stopped in between) is named wherever prints are (``dealer_console/jackpot/win_prints.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPaintEvent
from PySide6.QtPrintSupport import QPrinter, QPrinterInfo
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from dealer_console.controller import TableController
from dealer_console.controller.view import WinPageRequest
from dealer_console.errors import ConsoleError
from dealer_console.jackpot.hits import HitRecord
from dealer_console.jackpot.win_prints import PDF_FOLDER, copy_words, pdf_name
from dealer_console.jackpot.winpage import SIGNATURES, TITLE, win_page_lines
from dealer_console.table_name import table_name
from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

PRINTER_ENV = "DEALER_CONSOLE_PRINTER"
"""The environment variable naming the table PC's printer (a property of the machine, not of
the game's profile, which many tables share)."""

FOLDER = PDF_FOLDER


@dataclass(frozen=True, slots=True)
class Printed:
    """Where a win page went, in words for the screen, and the PDF when it is a file."""

    where: str
    pdf: Path | None
    printer: str | None = None
    """The printer's name when it went to one (the controller records where it went)."""


def configured_printer() -> str | None:
    name = os.environ.get(PRINTER_ENV, "").strip()
    return name or None


def pdf_path(db_path: Path, hit_id: int, copy: int = 1) -> Path:
    """The award's PDF in the folder beside the table database (a copy's beside the
    original's: a reprint never replaces the original's file)."""
    return db_path.parent / pdf_name(hit_id, copy)


def print_win_page(hit: HitRecord, table: str, db_path: Path,
                   printer_name: str | None = None, copy: int = 1) -> Printed:
    """Print award ``hit``'s win page, marked as print ``copy`` (1: the original): to the
    named printer when this machine has it, to the PDF beside the table database otherwise.
    Raises ``OSError`` when neither can be written."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    printer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    printer.setDocName(f"{TITLE} {hit.hit_id} {copy_words(copy)}")
    printer.setCreator("dealer-console")
    note = ""
    if printer_name and printer_name in QPrinterInfo.availablePrinterNames():
        printer.setPrinterName(printer_name)
        out: Path | None = None
        where = f"printer {printer_name}"
    else:
        if printer_name:
            note = f" (printer {printer_name} not found)"
        out = pdf_path(db_path, hit.hit_id, copy)
        out.parent.mkdir(parents=True, exist_ok=True)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(out))
        where = f"file {out.name} in the folder {FOLDER} beside the table database{note}"
    painter = QPainter()
    if not painter.begin(printer):
        raise OSError(f"the win page of award {hit.hit_id} could not be printed to {where}")
    try:
        rect = printer.pageLayout().paintRectPixels(printer.resolution())
        draw_win_page(painter, QRectF(0, 0, rect.width(), rect.height()), hit, table, copy)
    finally:
        painter.end()
    if out is not None and not out.is_file():
        raise OSError(f"the win page of award {hit.hit_id} was not written to {out}")
    return Printed(where, out, printer_name if out is None else None)


def draw_win_page(painter: QPainter, page: QRectF, hit: HitRecord, table: str,
                  copy: int = 1) -> None:
    """Lay the page out in ``page``: the title with which print it is (ORIGINAL, COPY n) at
    its right, each field (label, value), the signatures. Sizes are fractions of the page's
    width, so paper and screen look alike."""
    unit = page.width() / 100.0
    painter.save()
    painter.setPen(QColor("#000000"))
    title = QFont(theme.FONT_FAMILY)
    title.setBold(True)
    title.setPixelSize(max(1, round(unit * 4.2)))
    body = QFont(theme.FONT_FAMILY)
    body.setPixelSize(max(1, round(unit * 2.6)))
    bold = QFont(body)
    bold.setBold(True)
    y = page.top()
    painter.setFont(title)
    line = unit * 6.5
    painter.drawText(QRectF(page.left(), y, page.width(), line),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), TITLE)
    painter.drawText(QRectF(page.left(), y, page.width(), line),
                     int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                     copy_words(copy))
    y += line * 1.4
    row = unit * 4.2
    label_width = page.width() * 0.32
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                | Qt.TextFlag.TextWordWrap)
    for label, value in win_page_lines(hit, table):
        painter.setFont(bold)
        painter.drawText(QRectF(page.left(), y, label_width, row), flags, label)
        painter.setFont(body)
        box = QRectF(page.left() + label_width, y, page.width() - label_width, row * 3)
        used = painter.boundingRect(box, flags, value)
        painter.drawText(box, flags, value)
        y += max(row, used.height() + unit * 1.2)
    y += row * 2
    for who in SIGNATURES:
        painter.drawText(QRectF(page.left(), y, page.width(), row), flags,
                         f"{who}: ______________________________")
        y += row * 1.8
    painter.restore()


class WinPagePreview(QWidget):
    """The page as printed, drawn on white paper at the widget's size (A4's proportions)."""

    def __init__(self, hit: HitRecord, table: str, copy: int = 1) -> None:
        super().__init__()
        self.hit = hit
        self.table = table
        self.copy = copy
        self.setMinimumSize(320, 420)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def paper(self) -> QRectF:
        """The sheet: the largest A4 rectangle that fits, centred."""
        ratio = 297.0 / 210.0
        width = min(float(self.width()), self.height() / ratio)
        height = width * ratio
        return QRectF((self.width() - width) / 2, (self.height() - height) / 2, width, height)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        sheet = self.paper()
        painter.fillRect(sheet, QColor("#ffffff"))
        margin = sheet.width() * 15 / 210
        draw_win_page(painter, sheet.adjusted(margin, margin, -margin, -margin), self.hit,
                      self.table, self.copy)
        painter.end()


class WinPageDialog(QDialog):
    """The page just printed, shown on screen with where it went (or why it did not)."""

    def __init__(self, parent: QWidget, hit: HitRecord, table: str, where: str,
                 failed: bool = False, copy: int = 1) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{TITLE} {hit.hit_id}")
        self.preview = WinPagePreview(hit, table, copy)
        self.where = QLabel(where)
        self.where.setWordWrap(True)
        self.where.setProperty("role", "refusal" if failed else "hint")
        self.close_button = TouchButton("Close", ButtonRole.PRIMARY, money=True)
        self.close_button.clicked.connect(self.accept)
        side = QVBoxLayout()
        heading = QLabel(f"Win page of award {hit.hit_id}: {copy_words(copy)}")
        heading.setProperty("role", "heading")
        heading.setWordWrap(True)
        side.addWidget(heading)
        side.addWidget(self.where)
        side.addStretch(1)
        side.addWidget(self.close_button)
        layout = QHBoxLayout(self)
        layout.addWidget(self.preview, 3)
        layout.addLayout(side, 2)


class WinPageDesk:
    """The window's side of the money bag: each new request in the table's view is printed
    once, as the copy the controller recorded, and shown in a dialog over the window (the
    keypad's button and the screen's alike); a print that fails is told to the controller."""

    def __init__(self, controller: TableController, window: QWidget) -> None:
        self.ctl = controller
        self.window = window
        request = controller.snapshot().win_page
        self._seen = request.number if request is not None else 0
        self.dialog: WinPageDialog | None = None
        self.printed: Printed | None = None

    def show_request(self, request: WinPageRequest | None) -> None:
        if request is None or request.number == self._seen:
            return
        self._seen = request.number
        hit = self.ctl.win_page_of(request.hit_id)
        table = table_name(self.ctl.about.db_path)
        try:
            self.printed = print_win_page(hit, table, self.ctl.about.db_path,
                                          configured_printer(), request.copy)
            where, failed = f"Printed to the {self.printed.where}.", False
            try:
                self.ctl.win_page_finished(request, self.printed.printer)
            except ConsoleError as record:  # the page is out; the records will say otherwise
                where += (f" The disk did not record that it was printed ({record}): the "
                          "records will call this print not finished.")
        except OSError as exc:
            self.printed = None
            where, failed = f"Not printed: {exc}. Check the printer or the disk.", True
            try:
                self.ctl.win_page_not_printed(request, str(exc))
                where += f" The next print is {copy_words(request.copy)} again."
            except ConsoleError as record:  # the disk refused the record too
                where += f" Nor was the failure recorded: {record}."
        if self.dialog is not None:
            self.dialog.close()
            self.dialog.deleteLater()
        self.dialog = WinPageDialog(self.window, hit, table, where, failed, request.copy)
        self.dialog.resize(self.window.size() * 0.9)
        self.dialog.show()
