"""The supervisor's "Meter history" list: every change of a jackpot meter, newest first, from
the append-only ledger (``jackpot_ledger``): contributions at START GAME, awards, a 100%
award's reset, and the manual adjustments that backed an award out, with who and why.

Amounts are exact: a meter is kept in millionths of a cent (``docs/jackpot.md``, "Money below
the cent"), and what is below the cent is shown as further decimals, never rounded away."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from dealer_console.award_words import local_time
from dealer_console.controller import TableController, TableSnapshot
from dealer_console.jackpot.history import LedgerEntry
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.money import format_cents
from ui.bridge import ControllerBridge
from ui.supervisor.jackpot_screen import fill, table_widget
from ui.supervisor.session import Session

COLUMNS = ("Entry", "When", "Meter", "What", "Change", "After")
"""The meter and the reserve after a change share a column, so "What" has the width to show
its words whole at 1280x800 (issue 22: "contribu..."); times are local with their zone."""

KINDS = {"seed": "set up at the seed", "contribution": "contribution", "award": "award paid",
         "reset": "reset (100% award)", "adjustment": "backed out (adjustment)"}


def exact(micro: int, sign: bool = False) -> str:
    """Exact dollars: the cents, then any millionths of a cent as further decimals
    (``$2,512.155`` is 2,512 dollars, 15 cents and half a cent)."""
    prefix = "-" if micro < 0 else ("+" if sign and micro > 0 else "")
    cents, below = divmod(abs(micro), MICRO)
    return prefix + format_cents(cents) + f"{below:06d}".rstrip("0")


def what(entry: LedgerEntry, reasons: dict[int, str]) -> str:
    words = KINDS.get(entry.kind, entry.kind)
    where = []
    if entry.round_id is not None:
        where.append(f"round {entry.round_id}")
    if entry.seat is not None:
        where.append(f"seat {entry.seat}")
    if entry.hit_id is not None:
        where.append(f"award {entry.hit_id}")
    if entry.kind == "adjustment" and entry.hit_id in reasons:
        where.append(reasons[entry.hit_id])
    return words + (f"\n{', '.join(where)}" if where else "")


class MeterHistoryList(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.ctl = controller
        heading = QLabel("Meter history, newest first")
        heading.setProperty("role", "heading")
        self.table = table_widget(COLUMNS, ("What",))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(self.table, 1)
        self.entries: list[LedgerEntry] = []
        self.reload()

    def reload(self) -> None:
        self.entries = self.ctl.meter_ledger()
        reasons = {e.hit.hit_id: f"{e.back_out.employee_name}: {e.back_out.reason}"
                   for e in self.ctl.jackpot_awards() if e.back_out is not None}
        fill(self.table, [
            (str(e.entry), local_time(e.recorded_at).replace(" ", "\n", 1),
             f"game {e.spot}\n{e.level}", what(e, reasons), exact(e.meter_delta_micro, sign=True),
             f"meter {exact(e.meter_after_micro)}\nreserve {exact(e.reserve_after_micro)}")
            for e in self.entries])

    def show_view(self, view: TableSnapshot) -> None:
        self.reload()
