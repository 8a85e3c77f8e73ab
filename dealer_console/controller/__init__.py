"""The table controller: one path from a device's event or a dealer's touch to the round, shared
by the console's screens and ``dealer-console simulate``.

- :mod:`.table_root` opens a table once (database, profile, jackpot system, staff);
- :mod:`.controller` applies device events with their fact keys, runs each phase's device
  actions, answers which commands the round accepts now, and tells listeners what changed;
- :mod:`.view` is the frozen picture a screen draws;
- :mod:`.health` turns device events into the faults a dealer must see.

Pure Python: no Qt, no serial, no usb. Device drivers reach it through the control interfaces
of :mod:`dealer_console.devices`; their I/O threads only put events in the controller's inbox,
and the thread that owns the database applies them (:meth:`TableController.pump`).
"""

from dealer_console.controller.controller import TableController, TableDevices
from dealer_console.controller.table_root import OpenTable, open_table
from dealer_console.controller.view import DeviceView, Notice, PendingHit, TableSnapshot

__all__ = ["DeviceView", "Notice", "OpenTable", "PendingHit", "TableController",
           "TableDevices", "TableSnapshot", "open_table"]
