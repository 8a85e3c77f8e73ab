"""The table controller: one path from a device's event or a dealer's touch to the round, shared
by the console's screens and ``dealer-console simulate``.

- :mod:`.table_root` opens a table once (database, profile, jackpot system, staff);
- :mod:`.controller` is the small façade screens and ``simulate`` call: commands in, one
  frozen view per turn of the event loop out, to its listeners;
- its desks: :mod:`.inbox` (device events from any thread, an early fact held back),
  :mod:`.facts` (the pure mapping from a device's fact to the round's command),
  :mod:`.device_events` (an event's way to the round or the bench), :mod:`.device_desk`
  (device actions and health, :mod:`.health`), :mod:`.jackpot_desk`, :mod:`.cards` (the card
  wanted), :mod:`.test_desk` (the technician's test mode) and :mod:`.staff`;
- :mod:`.build_view` builds :mod:`.view`, the frozen picture a screen draws, with no side
  effect (the jackpot's marks are detected by the handling step, once the cards are known).

Pure Python: no Qt, no serial, no usb. Device drivers reach it through the control interfaces
of :mod:`dealer_console.devices`; their I/O threads only put events in the controller's inbox,
and the thread that owns the database applies them (:meth:`TableController.pump`).
"""

from dealer_console.controller.controller import TableController
from dealer_console.controller.device_desk import TableDevices
from dealer_console.controller.health import TITLES
from dealer_console.controller.link_device import LINK_DEVICE
from dealer_console.controller.questions import CONSEQUENCE
from dealer_console.controller.table_root import OpenTable, open_table
from dealer_console.controller.view import (
    DeviceView,
    Notice,
    PendingHit,
    TableAbout,
    TableSnapshot,
)

__all__ = ["CONSEQUENCE", "LINK_DEVICE", "TITLES", "DeviceView", "Notice", "OpenTable",
           "PendingHit", "TableAbout", "TableController", "TableDevices", "TableSnapshot",
           "open_table"]
