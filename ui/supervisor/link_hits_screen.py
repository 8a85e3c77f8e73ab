"""The supervisor's "Linked hits" screen: every hit on this table's jackpot links, newest first,
with the table each was on (``docs/link.md``).

A linked game's awards come off a meter many tables share, so the hits that moved it were
mostly at other tables: the table's own "Jackpot awards" list cannot show them. They are read
from the link's server on a thread of the screen's own (its own connection; the GUI thread never
waits for the network), when the screen is shown, when an award is confirmed here, and on
Refresh. While the server cannot be reached the screen says so and keeps the last list it read.
"""

from __future__ import annotations

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_console import clock
from dealer_console.controller import TableController, TableSnapshot
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.money import format_cents
from ui.bridge import ControllerBridge
from ui.supervisor.jackpot_screen import fill, table_widget, when
from ui.supervisor.session import Session
from ui.widgets.reader import BackgroundReader
from ui.widgets.touch import ButtonRole, TouchButton

COLUMNS = ("Link hit", "Table", "Round", "Hand", "Amount", "Shared meter", "Confirmed")
STRETCH = ("Table", "Hand", "Shared meter")


class LinkReader(BackgroundReader):
    """Reads every hit of ``links`` on a thread with its own connection to the link's
    server."""

    def __init__(self, dsn: str, who: str) -> None:
        super().__init__("link-reader")
        self.dsn, self.who = dsn, who

    def read(self, links: list[str]) -> None:
        self.ask(lambda: self._read(links))

    def _read(self, links: list[str]) -> list[LinkedHit]:
        # the PostgreSQL client is loaded here, on the reader's thread, the first time a
        # linked table's supervisor looks: an unlinked table's start never loads it
        from dealer_link import server
        from dealer_link.display import linked_hits

        conn = server.connect(self.dsn, who=self.who)
        try:
            hits = [hit for link in links for hit in linked_hits(conn, link)]
        finally:
            conn.close()
        return sorted(hits, key=lambda h: h.confirmed_at, reverse=True)

    def failure(self, exc: Exception) -> str:
        first = str(exc).strip().splitlines()
        return first[0] if first else type(exc).__name__


def hit_row(hit: LinkedHit, here: str) -> tuple[str, ...]:
    """One hit as a row; the narrow columns hold two short lines each."""
    table = hit.table_id + ("\n(this table)" if hit.table_id == here else "")
    meter = ("from the tray" if hit.meter_before_micro is None else
             f"{hit.level} {format_cents(hit.meter_before_micro // MICRO)}\n"
             f"-> {format_cents((hit.meter_after_micro or 0) // MICRO)}")
    day, _, time = when(hit.confirmed_at).partition(" ")
    return (f"{hit.link}\n#{hit.hit_id}", table, f"{hit.round_id}\nseat {hit.seat}",
            f"line {hit.line_no}: {hit.line_label}", format_cents(hit.amount_cents), meter,
            f"{day}\n{time}")


class LinkHitsScreen(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.ctl = controller
        about = controller.about
        self.links = sorted(set(about.links.values()))
        self.table_id = about.link_table_id
        self.hits: list[LinkedHit] = []
        heading = QLabel("Hits on the jackpot link " + ", ".join(self.links)
                         + ", newest first" if self.links else "Linked hits")
        heading.setProperty("role", "heading")
        heading.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setProperty("role", "hint")
        self.table = table_widget(COLUMNS, STRETCH)
        self.refresh = TouchButton("Refresh", ButtonRole.SECONDARY, money=True)
        self.refresh.clicked.connect(self.read)
        actions = QHBoxLayout()
        actions.addStretch(1)
        actions.addWidget(self.refresh)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)
        layout.addLayout(actions)
        self._last_award: object = controller.snapshot().jackpot_last
        self.reader: LinkReader | None = None
        if not self.links or about.link_dsn is None:
            self.status.setText("This table plays no linked jackpot: its awards are on the "
                                "Jackpot awards screen.")
            self.table.hide()
            self.refresh.hide()
            return
        self.reader = LinkReader(about.link_dsn, f"{self.table_id} supervisor")
        self.reader.answered.connect(self._answered)
        self.reader.failed.connect(self._failed)
        self.status.setText("Reading the link's hits ...")

    def read(self) -> None:
        """Ask the link's server again (off the GUI thread)."""
        if self.reader is not None:
            self.refresh.setEnabled(False)
            self.reader.read(self.links)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.read()

    def show_view(self, view: TableSnapshot) -> None:
        """An award confirmed here while the screen is shown: read the link again."""
        if view.jackpot_last is not self._last_award:
            self._last_award = view.jackpot_last
            self.read()

    def _answered(self, hits: list[LinkedHit]) -> None:
        self.hits = hits
        fill(self.table, [hit_row(h, self.table_id) for h in hits])
        self.refresh.setEnabled(True)
        self.status.setProperty("role", "hint")
        self.status.style().polish(self.status)
        at = clock.now().strftime("%H:%M:%S UTC")
        self.status.setText(f"{len(hits)} hits on the link, read from its server at {at}. "
                            "Each was paid off the shared meter by the server, in its order."
                            if hits else f"No hit on the link yet (read at {at}).")

    def _failed(self, why: str) -> None:
        self.refresh.setEnabled(True)
        self.status.setProperty("role", "refusal")
        self.status.style().polish(self.status)
        self.status.setText(f"The link server cannot be reached ({why}): call the technician. "
                            + ("The list below is the last one read." if self.hits else ""))
