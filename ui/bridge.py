"""The one small adapter between the table controller and Qt (plover's engine bridge is the
model): a driver's I/O thread only calls the controller's ``wake``, which emits a signal; the
signal is queued to the GUI thread, which applies the events there (the owner of the
database), a few per turn of the event loop. The changes reach the screens as one ``changed``
signal carrying the controller's newest frozen view, once the events waiting are applied."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from dealer_console.controller import TableController, TableSnapshot

PUMP_BATCH = 4
"""Device events applied per turn of the event loop."""
RETRY_MS = 1000
"""How often a device's report the disk refused is offered to it again."""
FRAME_S = 0.016
"""The longest a change waits to be drawn while device events keep coming (60 a second)."""


class ControllerBridge(QObject):
    changed = Signal(object)
    """The table's new :class:`~dealer_console.controller.TableSnapshot`."""
    _woken = Signal()

    def __init__(self, controller: TableController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._woken.connect(self._pump, Qt.ConnectionType.QueuedConnection)
        self._frame = QTimer(self)
        self._frame.setSingleShot(True)
        self._frame.setTimerType(Qt.TimerType.PreciseTimer)
        self._frame.timeout.connect(self._deliver)
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.setInterval(RETRY_MS)
        self._retry.timeout.connect(self._pump)
        self._latest: TableSnapshot | None = None
        self._scheduled = False
        self._undrawn_since = 0.0
        self._attached = True
        controller.wake = self._woken.emit  # called on I/O threads: only emits
        controller.add_listener(self._changed)

    def _pump(self) -> None:
        # a few events per turn, so a burst (a deal's hands) never holds the event loop:
        # input and painting get their turn between them
        if self.controller.pump(max_events=PUMP_BATCH) == PUMP_BATCH:
            self._woken.emit()
        elif self.controller.events_stalled and not self._retry.isActive():
            self._retry.start()  # a report the disk refused: tried again in a while

    def _changed(self, view: TableSnapshot) -> None:
        # the changes made before the next drawing are drawn once, with the newest view
        self._latest = view
        if not self._scheduled:
            self._scheduled = True
            self._undrawn_since = time.monotonic()
            self._frame.start(0)

    def _deliver(self) -> None:
        # a change is drawn once no device event waits (a deal's seven hands drawn together,
        # not one redraw a hand), or a frame after it when they keep coming; a dealer's touch
        # is drawn at once
        if (self.controller.events_waiting
                and time.monotonic() - self._undrawn_since < FRAME_S):
            self._frame.start(1)
            return
        self._scheduled = False
        if self._latest is not None and self._attached:
            self.changed.emit(self._latest)

    @property
    def drawing_due(self) -> bool:
        """A change is waiting to reach the screens."""
        return self._scheduled and self._attached

    def detach(self) -> None:
        """Stop listening (before the window closes: nothing reaches a deleted widget)."""
        self.controller.wake = None
        self._attached = False
        self._frame.stop()
        self._retry.stop()
        if self._changed in self.controller.listeners:
            self.controller.remove_listener(self._changed)
