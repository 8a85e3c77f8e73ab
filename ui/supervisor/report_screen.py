"""The shift report on the console: the figures of ``dealer_console.reports.shift`` for a time
range picked by touch (the last eight hours to start with), on screen and written as a PDF
beside the table's database (``reports/``), the same PDF ``dealer-console report --pdf``
writes. Read and written off the GUI thread (``TableReader``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from sqlite_utils import Database

from dealer_console import clock
from dealer_console.controller import TableController
from dealer_console.reports.shift import ShiftReport, detail_lines, shift_report, summary_lines
from dealer_console.reports.shift_pdf import write_shift_pdf
from dealer_console.table_name import table_name
from ui import theme
from ui.bridge import ControllerBridge
from ui.supervisor.session import Session
from ui.supervisor.time_range import TimeRangePicker, shown_time
from ui.widgets.pages import PageStack
from ui.widgets.reader import TableReader, db_file
from ui.widgets.touch import ButtonRole, TouchButton, kinetic

SHEET_WIDTH = 1000


def pdf_path(db_file: str, start: str, end: str) -> Path:
    """Where the console writes a report's PDF: ``reports/`` beside the table's database,
    named by the range, so two reports of different shifts never overwrite each other."""
    def stamp(moment: str) -> str:
        return datetime.fromisoformat(moment).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

    return Path(db_file).parent / "reports" / f"shift-{stamp(start)}-{stamp(end)}.pdf"


def _write(db: Database, start: str, end: str, table: str, path: Path) -> ShiftReport:
    report = shift_report(db, start, end)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_shift_pdf(report, table, path)
    return report


class ReportScreen(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.body = PageStack()
        self.db_file = db_file(controller)
        self.table_name = table_name(self.db_file)
        self.reader = TableReader(self.db_file)
        self.reader.answered.connect(self._show_answer)
        self.reader.failed.connect(self._show_failure)
        self.report: ShiftReport | None = None
        self.written: Path | None = None

        self.range_label = QLabel("")
        self.range_label.setProperty("role", "group")
        self.range_label.setWordWrap(True)
        self.change = TouchButton("Change the range", ButtonRole.SECONDARY)
        self.change.clicked.connect(lambda: self.choose_range())
        self.write_pdf = TouchButton("Write PDF", ButtonRole.PRIMARY)
        self.write_pdf.clicked.connect(lambda: self.write())
        top = QHBoxLayout()
        top.addWidget(self.range_label, 1)
        top.addWidget(self.change)
        top.addWidget(self.write_pdf)
        self.status = QLabel("")
        self.status.setProperty("role", "hint")
        self.status.setWordWrap(True)

        self.figures = QGridLayout()
        self.figures.setHorizontalSpacing(theme.SPACING * 3)
        self.figure_labels: dict[str, QLabel] = {}
        self.details = QLabel("")
        self.details.setWordWrap(True)
        self.details.setProperty("role", "hint")
        sheet = QWidget()
        sheet.setMaximumWidth(SHEET_WIDTH)  # a figure stays next to its name on a wide screen
        sheet_layout = QVBoxLayout(sheet)
        sheet_layout.addLayout(self.figures)
        sheet_layout.addWidget(self.details)
        sheet_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(sheet)
        kinetic(scroll)
        self.report_page = scroll

        now = clock.now()
        self.picker = TimeRangePicker(now)
        self.picker.set_range(now - timedelta(hours=8), now + timedelta(minutes=1))
        self.show_button = TouchButton("Show the report", ButtonRole.PRIMARY)
        self.show_button.clicked.connect(lambda: self.load())
        range_page = QWidget()
        range_layout = QVBoxLayout(range_page)
        range_layout.setContentsMargins(0, 0, 0, 0)
        range_layout.addWidget(self.picker)
        range_layout.addWidget(self.show_button)
        range_layout.addStretch(1)
        self.range_page = range_page

        self.body.addWidget(self.report_page)
        self.body.addWidget(self.range_page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.body, 1)
        self.load()

    def choose_range(self) -> None:
        self.body.setCurrentWidget(self.range_page)

    def load(self, pdf: bool = False) -> None:
        """Read the report for the picker's range (and write its PDF when ``pdf``)."""
        problem = self.picker.problem()
        if problem:
            self.status.setText(problem)
            return
        start, end = self.picker.bounds()
        self.range_label.setText(f"Rounds ended from {shown_time(self.picker.start.moment)}"
                                 f" to {shown_time(self.picker.end.moment)}")
        self.body.setCurrentWidget(self.report_page)
        path = pdf_path(self.db_file, start, end) if pdf else None
        table = self.table_name

        def work(db: Database) -> tuple[ShiftReport, Path | None]:
            if path is None:
                return shift_report(db, start, end), None
            return _write(db, start, end, table, path), path

        self.status.setText("Writing the PDF..." if pdf else "Reading the report...")
        self.write_pdf.setEnabled(False)
        self.reader.read(work)

    def write(self) -> None:
        self.load(pdf=True)

    def _show_answer(self, answer: tuple[ShiftReport, Path | None]) -> None:
        report, written = answer
        self.report = report
        self.write_pdf.setEnabled(True)
        if written is not None:
            self.written = written
        for label in self.figure_labels.values():
            label.deleteLater()
        self.figure_labels = {}
        for row, (name, value) in enumerate(summary_lines(report)):
            title = QLabel(name)
            amount = QLabel(value)
            amount.setAlignment(Qt.AlignmentFlag.AlignRight)
            amount.setStyleSheet(f"font-size: {theme.FONT_LABEL}px; font-weight: bold;")
            self.figures.addWidget(title, row, 0)
            self.figures.addWidget(amount, row, 1)
            self.figure_labels[name] = amount
            self.figure_labels[f"title:{name}"] = title
        self.details.setText("\n".join(detail_lines(report)))
        self.status.setText(f"PDF written to {written}" if written is not None else
                            "Figures in dollars and cents for the rounds ended in the range.")

    def _show_failure(self, message: str) -> None:
        self.write_pdf.setEnabled(True)
        self.status.setText(message)

    def figure(self, name: str) -> str:
        """The value shown for ``name`` (a row of ``summary_lines``), for the tests."""
        return self.figure_labels[name].text()

