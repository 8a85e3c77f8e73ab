"""The one background reader (issue 24: three today became one): a question for the database,
the link's server or the paytables' arithmetic runs on the reader's worker thread, never on the
GUI thread, and its answer comes back to the GUI thread as a queued signal.

Recall and the shift report read many rows; on a table with thousands of rounds that takes long
enough to freeze the touchscreen, and the console's own connection belongs to the controller's
thread. So a reader's questions open their own read-only connection (``open_for_reading``: it
can never write). Questions asked while one runs are not queued one by one: only the newest
waits, so several changes of the table cost one more read, not one each. By default only the
newest question's answer is delivered (a supervisor who taps twice sees what they asked for
last); a reader asked again and again while it reads (the meter display) delivers every answer
it reads (``latest_only=False``), so a busy table never starves its display.

The worker thread ends when nothing waits, unless the reader ``keeps`` it (the meter display
keeps its connections on it from read to read; ``close`` then ends it and runs ``closing``
there).

A reader is a Qt object, so it must die on the GUI thread (``ui/application.py``), yet a screen
closed during a read lets go of it while its worker thread still holds it: the thread would
drop the last reference and destroy it there (it did, in a test: a crash). So while a worker
thread runs, the GUI thread holds the reader too (``_READING``), and lets go of it only once
that thread has ended."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from sqlite_utils import Database

from dealer_console.controller import TableController
from dealer_console.table_db import open_for_reading

Work = Callable[[Database], Any]
Question = Callable[[], object]

_READING: set[BackgroundReader] = set()
"""Readers whose worker thread runs, held by the GUI thread (see the module's note)."""


def db_file(controller: TableController) -> str:
    """The file of the table's database (a reader opens its own connection to it)."""
    file = controller.about.db_file
    assert file is not None, "the table's database is not a file"
    return file


class BackgroundReader(QObject):
    """``ask(question)`` runs it on the worker thread; ``answered(result)`` or
    ``failed(message)`` follow on the GUI thread. ``busy`` is true from a question until its
    answer."""

    answered = Signal(object)
    failed = Signal(str)
    _finished = Signal(int, bool, object)
    _ended = Signal(object)

    def __init__(self, name: str = "reader", *, latest_only: bool = True,
                 keep: bool = False, closing: Callable[[], object] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)  # no parent by default: a thread still running keeps it alive
        self.name, self.latest_only, self.keep, self.closing = name, latest_only, keep, closing
        self.busy = False
        self._asked = 0
        self._lock = threading.Condition()
        self._waiting: tuple[int, Question] | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._finished.connect(self._deliver)
        self._ended.connect(self._let_go)

    @property
    def running(self) -> bool:
        """True while the worker thread lives (a kept one until ``close``)."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def ask(self, question: Question) -> None:
        """Run ``question`` on the worker thread (now, or after the one running)."""
        with self._lock:
            if self._closed:
                return
            self._asked += 1
            self.busy = True
            self._waiting = (self._asked, question)
            if self._thread is None:
                _READING.add(self)
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._lock.notify()

    def close(self) -> None:
        """End the worker thread (``closing`` runs on it first) and wait for it."""
        with self._lock:
            self._closed = True
            self._waiting = None
            thread = self._thread
            self._lock.notify()
        if thread is not None:
            thread.join()
            _READING.discard(self)  # ended: this thread holds the reader now

    def _run(self) -> None:
        while True:
            with self._lock:
                while self._waiting is None and self.keep and not self._closed:
                    self._lock.wait()
                if self._waiting is None:
                    self._thread = None
                    break
                number, question = self._waiting
                self._waiting = None
            try:
                result, ok = question(), True
            except Exception as exc:  # shown on the screen in one line, never a crash
                result, ok = self.failure(exc), False
            self._finished.emit(number, ok, result)
        if self.closing is not None and self._closed:
            self.closing()
        self._ended.emit(threading.current_thread())

    def _let_go(self, ended: threading.Thread) -> None:
        # on the GUI thread, once the worker thread is gone (it has returned: the join is
        # short), unless a new question started another
        ended.join()
        with self._lock:
            if self._thread is None:
                _READING.discard(self)

    def failure(self, exc: Exception) -> str:
        """The one line a screen shows for a failed question."""
        return str(exc)

    def _deliver(self, number: int, ok: bool, result: object) -> None:
        newest = number == self._asked
        if newest:
            self.busy = False
        if self.latest_only and not newest:
            return  # a newer question is on its way
        if ok:
            self.answered.emit(result)
        else:
            self.failed.emit(str(result))


class TableReader(BackgroundReader):
    """Runs ``work(db)`` on the worker thread with its own read-only connection to the table's
    file."""

    def __init__(self, db_file: str) -> None:
        super().__init__("table-reader")
        self.db_file = db_file

    def read(self, work: Work) -> None:
        self.ask(lambda: self._read(work))

    def _read(self, work: Work) -> Any:
        db = open_for_reading(self.db_file)
        try:
            return work(db)
        finally:
            db.close()

    def failure(self, exc: Exception) -> str:
        return f"cannot read the table's records: {exc}"
