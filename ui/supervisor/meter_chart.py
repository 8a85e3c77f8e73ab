"""Meter history as a chart: each meter's amount over time from the jackpot ledger, with the
hits marked where they were paid. One meter at a time (a Mega meter of $50,000 would flatten
a $500 Minor on a shared axis), chosen with a button per meter. A hit backed out is not
starred: it is marked with a cross and says so, and the back-out (the meter given the award
back, perhaps days later) is a point of its own (issue 23). The time axis reads the table's
clock.

Drawn with pyqtgraph (``docs/meter-display.md`` says why not Qt Charts). The amounts are
plotted in whole cents (exact in a float far beyond any meter) and the axis labels them in
dollars, so what is drawn is the ledger's integer cents, never a rounded dollar figure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import pyqtgraph as pg  # type: ignore[import-untyped]
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.jackpot.history import LedgerEntry
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.money import format_cents
from ui import theme
from ui.bridge import ControllerBridge
from ui.meter_display.words import level_name
from ui.supervisor.session import Session
from ui.widgets.touch import ButtonRole, TouchButton


@dataclass(frozen=True, slots=True)
class HitMark:
    at: float
    """Seconds since the epoch."""
    cents: int
    """The meter just before the award: the amount the hit was paid from."""
    text: str
    backed_out: bool = False


@dataclass(frozen=True, slots=True)
class MeterSeries:
    """One meter's history: its amount (cents, rounded down as the monitor shows it) after
    each ledger entry, oldest first, and its hits. A hit's entries (a 100% award and the reset
    it brings, one transaction) are one point, at the award: the meter as it stood after
    both (the empty meter between them never stood on the monitor). A back-out is its own
    point, when it was made."""

    spot: int
    level: str
    times: tuple[float, ...]
    cents: tuple[int, ...]
    hits: tuple[HitMark, ...]

    def title(self, games: int) -> str:
        name = level_name(self.level)
        return f"Game {self.spot} {name}" if games > 1 else name


def _seconds(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def meter_series(entries: list[LedgerEntry], hit_words: dict[int, str] | None = None,
                 backed_out: frozenset[int] = frozenset()) -> list[MeterSeries]:
    """The ledger's entries split by meter, in the order each meter first appears;
    ``backed_out``: the awards backed out since."""
    words = hit_words or {}
    grouped: dict[tuple[int, str], list[LedgerEntry]] = {}
    for entry in entries:
        grouped.setdefault((entry.spot, entry.level), []).append(entry)
    out = []
    for (spot, level), rows in grouped.items():
        hits = tuple(
            HitMark(_seconds(e.recorded_at),
                    (e.meter_after_micro - e.meter_delta_micro) // MICRO,
                    words.get(e.hit_id, "") if e.hit_id is not None else "",
                    e.hit_id in backed_out)
            for e in rows if e.kind == "award")
        points: dict[object, tuple[str, int]] = {}  # entry or hit -> (time, meter after)
        for e in rows:
            paid_with_it = e.hit_id is not None and e.kind in ("award", "reset")
            key = ("hit", e.hit_id) if paid_with_it else e.entry
            at = points[key][0] if key in points else e.recorded_at
            points[key] = (at, e.meter_after_micro)
        out.append(MeterSeries(spot, level, tuple(_seconds(at) for at, _ in points.values()),
                               tuple(m // MICRO for _, m in points.values()), hits))
    return out


def read_series(ctl: TableController) -> list[MeterSeries]:
    ledger, hits = ctl.meter_history()
    words = {h.hit_id: f"Seat {h.seat}: {format_cents(h.amount_cents)}"
             + (" (backed out)" if h.backed_out else "") for h in hits}
    return meter_series(ledger, words, frozenset(h.hit_id for h in hits if h.backed_out))


class ClockAxis(pg.AxisItem):  # type: ignore[misc]
    """Seconds since the epoch shown as the table's clock time (``21:04:05``), with the date
    where the ticks are a day or more apart (pyqtgraph's own date axis fell back to bare
    seconds, ``55.099``, on a short span)."""

    def tickStrings(self, values: list[float], scale: float, spacing: float
                    ) -> list[str]:
        if spacing < 1:  # a chart of a few seconds (a new table): tenths, never repeated
            return [datetime.fromtimestamp(v).strftime("%H:%M:%S.%f")[:-5] for v in values]
        shape = "%d %b" if spacing >= 86_400 else "%H:%M" if spacing >= 60 else "%H:%M:%S"
        return [datetime.fromtimestamp(v).strftime(shape) for v in values]


class DollarAxis(pg.AxisItem):  # type: ignore[misc]
    """Cents on the axis, shown in dollars (whole dollars when the ticks are a dollar or
    more apart)."""

    def tickStrings(self, values: list[float], scale: float, spacing: float
                    ) -> list[str]:
        if spacing < 100:
            return [format_cents(round(v)) for v in values]
        return [format_cents(round(v) // 100 * 100)[:-3] for v in values]


class MeterChart(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.ctl = controller
        self.series: list[MeterSeries] = []
        self.shown: MeterSeries | None = None
        self._seen: tuple[int, int] | None = None
        pg.setConfigOptions(antialias=True, foreground=theme.TEXT, background=theme.SURFACE)
        self.plot = pg.PlotWidget(axisItems={"bottom": ClockAxis("bottom"),
                                             "left": DollarAxis("left")})
        self.plot.setMenuEnabled(False)
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        font = theme.font(theme.FONT_SMALL)
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            axis.setStyle(tickFont=font)
            axis.setTextPen(theme.TEXT)
        self.plot.getAxis("left").setWidth(120)
        self.line = self.plot.plot([], [], stepMode="right",
                                   pen=pg.mkPen(theme.SELECTED, width=3))
        self.marks = pg.ScatterPlotItem(symbol="star", size=28,
                                        brush=pg.mkBrush(theme.WARNING_AMBER),
                                        pen=pg.mkPen(theme.ON_AMBER))
        self.plot.addItem(self.marks)
        self.crossed = pg.ScatterPlotItem(symbol="x", size=24,
                                          brush=pg.mkBrush(theme.TEXT_MUTED),
                                          pen=pg.mkPen(theme.TEXT_MUTED))
        self.plot.addItem(self.crossed)
        self.labels: list[pg.TextItem] = []
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.empty = QLabel("No meter history yet: the ledger is empty.")
        self.picker = QHBoxLayout()
        self.picker.setSpacing(theme.SPACING)
        self.buttons: dict[tuple[int, str], TouchButton] = {}
        layout = QVBoxLayout(self)
        layout.setSpacing(theme.SPACING)
        layout.addWidget(self.heading)
        layout.addLayout(self.picker)
        layout.addWidget(self.empty)
        layout.addWidget(self.plot, 1)
        self.reload()

    def reload(self) -> None:
        """Read the ledger again and draw the meter on show (the first, at the start)."""
        self.series = read_series(self.ctl)
        games = len({s.spot for s in self.series})
        keys = [(s.spot, s.level) for s in self.series]
        if keys != list(self.buttons):
            for button in self.buttons.values():
                self.picker.removeWidget(button)
                button.deleteLater()
            self.buttons = {}
            for s in self.series:
                button = TouchButton(s.title(games), ButtonRole.SECONDARY)
                button.setCheckable(True)
                button.clicked.connect(lambda _=False, k=(s.spot, s.level): self.show_meter(*k))
                self.buttons[(s.spot, s.level)] = button
                self.picker.addWidget(button)
        self.empty.setVisible(not self.series)
        current = (self.shown.spot, self.shown.level) if self.shown else None
        if current not in self.buttons and keys:
            current = keys[0]
        if current is not None:
            self.show_meter(*current)

    def show_meter(self, spot: int, level: str) -> None:
        series = next(s for s in self.series if (s.spot, s.level) == (spot, level))
        self.shown = series
        for key, button in self.buttons.items():
            button.setChecked(key == (spot, level))
        games = len({s.spot for s in self.series})
        self.heading.setText(f"{series.title(games)}: now {format_cents(series.cents[-1])}, "
                             f"{len(series.hits)} hit{'s' if len(series.hits) != 1 else ''}")
        self.line.setData(list(series.times), list(series.cents), stepMode="right")
        paid = [h for h in series.hits if not h.backed_out]
        out = [h for h in series.hits if h.backed_out]
        self.marks.setData([h.at for h in paid], [h.cents for h in paid])
        self.crossed.setData([h.at for h in out], [h.cents for h in out])
        for label in self.labels:
            self.plot.removeItem(label)
        self.labels = []
        first, last = series.times[0], max([series.times[-1], *(h.at for h in series.hits)])
        middle = (first + last) / 2
        for hit in series.hits:
            # a label right of the middle hangs to the left of its mark, so none is cut at
            # the chart's right edge (nor the left)
            across = 0.0 if last == first else (1.0 if hit.at > middle else 0.0)
            label = pg.TextItem(hit.text, anchor=(across, 1.4),
                                color=theme.TEXT_MUTED if hit.backed_out else theme.WARNING_AMBER)
            label.setFont(theme.font(theme.FONT_SMALL, bold=True))
            label.setPos(hit.at, hit.cents)
            self.plot.addItem(label)
            self.labels.append(label)
        self.plot.enableAutoRange()

    def show_view(self, view: TableSnapshot) -> None:
        """A new round or a hit confirmed: the ledger has moved on."""
        seen = (view.round.round_id, len(view.jackpot_pending))
        if seen != self._seen:
            self._seen = seen
            self.reload()
