"""The full audit (``dealer-console audit verify``) of the table's database while the table
plays: once soon after the start and then on a schedule, each time on a thread of its own with
its own read-only connection (``BackgroundReader``), never on the GUI thread.

The power-on self-test only verifies the hash chain from the newest checkpoint on; a change to
history before it (a wager's amount, a stored hand, an event's hash) is found by the full
audit alone. A failure is appended to the self-test log and shown on the console's window as
a red strip over the top for the supervisor; the table is not stopped by it (the evidence is
for the supervisor and the audit department to act on)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QLabel, QWidget

from dealer_console import clock
from dealer_console.audit.verify import AuditReport, audit
from dealer_console.storage.anchor import journal_for, key_path, load_key, read_journal
from dealer_console.storage.log_files import append_line
from dealer_console.table_db import open_for_reading
from ui import theme
from ui.widgets.reader import BackgroundReader

EVERY_ENV = "DEALER_CONSOLE_AUDIT_EVERY_MINUTES"
DEFAULT_EVERY_MINUTES = 60
FIRST_AFTER_S = 20.0
"""The first audit's delay: the table opens first, then the audit runs."""


def full_audit(db_file: str) -> AuditReport:
    """What ``audit verify`` checks, with the table's key and checkpoint journal."""
    chosen = key_path(None)
    key = load_key(chosen) if chosen is not None else None
    journal = journal_for(db_file)
    checkpoints = read_journal(journal) if journal.is_file() else []
    db = open_for_reading(db_file, full_check=True)
    try:
        return audit(db, checkpoints=checkpoints, key=key)
    finally:
        db.close()


class BackgroundAudit(BackgroundReader):
    """Runs :func:`full_audit` on a thread now (``run_now``) and every ``every_s`` seconds;
    ``finished(report)`` on the GUI thread, ``problem(line)`` when it found any."""

    finished = Signal(object)
    problem = Signal(str)

    def __init__(self, db_file: str, log: Path | None, every_s: float,
                 window: QWidget | None = None) -> None:
        super().__init__("background-audit")
        self.db_file, self.log = db_file, log
        self.strip: QLabel | None = None
        self.window = window
        self.timer = QTimer(self)
        self.timer.setInterval(int(every_s * 1000))
        self.timer.timeout.connect(self.run_now)
        self.answered.connect(self._done)
        self.failed.connect(lambda message: self._report([message], "could not run"))

    def start(self, first_after_s: float = FIRST_AFTER_S) -> None:
        QTimer.singleShot(int(first_after_s * 1000), self, self.run_now)
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def run_now(self) -> None:
        if not self.busy:  # one audit at a time: a long one is not queued behind itself
            self.ask(lambda: full_audit(self.db_file))

    def failure(self, exc: Exception) -> str:
        return f"the audit could not read the table's records: {exc}"

    def _done(self, report: object) -> None:
        assert isinstance(report, AuditReport)
        if report.ok:
            self._log([f"AUDIT OK: {report.events} events, {report.rounds} rounds, "
                       f"{report.lines} settlement lines checked"])
        else:
            self._report(report.problems, "found problems")
        self.finished.emit(report)

    def _report(self, problems: list[str], what: str) -> None:
        lines = [f"AUDIT FAILED: {p}" for p in problems]
        self._log(lines)
        print("\n".join(lines), file=sys.stderr, flush=True)  # the journal
        headline = (f"Audit {what} ({len(problems)}): {problems[0]}. Call the supervisor; "
                    "the self-test log has every line.")
        self._show(headline)
        self.problem.emit(headline)

    def _log(self, lines: list[str]) -> None:
        if self.log is None:
            return
        stamp = clock.stamp("seconds")
        try:
            append_line(self.log, "".join(f"{stamp} {line}\n" for line in lines))
        except OSError as exc:
            print(f"{self.log}: cannot write the audit's result: {exc.strerror or exc}",
                  file=sys.stderr, flush=True)

    def _show(self, text: str) -> None:
        """A red strip across the top of the window, over whatever screen is shown."""
        if self.window is None:
            return
        if self.strip is None:
            self.strip = QLabel(self.window)
            self.strip.setWordWrap(True)
            self.strip.setStyleSheet(f"background: {theme.FAULT_RED}; color: {theme.ON_FILL}; "
                                     f"font-size: {theme.FONT_HEADING}px; padding: 8px;")
        self.strip.setText(text)
        self.strip.setFixedWidth(self.window.width())
        self.strip.adjustSize()
        self.strip.move(0, 0)
        self.strip.show()
        self.strip.raise_()


def start_background_audit(db_file: str, window: QWidget,
                           environ: Mapping[str, str] = os.environ) -> BackgroundAudit:
    """The console's schedule: ``DEALER_CONSOLE_AUDIT_EVERY_MINUTES`` (default 60), the
    result appended to ``DEALER_CONSOLE_SELFTEST_LOG``."""
    try:
        minutes = float(environ.get(EVERY_ENV, DEFAULT_EVERY_MINUTES))
    except ValueError:
        minutes = DEFAULT_EVERY_MINUTES
    log = environ.get("DEALER_CONSOLE_SELFTEST_LOG")
    audits = BackgroundAudit(db_file, Path(log) if log else None,
                             max(minutes, 1.0) * 60, window)
    audits.start()
    return audits
