"""The pit's window: the pit's figures, the loud alerts in order of urgency, a tile per table;
a touch on a tile (or an alert) opens the table: its round, devices, recent events, figures,
and each alert with a button to acknowledge it on a supervisor's card (a records alert also
with one to clear it: a reason typed, then an executive's card).

Everything drawn comes from the reader's answers (``reader.py``, a worker thread); the GUI
thread only compares and draws. A tile is redrawn only when its table's report, alerts or
acknowledgements changed. Tiles keep the floor's order (by table name) and never move: a
finger aimed at one table must not land on another because an alert came up meanwhile; the
strip above them lists the loud alerts in order of urgency, in rows made once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_console.money import format_cents
from dealer_link.pit.alerts import Alert, alerts_of, natural, pit_alerts
from dealer_link.pit.server import Ack, ReportRow
from dealer_link.pit.sql_witness import REASON_MAX
from ui import theme
from ui.pit.tiles import TITLES, AlertRow, Tile, phase_words
from ui.widgets.text_keyboard import TextKeyboard
from ui.widgets.touch import ButtonRole, TouchButton, kinetic

MAX_ALERT_ROWS = 3
"""Loud alerts listed above the tiles (the rest are on their tiles, in the same order)."""
TILE_WIDTH = 260


def pit_figures(rows: list[ReportRow]) -> str:
    drop = sum(r.report.drop_cents for r in rows)
    hold = sum(r.report.hold_cents for r in rows)
    share = f" ({hold * 100 / drop:.1f}%)" if drop else ""
    return (f"{len(rows)} tables · shift drop {format_cents(drop)} · hold "
            f"{format_cents(hold, sign=True)}{share}")


def _heading(button: str, role: ButtonRole, width: int, touched: Callable[[], object]
             ) -> tuple[QLabel, QHBoxLayout]:
    """A page's title (a table's words: plain text) with its one button on the right."""
    title = QLabel()
    title.setTextFormat(Qt.TextFormat.PlainText)
    title.setProperty("role", "heading")
    press = TouchButton(button, role)
    press.setMinimumWidth(theme.TOUCH_MIN * width)
    press.clicked.connect(lambda: touched())
    top = QHBoxLayout()
    top.addWidget(title, 1)
    top.addWidget(press)
    return title, top


class TablePage(QWidget):
    """One table opened from its tile: what the pit knows of it and its alerts."""

    def __init__(self, on_back: Callable[[], object],
                 on_ack: Callable[[str, str], object],
                 on_clear: Callable[[str], object]) -> None:
        super().__init__()
        self._on_ack, self._on_clear = on_ack, on_clear
        self.title, top = _heading("Back to the pit", ButtonRole.PRIMARY, 5, on_back)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.alerts = QVBoxLayout()
        self.events = QLabel()
        self.events.setTextFormat(Qt.TextFormat.PlainText)
        self.events.setWordWrap(True)
        self.events.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.events.setProperty("role", "hint")
        left = QVBoxLayout()
        left.addLayout(self.alerts)  # what to do first, then what the pit knows
        left.addWidget(self.body)
        left.addStretch(1)
        right = QVBoxLayout()
        heading = QLabel("Recent events")
        heading.setStyleSheet(f"font-size: {theme.FONT_LABEL}px; font-weight: bold;")
        right.addWidget(heading)
        right.addWidget(self.events)
        right.addStretch(1)
        columns = QHBoxLayout()
        columns.addLayout(left, 3)
        columns.addLayout(right, 2)
        inner = QWidget()
        inner.setLayout(columns)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        kinetic(scroll)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(scroll, 1)
        self.table_id = ""
        self._alert_keys: list[tuple[str, str, Ack | None]] = []

    def show_row(self, row: ReportRow) -> None:
        r = row.report
        if r.table_id != self.table_id:
            self._alert_keys = []
        self.table_id = r.table_id
        self.title.setText(f"Table {r.table_id} · {phase_words(row)}")
        # a table's words are its own: shown as text, never as markup (a table's login
        # must not draw on the pit's screen, nor make it load anything)
        devices = "<br>".join(
            f"{escape(d.title)}: {'working' if d.ok else '<b>DOWN</b>'}"
            + (f" ({escape(d.fault)})" if d.fault else "") for d in r.devices
        ) or "none reported"
        link = {"up": "up", "none": "this table plays no linked jackpot"}.get(
            r.link_state, f"<b>down</b>: {escape(r.link_state)}")
        self.body.setText(
            f"<p><b>The round</b><br>{escape(r.round_text) or 'no round under way'}</p>"
            f"<p><b>Shift</b><br>drop {format_cents(r.drop_cents)} · hold "
            f"{format_cents(r.hold_cents, sign=True)}</p>"
            f"<p><b>Self-test</b>: {escape(r.self_test)}<br><b>Table</b>: "
            f"{'open' if r.table_open else '<b>CLOSED</b>'}<br><b>Jackpot link</b>: {link}"
            f"<br><b>Last report</b>: {row.age_ms / 1000:.0f} s ago</p>"
            f"<p><b>Devices</b><br>{devices}</p>"
            + (f"<p><b>Records</b><br>{escape(row.rewind.detail())}</p>" if row.rewind
               else ""))
        self.events.setText("\n".join(r.events) or "none reported")
        found = alerts_of(row)
        keys = [(a.kind, a.words, a.acked) for a in found]
        if keys == self._alert_keys:
            return  # the buttons stay as they are: a finger on one is never pulled away
        self._alert_keys = keys
        while self.alerts.count():
            item = self.alerts.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for alert in found:
            self.alerts.addWidget(self._alert_line(alert))

    def _alert_line(self, alert: Alert) -> QWidget:
        box = QFrame()
        box.setProperty("role", "panel")
        line = QHBoxLayout(box)
        acked = alert.acked
        words = QLabel(f"<b>{TITLES[alert.kind]}</b> — {escape(alert.words)}"
                       + (f"<br>acknowledged by {escape(acked.name)} "
                          f"({escape(acked.employee_id)}) at {escape(acked.at)}"
                          if acked else ""))
        words.setTextFormat(Qt.TextFormat.RichText)
        words.setWordWrap(True)
        line.addWidget(words, 1)
        if alert.clearable:
            clear = TouchButton("Clear…", ButtonRole.SECONDARY)
            clear.setMinimumWidth(theme.TOUCH_MIN * 3)
            clear.clicked.connect(lambda _=False: self._on_clear(self.table_id))
            line.addWidget(clear)
        if alert.acked is None:
            ack = TouchButton("Acknowledge", ButtonRole.DANGER)
            ack.setMinimumWidth(theme.TOUCH_MIN * 4)
            ack.clicked.connect(lambda _=False, k=alert.kind: self._on_ack(self.table_id, k))
            line.addWidget(ack)
        return box


class PitWindow(QWidget):
    """``show_rows`` with the reader's answer; ``acknowledge`` (table, kind, card track) is
    called when a card is swiped for an alert (the reader sends it to the server)."""

    def __init__(self, acknowledge: Callable[[str, str, str], object] | None = None,
                 clear: Callable[[str, int, str, str], object] | None = None) -> None:
        super().__init__()
        self.setWindowTitle("Dealer Console · pit")
        self.setObjectName("pit")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(f"QWidget#pit {{ background: {theme.BACKGROUND}; }}")
        self._acknowledge = acknowledge
        self._clear = clear
        self.shown_at: Callable[[ReportRow], object] | None = None
        """Told of each report as it is drawn (the benchmark's clock)."""
        self.rows: dict[str, ReportRow] = {}
        self.tiles: dict[str, Tile] = {}
        self._order: list[str] = []
        self._alert_keys: list[tuple[str, str, str]] = []
        self.heading = QLabel("Pit")
        self.heading.setProperty("role", "heading")
        self.figures = QLabel("waiting for the tables' reports")
        self.figures.setWordWrap(True)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # the server's words, as text
        self.status.setWordWrap(True)
        self.status.setProperty("role", "hint")
        self.more = QLabel()
        self.more.setStyleSheet(f"color: {theme.WARNING_AMBER}; font-weight: bold;")
        top = QHBoxLayout()
        top.addWidget(self.heading)
        top.addWidget(self.figures, 1)
        top.addWidget(self.more)
        self.alert_box = QVBoxLayout()
        self.alert_box.setSpacing(6)
        self.alert_rows = [AlertRow() for _ in range(MAX_ALERT_ROWS)]
        for alert_row in self.alert_rows:
            alert_row.clicked.connect(lambda _=False, w=alert_row: self._alert_touched(w))
            self.alert_box.addWidget(alert_row)
        self.grid = QGridLayout()
        self.grid.setSpacing(theme.SPACING)
        grid_host = QWidget()
        outer = QVBoxLayout(grid_host)
        outer.addLayout(self.grid)
        outer.addStretch(1)
        self.tiles_area = QScrollArea()
        self.tiles_area.setWidgetResizable(True)
        self.tiles_area.setFrameShape(QFrame.Shape.NoFrame)
        self.tiles_area.setWidget(grid_host)
        kinetic(self.tiles_area)
        floor = QWidget()
        floor_layout = QVBoxLayout(floor)
        floor_layout.setContentsMargins(0, 0, 0, 0)
        floor_layout.addLayout(self.alert_box)
        floor_layout.addWidget(self.tiles_area, 1)
        self.page = TablePage(self.show_floor, self.ask_card, self.ask_reason)
        self.reason = ReasonPage(self._reason_given, self._back_to_table)
        self.card = QFrame()
        self.card.setProperty("role", "card-prompt")
        self.card_words = QLabel()
        self.card_words.setTextFormat(Qt.TextFormat.PlainText)
        self.card_words.setWordWrap(True)
        self.track = QLineEdit()  # the podium's card reader types the track and Enter
        self.track.setEchoMode(QLineEdit.EchoMode.Password)
        self.track.setFixedWidth(1)
        self.track.returnPressed.connect(self._swiped)
        cancel = TouchButton("Cancel", ButtonRole.SECONDARY)
        cancel.setMinimumWidth(theme.TOUCH_MIN * 3)
        cancel.clicked.connect(self._cancel_card)
        card_line = QHBoxLayout(self.card)
        card_line.addWidget(self.card_words, 1)
        card_line.addWidget(self.track)
        card_line.addWidget(cancel)
        self.card.hide()
        self._wanted: SwipeFor | None = None
        self.stack = QStackedWidget()
        self.stack.addWidget(floor)
        self.stack.addWidget(self.page)
        self.stack.addWidget(self.reason)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, theme.SPACING, theme.SPACING, theme.SPACING)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.card)
        layout.addWidget(self.stack, 1)
        self.status.hide()

    # -- answers from the reader -------------------------------------------------------------

    def show_rows(self, rows: list[ReportRow]) -> None:
        """The reader's newest answer: redraw what changed."""
        self.status.hide()
        fresh = {r.report.table_id: r for r in rows}
        for table_id, row in fresh.items():
            old = self.rows.get(table_id)
            if old is not None and _same(old, row):
                continue
            tile = self.tiles.get(table_id)
            if tile is None:
                tile = Tile(table_id)
                tile.clicked.connect(lambda _=False, t=table_id: self.open_table(t))
                self.tiles[table_id] = tile
            tile.show_row(row, alerts_of(row))
            if self.shown_at is not None and (old is None or old.report != row.report):
                self.shown_at(row)
        for gone in set(self.rows) - set(fresh):
            self.tiles.pop(gone).deleteLater()
        self.rows = fresh
        self.figures.setText(pit_figures(rows))
        self._lay_out()
        if self.stack.currentWidget() is self.page and self.page.table_id in fresh:
            self.page.show_row(fresh[self.page.table_id])  # only what changed is redrawn

    def show_problem(self, words: str) -> None:
        self.status.setText(f"{words} (what is shown may be old; retrying)")
        self.status.show()

    def acked(self, table_id: str, kind: str, who: str, words: str) -> None:
        if kind == "rewind" and who and self.reason.table_id == table_id:
            self.reason.forget()  # cleared: the next alert's reason is its own
        self.status.setText(f"Table {table_id}, {TITLES.get(kind, kind).lower()}: {words}")
        self.status.show()

    # -- layout --------------------------------------------------------------------------------

    def _lay_out(self) -> None:
        order = sorted(self.rows, key=natural)  # the floor's order: a tile never moves
        columns = max(1, (self.width() - 2 * theme.SPACING) // (TILE_WIDTH + theme.SPACING))
        if order != self._order or columns != getattr(self, "_columns", 0):
            for index, table_id in enumerate(order):
                self.grid.addWidget(self.tiles[table_id], index // columns, index % columns)
            self._order, self._columns = order, columns
        loud = [a for a in pit_alerts(list(self.rows.values())) if a.acked is None]
        keys = [(a.table_id, a.kind, a.words) for a in loud[:MAX_ALERT_ROWS]]
        if keys != self._alert_keys:
            for index, alert_row in enumerate(self.alert_rows):
                alert_row.show_alert(loud[index] if index < len(loud) else None)
            self._alert_keys = keys
        extra = len(loud) - MAX_ALERT_ROWS
        more = (f"+{extra} more alert{'s' if extra > 1 else ''} on the tiles" if extra > 0
                else "")
        if self.more.text() != more:
            self.more.setText(more)

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        if self.rows:
            self._lay_out()

    # -- touches -------------------------------------------------------------------------------

    def _alert_touched(self, row: AlertRow) -> None:
        if row.alert is not None:
            self.open_table(row.alert.table_id)

    def open_table(self, table_id: str) -> None:
        row = self.rows.get(table_id)
        if row is None:
            return
        self.page.show_row(row)
        self.stack.setCurrentWidget(self.page)

    def show_floor(self) -> None:
        self._cancel_card()
        self.stack.setCurrentIndex(0)

    def ask_card(self, table_id: str, kind: str) -> None:
        """An alert's Acknowledge: the card reader's next swipe is for it."""
        self._wanted = SwipeFor(table_id, kind)
        self._show_card(f"Swipe a supervisor's card to acknowledge table {table_id}'s "
                        f"{TITLES[kind].lower()}.")

    def ask_reason(self, table_id: str) -> None:
        """A records alert's Clear: first the reason, typed, for the alert shown now."""
        self._cancel_card()
        row = self.rows.get(table_id)
        if row is None or row.rewind is None:
            return
        self.reason.ask(table_id, row.rewind.entry)
        self.stack.setCurrentWidget(self.reason)

    def _reason_given(self, table_id: str, entry: int, reason: str) -> None:
        self.stack.setCurrentWidget(self.page)
        self._wanted = SwipeFor(table_id, "rewind", (entry, reason))
        self._show_card(f"Swipe an executive's card to clear table {table_id}'s records "
                        f"alert, for: {reason}")

    def _back_to_table(self) -> None:
        self.stack.setCurrentWidget(self.page)

    def _show_card(self, words: str) -> None:
        self.card_words.setText(words)
        self.track.clear()
        self.card.show()
        self.track.setFocus()

    def _swiped(self) -> None:
        track, wanted = self.track.text(), self._wanted
        self.track.clear()
        self._cancel_card()
        if wanted is None or not track:
            return
        if wanted.clearing is None and self._acknowledge is not None:
            self._acknowledge(wanted.table_id, wanted.kind, track)
        elif wanted.clearing is not None and self._clear is not None:
            entry, reason = wanted.clearing
            self._clear(wanted.table_id, entry, track, reason)
        else:
            return
        self.status.setText("Checking the card with the server …")
        self.status.show()

    def _cancel_card(self) -> None:
        self._wanted = None
        self.card.hide()


@dataclass(frozen=True, slots=True)
class SwipeFor:
    """What the podium's next swipe is for: acknowledging a table's alert, or clearing its
    records alert (``clearing``: the alert's number and the reason typed for it)."""

    table_id: str
    kind: str
    clearing: tuple[int, str] | None = None


class ReasonPage(QWidget):
    """Why a table's records alert is cleared, typed before the executive's card is asked
    for: the reason is written with the clearing, for the auditor."""

    def __init__(self, on_reason: Callable[[str, int, str], object],
                 on_cancel: Callable[[], object]) -> None:
        super().__init__()
        self.table_id = ""
        self.entry = 0
        self.title, top = _heading("Cancel", ButtonRole.SECONDARY, 3, on_cancel)
        self.title.setWordWrap(True)
        self.keys = TextKeyboard(_reason_problem, "why the table's records went back (a "
                                 "restore after a failed disk, ...), then OK",
                                 sentence=True, max_chars=REASON_MAX)
        self.keys.accepted.connect(lambda text: on_reason(self.table_id, self.entry,
                                                          text.strip()))
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.keys, 1)

    def ask(self, table_id: str, entry: int) -> None:
        """The reason for ``table_id``'s alert ``entry``; one typed for that very alert and
        refused (a supervisor's card swiped first, say) is kept, not typed again."""
        if entry != self.entry:
            self.keys.clear()
        self.table_id, self.entry = table_id, entry
        self.title.setText(f"Clear table {table_id}'s records alert: the reason")

    def forget(self) -> None:
        self.keys.clear()
        self.entry = 0


def _reason_problem(text: str) -> str | None:
    return None if any(ch.isalnum() for ch in text) else "type the reason in words"


def _same(old: ReportRow, new: ReportRow) -> bool:
    """Nothing to redraw: the same report and acknowledgements, and the heartbeat on the same
    side of its bound."""
    return (old.report == new.report and old.acks == new.acks and old.rewind == new.rewind
            and [a.kind for a in alerts_of(old)] == [a.kind for a in alerts_of(new)])
