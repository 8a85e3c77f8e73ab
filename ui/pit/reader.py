"""The pit's reads and acknowledgements off the GUI thread: a worker on a thread of its own,
with its own connection (the pit's login), polling every table's report and sending each
acknowledgement; every answer comes back to the GUI thread through a queued signal.

A read is one server call for every table (about a millisecond for 40); the GUI thread
never waits for the network, so a slow or lost server only ages what the screen shows (and
it says so)."""

from __future__ import annotations

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, QTimer, Signal, Slot

from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.settings import LinkRefused

POLL_MS = 200
"""How often the pit asks for every table's report: a change reaches the screen within this
plus the table's own send."""


class _Worker(QObject):
    """Lives on the reader's thread: its connection is opened, used and closed there."""

    read = Signal(object)
    failed = Signal(str)
    acked = Signal(str, str, str, str)  # table, kind, who (empty if refused), words

    def __init__(self, dsn: str) -> None:
        super().__init__()
        self._dsn = dsn
        self._conn: link_server.Connection | None = None
        self._timer: QTimer | None = None

    @Slot()
    def start(self) -> None:
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)
        self._timer.start()
        self.poll()

    def _connection(self) -> link_server.Connection:
        if self._conn is None or self._conn.closed:
            self._conn = link_server.connect(self._dsn, who="pit",
                                             statement_timeout_s=5.0)
        return self._conn

    @Slot()
    def poll(self) -> None:
        try:
            rows = server.read_reports(self._connection())
        except Exception as exc:  # the screen keeps running and says why in one line
            self._drop()
            self.failed.emit(f"the pit cannot read the tables' reports: {exc}".splitlines()[0])
            return
        self.read.emit(rows)

    @Slot(str, str, str)
    def acknowledge(self, table_id: str, kind: str, track: str) -> None:
        try:
            who = server.acknowledge(self._connection(), table_id, kind, track)
        except LinkRefused as exc:
            self.acked.emit(table_id, kind, "", str(exc))
            return
        except Exception as exc:
            self._drop()
            self.acked.emit(table_id, kind, "", f"not acknowledged: {exc}".splitlines()[0])
            return
        self.acked.emit(table_id, kind, who, f"acknowledged by {who}")
        self.poll()

    @Slot(str, int, str, str)
    def clear_rewind(self, table_id: str, entry: int, track: str, reason: str) -> None:
        try:
            who = server.clear_rewind(self._connection(), entry, track, reason)
        except LinkRefused as exc:
            self.acked.emit(table_id, "rewind", "", str(exc))
            return
        except Exception as exc:
            self._drop()
            self.acked.emit(table_id, "rewind", "", f"not cleared: {exc}".splitlines()[0])
            return
        self.acked.emit(table_id, "rewind", who, f"cleared by {who}")
        self.poll()

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None

    @Slot()
    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._drop()


class PitReader(QObject):
    """``read`` carries every table's :class:`~dealer_link.pit.server.ReportRow` list,
    ``failed`` a one-line reason, ``acked`` an acknowledgement's answer."""

    read = Signal(object)
    failed = Signal(str)
    acked = Signal(str, str, str, str)
    _ack = Signal(str, str, str)
    _clear = Signal(str, int, str, str)

    def __init__(self, dsn: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName("pit-reader")
        self._worker = _Worker(dsn)
        self._worker.moveToThread(self._thread)
        queued = Qt.ConnectionType.QueuedConnection
        self._worker.read.connect(self.read, queued)
        self._worker.failed.connect(self.failed, queued)
        self._worker.acked.connect(self.acked, queued)
        self._ack.connect(self._worker.acknowledge, queued)
        self._clear.connect(self._worker.clear_rewind, queued)
        self._thread.started.connect(self._worker.start)

    def start(self) -> None:
        self._thread.start()

    def acknowledge(self, table_id: str, kind: str, track: str) -> None:
        """Ask the server (on the worker) to acknowledge; the answer comes as ``acked``."""
        self._ack.emit(table_id, kind, track)

    def clear_rewind(self, table_id: str, entry: int, track: str, reason: str) -> None:
        """Ask the server (on the worker) to clear ``table_id``'s records alert ``entry`` on
        an executive's card; the answer comes as ``acked`` (kind ``rewind``)."""
        self._clear.emit(table_id, entry, track, reason)

    def stop(self) -> None:
        if self._thread.isRunning():
            # the worker's timer and connection are closed on its own thread, then it ends
            QMetaObject.invokeMethod(self._worker, "stop",
                                     Qt.ConnectionType.BlockingQueuedConnection)
            self._thread.quit()
            self._thread.wait(5000)
