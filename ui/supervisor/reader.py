"""Reading the table database for a supervisor's screen off the GUI thread.

Recall and the shift report read many rows; on a table with thousands of rounds that takes
long enough to freeze the touchscreen, and the console's own connection belongs to the
controller's thread. So each question runs on a short-lived thread with its own read-only
connection (``open_for_reading``: it can never write), and the answer comes back to the GUI
thread as a queued signal. Only the newest question's answer is delivered: a supervisor who
taps twice sees what they asked for last. ``BackgroundReader`` is that mechanism for any
question (the "Linked hits" screen asks the link's server with it)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from sqlite_utils import Database

from dealer_console.controller import TableController
from dealer_console.table_db import open_for_reading

Work = Callable[[Database], Any]


def db_file(controller: TableController) -> str:
    """The file of the table's database (a reader opens its own connection to it)."""
    file = controller.about.db_file
    assert file is not None, "the table's database is not a file"
    return file


class BackgroundReader(QObject):
    """Runs a question on a short-lived thread; ``answered(result)`` or ``failed(message)``
    follow on the GUI thread, for the newest question only. ``busy`` is true from a question
    until its answer."""

    answered = Signal(object)
    failed = Signal(str)
    _finished = Signal(int, bool, object)

    def __init__(self) -> None:
        super().__init__()  # no parent: a thread still running keeps it alive
        self.busy = False
        self._asked = 0
        self._finished.connect(self._deliver)

    def _launch(self, question: Callable[[], object], name: str) -> None:
        self._asked += 1
        self.busy = True
        threading.Thread(target=self._run, args=(self._asked, question), name=name,
                         daemon=True).start()

    def _run(self, number: int, question: Callable[[], object]) -> None:
        try:
            result, ok = question(), True
        except Exception as exc:  # shown on the screen in one line, never a crash
            result, ok = self.failure(exc), False
        self._finished.emit(number, ok, result)

    def failure(self, exc: Exception) -> str:
        """The one line a screen shows for a failed question."""
        return str(exc)

    def _deliver(self, number: int, ok: bool, result: object) -> None:
        if number != self._asked:
            return  # a newer question is on its way
        self.busy = False
        if ok:
            self.answered.emit(result)
        else:
            self.failed.emit(str(result))


class TableReader(BackgroundReader):
    """Runs ``work(db)`` on a thread with its own read-only connection to the table's file."""

    def __init__(self, db_file: str) -> None:
        super().__init__()
        self.db_file = db_file

    def ask(self, work: Work) -> None:
        self._launch(lambda: self._read(work), "table-reader")

    def _read(self, work: Work) -> Any:
        db = open_for_reading(self.db_file)
        try:
            return work(db)
        finally:
            db.close()

    def failure(self, exc: Exception) -> str:
        return f"cannot read the table's records: {exc}"
