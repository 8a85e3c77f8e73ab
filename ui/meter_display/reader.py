"""The meters read off the GUI thread: the kit's one background reader
(:class:`~ui.widgets.reader.BackgroundReader`), its worker thread kept with its own read-only
connection to the table database (WAL lets it read while the console writes), asked to read
again whenever the table changes. Several changes while a read is under way cost one more read,
not one each, and every read is shown (a busy table never starves the display).

A table playing a linked jackpot also reads its linked games' amounts from the link's server
on the same thread (``docs/link.md``): the GUI thread never waits for the network."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from dealer_console.jackpot.display import MeterDisplay, meter_display
from dealer_console.storage.connection import TableDatabase
from dealer_console.table_db import open_for_reading
from ui.widgets.reader import BackgroundReader

if TYPE_CHECKING:
    from dealer_link.server import Connection


class MeterReader(BackgroundReader):
    """``request()`` from the GUI thread; ``read`` carries the new :class:`MeterDisplay`,
    ``failed`` a one-line reason. ``links`` (sensor spot to link) and ``dsn`` (the links'
    server): a table's linked games. The connections are opened, used and closed on the
    reader's thread."""

    read = Signal(object)

    def __init__(self, db_path: str | Path, parent: QObject | None = None, *,
                 links: Mapping[int, str] | None = None, dsn: str | None = None) -> None:
        super().__init__("meter-reader", latest_only=False, keep=True, closing=self._stop,
                         parent=parent)
        self._path = Path(db_path)
        self._links = dict(links or {})
        self._dsn = dsn
        self._db: TableDatabase | None = None
        self._link: Connection | None = None
        self.answered.connect(self.read)

    def request(self) -> None:
        """Read the meters again (now, or as soon as the read under way is done)."""
        self.ask(self._read)

    def failure(self, exc: Exception) -> str:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__

    def _read(self) -> MeterDisplay:
        try:
            if self._db is None:
                self._db = open_for_reading(self._path)
            display = meter_display(self._db)
        except Exception as exc:  # the monitor keeps running and says why in one line
            raise RuntimeError(f"the meters cannot be read: {exc}") from exc
        if self._links:
            try:
                display = self._linked(display)
            except Exception as exc:  # the link's amounts, or nothing: never the table's own
                self._drop_link()
                raise RuntimeError(f"the linked meters cannot be read: {exc}") from exc
        return display

    def _linked(self, display: MeterDisplay) -> MeterDisplay:
        if self._dsn is None:
            raise RuntimeError("this table has no address for its jackpot link")
        # the PostgreSQL client loaded on the reader's thread, by a linked table only
        from dealer_link import server
        from dealer_link.display import with_linked_meters

        if self._link is None:
            self._link = server.connect(self._dsn, who="meter display")
        return with_linked_meters(display, self._links, self._link)

    def _drop_link(self) -> None:
        if self._link is not None:
            try:
                self._link.close()
            finally:
                self._link = None

    def _stop(self) -> None:
        self._drop_link()
        if self._db is not None:
            self._db.close()
            self._db = None
