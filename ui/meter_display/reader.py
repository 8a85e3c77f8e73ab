"""The meters read off the GUI thread: a worker thread with its own read-only connection to the
table database (WAL lets it read while the console writes), asked to read again whenever the
table changes. Several changes while a read is under way cost one more read, not one each."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from dealer_console.jackpot.display import MeterDisplay, meter_display
from dealer_console.storage.connection import TableDatabase, open_for_reading


class _Worker(QObject):
    """Lives on the reader's thread: the connection is opened, used and closed there."""

    done = Signal(object)
    failed = Signal(str)

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._path = path
        self._db: TableDatabase | None = None

    @Slot()
    def read(self) -> None:
        try:
            if self._db is None:
                self._db = open_for_reading(self._path)
            self.done.emit(meter_display(self._db))
        except Exception as exc:  # the monitor keeps running and says why in one line
            self.failed.emit(f"the meters cannot be read: {exc}".splitlines()[0])

    @Slot()
    def stop(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class MeterReader(QObject):
    """``request()`` from the GUI thread; ``read`` carries the new :class:`MeterDisplay`,
    ``failed`` a one-line reason."""

    read = Signal(object)
    failed = Signal(str)
    _ask = Signal()
    _stop = Signal()

    def __init__(self, db_path: str | Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName("meter-reader")
        self._worker = _Worker(Path(db_path))
        self._worker.moveToThread(self._thread)
        self._ask.connect(self._worker.read, Qt.ConnectionType.QueuedConnection)
        self._stop.connect(self._worker.stop, Qt.ConnectionType.BlockingQueuedConnection)
        self._worker.done.connect(self._done, Qt.ConnectionType.QueuedConnection)
        self._worker.failed.connect(self._failed, Qt.ConnectionType.QueuedConnection)
        self._busy = False
        self._again = False
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.isRunning()

    def request(self) -> None:
        """Read the meters again (now, or as soon as the read under way is done)."""
        if not self._thread.isRunning():
            return
        if self._busy:
            self._again = True
            return
        self._busy = True
        self._ask.emit()

    def close(self) -> None:
        """Close the connection on its own thread and stop the thread (waits for it)."""
        if self._thread.isRunning():
            self._stop.emit()
            self._thread.quit()
            self._thread.wait()

    def _done(self, display: MeterDisplay) -> None:
        self.read.emit(display)
        self._next()

    def _failed(self, why: str) -> None:
        self.failed.emit(why)
        self._next()

    def _next(self) -> None:
        self._busy = False
        if self._again:
            self._again = False
            self.request()
