"""The one small adapter between the table controller and Qt (plover's engine bridge is the
model): a driver's I/O thread only calls the controller's ``wake``, which emits a signal; the
signal is queued to the GUI thread, which applies the events there (the owner of the
database), a few per turn of the event loop. The changes of one turn reach the screens as one
``changed`` signal carrying the controller's newest frozen view."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from dealer_console.controller import TableController, TableSnapshot

PUMP_BATCH = 4
"""Device events applied per turn of the event loop."""


class ControllerBridge(QObject):
    changed = Signal(object)
    """The table's new :class:`~dealer_console.controller.TableSnapshot`."""
    _woken = Signal()

    def __init__(self, controller: TableController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._woken.connect(self._pump, Qt.ConnectionType.QueuedConnection)
        self._latest: TableSnapshot | None = None
        self._scheduled = False
        self._attached = True
        controller.wake = self._woken.emit  # called on I/O threads: only emits
        controller.add_listener(self._changed)

    def _pump(self) -> None:
        # a few events per turn, so a burst (a deal's hands) never holds the event loop:
        # input and painting get their turn between them
        if self.controller.pump(max_events=PUMP_BATCH) == PUMP_BATCH:
            self._woken.emit()

    def _changed(self, view: TableSnapshot) -> None:
        # many changes in one turn of the event loop are drawn once, with the newest view
        self._latest = view
        if not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(0, self._deliver)

    def _deliver(self) -> None:
        self._scheduled = False
        if self._latest is not None and self._attached:
            self.changed.emit(self._latest)

    def detach(self) -> None:
        """Stop listening (before the window closes: nothing reaches a deleted widget)."""
        self.controller.wake = None
        self._attached = False
        if self._changed in self.controller.listeners:
            self.controller.remove_listener(self._changed)
