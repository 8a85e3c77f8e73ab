"""The one small adapter between the table controller and Qt (plover's engine bridge is the
model): a driver's I/O thread only calls the controller's ``wake``, which emits a signal; the
signal is queued to the GUI thread, which applies the events there (the owner of the
database). Every change of the table reaches the screens as one ``changed`` signal carrying the
controller's frozen view."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal

from dealer_console.controller import TableController, TableSnapshot


class ControllerBridge(QObject):
    changed = Signal(object)
    """The table's new :class:`~dealer_console.controller.TableSnapshot`."""
    _woken = Signal()

    def __init__(self, controller: TableController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._woken.connect(self._pump, Qt.ConnectionType.QueuedConnection)
        controller.wake = self._woken.emit  # called on I/O threads: only emits
        controller.add_listener(self._changed)

    def _pump(self) -> None:
        self.controller.pump()

    def _changed(self, view: TableSnapshot) -> None:
        self.changed.emit(view)

    def detach(self) -> None:
        """Stop listening (before the window closes: nothing reaches a deleted widget)."""
        self.controller.wake = None
        if self._changed in self.controller.listeners:
            self.controller.remove_listener(self._changed)
