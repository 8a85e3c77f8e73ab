"""Reading the table database for a supervisor's screen off the GUI thread.

Recall and the shift report read many rows; on a table with thousands of rounds that takes
long enough to freeze the touchscreen, and the console's own connection belongs to the
controller's thread. So each question runs on a short-lived thread with its own read-only
connection (``open_for_reading``: it can never write), and the answer comes back to the GUI
thread as a queued signal. Only the newest question's answer is delivered: a supervisor who
taps twice sees what they asked for last."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from sqlite_utils import Database

from dealer_console.controller import TableController
from dealer_console.storage.connection import TableDatabase, open_for_reading

Work = Callable[[Database], Any]


def db_file(controller: TableController) -> str:
    """The file of the table's database (a reader opens its own connection to it)."""
    db = controller.table.db
    assert isinstance(db, TableDatabase), "the table's database is not a file"
    return db.file


class TableReader(QObject):
    """Runs ``work(db)`` on a thread; ``answered(result)`` or ``failed(message)`` follow on
    the GUI thread. ``busy`` is true from a question until its answer."""

    answered = Signal(object)
    failed = Signal(str)
    _finished = Signal(int, bool, object)

    def __init__(self, db_file: str) -> None:
        super().__init__()  # no parent: a thread still running keeps it alive
        self.db_file = db_file
        self.busy = False
        self._asked = 0
        self._finished.connect(self._deliver)

    def ask(self, work: Work) -> None:
        self._asked += 1
        self.busy = True
        number = self._asked
        threading.Thread(target=self._run, args=(number, work), name="table-reader",
                         daemon=True).start()

    def _run(self, number: int, work: Work) -> None:
        try:
            db = open_for_reading(self.db_file)
            try:
                result, ok = work(db), True
            finally:
                db.close()
        except Exception as exc:  # shown on the screen in one line, never a crash
            result, ok = f"cannot read the table's records: {exc}", False
        self._finished.emit(number, ok, result)

    def _deliver(self, number: int, ok: bool, result: object) -> None:
        if number != self._asked:
            return  # a newer question is on its way
        self.busy = False
        if ok:
            self.answered.emit(result)
        else:
            self.failed.emit(str(result))
