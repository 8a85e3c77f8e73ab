"""The one small adapter between the table controller and Qt (plover's engine bridge is the
model): a driver's I/O thread only calls the controller's ``wake``, which emits a signal; the
signal is queued to the GUI thread, which applies the events there (the owner of the
database), a few per turn of the event loop. The changes of one turn reach the screens as one
``changed`` signal carrying the controller's newest frozen view."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from dealer_console.controller import TableController, TableSnapshot

PUMP_BATCH = 4
"""Device events applied per turn of the event loop."""
FRAME_S = 0.016
"""The screens are drawn at most once a frame (60 a second): a change after a quiet spell is
drawn at once; the changes of a burst (a deal's seven hands, each its own turn) are drawn
together a frame after the last drawing, so input and the events still arriving get the
event loop in between instead of a redraw each."""


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
        self._drawn_at = 0.0
        self._frame = QTimer(self)
        self._frame.setSingleShot(True)
        self._frame.setTimerType(Qt.TimerType.PreciseTimer)
        self._frame.timeout.connect(self._deliver)
        self._attached = True
        controller.wake = self._woken.emit  # called on I/O threads: only emits
        controller.add_listener(self._changed)

    def _pump(self) -> None:
        # a few events per turn, so a burst (a deal's hands) never holds the event loop:
        # input and painting get their turn between them
        if self.controller.pump(max_events=PUMP_BATCH) == PUMP_BATCH:
            self._woken.emit()

    def _changed(self, view: TableSnapshot) -> None:
        # many changes before the next frame are drawn once, with the newest view
        self._latest = view
        if not self._scheduled:
            self._scheduled = True
            wait = FRAME_S - (time.monotonic() - self._drawn_at)
            self._frame.start(max(0, round(wait * 1000)))

    def _deliver(self) -> None:
        self._scheduled = False
        self._drawn_at = time.monotonic()
        if self._latest is not None and self._attached:
            self.changed.emit(self._latest)

    @property
    def drawing_due(self) -> bool:
        """A change is waiting for its frame to reach the screens."""
        return self._scheduled and self._attached

    def detach(self) -> None:
        """Stop listening (before the window closes: nothing reaches a deleted widget)."""
        self.controller.wake = None
        self._attached = False
        if self._changed in self.controller.listeners:
            self.controller.remove_listener(self._changed)
