"""The meters read off the GUI thread: a worker thread with its own read-only connection to the
table database (WAL lets it read while the console writes), asked to read again whenever the
table changes. Several changes while a read is under way cost one more read, not one each.

A table playing a linked jackpot also reads its linked games' amounts from the link's server
on the same thread (``docs/link.md``): the GUI thread never waits for the network."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from dealer_console.jackpot.display import MeterDisplay, meter_display
from dealer_console.storage.connection import TableDatabase
from dealer_console.table_db import open_for_reading
from dealer_link import server
from dealer_link.display import with_linked_meters


class _Worker(QObject):
    """Lives on the reader's thread: the connection is opened, used and closed there."""

    done = Signal(object)
    failed = Signal(str)

    def __init__(self, path: Path, links: Mapping[int, str], dsn: str | None) -> None:
        super().__init__()
        self._path = path
        self._links = dict(links)
        self._dsn = dsn
        self._db: TableDatabase | None = None
        self._link: server.Connection | None = None

    @Slot()
    def read(self) -> None:
        try:
            if self._db is None:
                self._db = open_for_reading(self._path)
            display = meter_display(self._db)
        except Exception as exc:  # the monitor keeps running and says why in one line
            self.failed.emit(f"the meters cannot be read: {exc}".splitlines()[0])
            return
        if self._links:
            try:
                display = self._linked(display)
            except Exception as exc:  # the link's amounts, or nothing: never the table's own
                self._drop_link()
                self.failed.emit(f"the linked meters cannot be read: {exc}".splitlines()[0])
                return
        self.done.emit(display)

    def _linked(self, display: MeterDisplay) -> MeterDisplay:
        if self._dsn is None:
            raise RuntimeError("this table has no address for its jackpot link")
        if self._link is None:
            self._link = server.connect(self._dsn, who="meter display")
        return with_linked_meters(display, self._links, self._link)

    def _drop_link(self) -> None:
        if self._link is not None:
            try:
                self._link.close()
            finally:
                self._link = None

    @Slot()
    def stop(self) -> None:
        self._drop_link()
        if self._db is not None:
            self._db.close()
            self._db = None


class MeterReader(QObject):
    """``request()`` from the GUI thread; ``read`` carries the new :class:`MeterDisplay`,
    ``failed`` a one-line reason. ``links`` (sensor spot to
    link) and ``dsn`` (the links' server): a table's linked games."""

    read = Signal(object)
    failed = Signal(str)
    _ask = Signal()
    _stop = Signal()

    def __init__(self, db_path: str | Path, parent: QObject | None = None, *,
                 links: Mapping[int, str] | None = None, dsn: str | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName("meter-reader")
        self._worker = _Worker(Path(db_path), links or {}, dsn)
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
