"""A table's tile on the pit and the alerts strip: what needs a person, loud and first.

Drawn only from :class:`~dealer_link.pit.server.ReportRow` values (the reader's answer);
no rule here beyond the words and colours of ``dealer_link/pit/alerts.py``'s alerts."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from dealer_console.money import format_cents
from dealer_link.pit.alerts import Alert, alerts_of
from dealer_link.pit.server import ReportRow
from ui import theme

LOUD = {"jackpot": (theme.FAULT_RED, theme.ON_FILL), "rewind": (theme.FAULT_RED, theme.ON_FILL),
        "closed": (theme.FAULT_RED, theme.ON_FILL),
        "device": (theme.WARNING_AMBER, theme.ON_AMBER),
        "heartbeat": (theme.WARNING_AMBER, theme.ON_AMBER),
        "link": (theme.WARNING_AMBER, theme.ON_AMBER)}
"""An alert's fill and text colour while nobody has acknowledged it."""
TITLES = {"jackpot": "JACKPOT WAITING", "rewind": "RECORDS WENT BACK", "closed": "TABLE CLOSED",
          "device": "DEVICE DOWN", "heartbeat": "NO HEARTBEAT", "link": "LINK DOWN"}
PHASES = {"banker": "choosing the banker", "betting": "taking bets",
          "action": "entering the action", "dealing": "dealing", "deal_check": "checking the deal",
          "misdeal": "misdeal", "banker_set": "setting the banker's hand",
          "players_set": "setting players' hands", "settlement": "settling", "end": "settled",
          "complete": "round over", "voided": "round voided"}
"""The round's phases (``round/state.py`` ``Phase``) as the pit says them."""


TILE_HEIGHT = 170
"""Room for the name, the round on two lines, drop and hold, and the alert."""


def phase_words(row: ReportRow) -> str:
    r = row.report
    phase = PHASES.get(r.phase, r.phase.replace("_", " "))
    return f"round {r.round_id}: {phase}" if r.round_id is not None else phase


def _style(fill: str, text: str, border: str, dashed: bool = False) -> str:
    return (f"QPushButton {{ background: {fill}; border: 3px {'dashed' if dashed else 'solid'} "
            f"{border}; border-radius: {theme.RADIUS}px; padding: 0px; }}"
            f"QLabel {{ color: {text}; background: transparent; }}")


class Tile(QPushButton):
    """One table: its name, its round, the shift's drop and hold and its worst alert; a
    touch opens the table (``clicked``). Coloured by its most urgent loud alert."""

    def __init__(self, table_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table_id = table_id
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setMinimumWidth(theme.TOUCH_MIN * 4)
        self.setFixedHeight(TILE_HEIGHT)  # a change of words never moves the other tiles
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, theme.SPACING // 2, theme.SPACING,
                                  theme.SPACING // 2)
        layout.setSpacing(2)
        self.name = QLabel(table_id)
        self.name.setStyleSheet(f"font-size: {theme.FONT_LABEL}px; font-weight: bold;")
        self.state = QLabel()
        self.figures = QLabel()
        for small in (self.state, self.figures):
            small.setStyleSheet(f"font-size: {theme.FONT_SMALL}px;")
        self.alert = QLabel()
        self.alert.setStyleSheet("font-weight: bold;")
        for label in (self.name, self.state, self.figures, self.alert):
            label.setTextFormat(Qt.TextFormat.PlainText)  # a table's words, never markup
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
            label.setWordWrap(True)
            layout.addWidget(label)
        self.shown: ReportRow | None = None
        self.top: Alert | None = None
        self._style = ""

    def _restyle(self, style: str) -> None:
        """A new style sheet re-polishes the tile and its labels: only when it changes."""
        if style != self._style:
            self._style = style
            self.setStyleSheet(style)

    def _say(self, label: QLabel, text: str) -> None:
        if label.text() != text:
            label.setText(text)

    def show_row(self, row: ReportRow, found: list[Alert]) -> None:
        self.shown = row
        r = row.report
        self._say(self.state, phase_words(row))
        self._say(self.figures, f"Drop {format_cents(r.drop_cents)}\n"
                                f"Hold {format_cents(r.hold_cents, sign=True)}")
        loud = [a for a in found if a.acked is None]
        self.top = (loud or found)[0] if found else None
        if loud:
            fill, text = LOUD[loud[0].kind]
            more = f" (+{len(found) - 1})" if len(found) > 1 else ""
            self._say(self.alert, TITLES[loud[0].kind] + more)
            self._restyle(_style(fill, text, theme.TEXT))
        elif found:
            ack = found[0].acked
            who = f" · {ack.name}" if ack is not None else ""
            self._say(self.alert, f"{TITLES[found[0].kind].lower().capitalize()}: seen{who}")
            self._restyle(_style(theme.SURFACE_RAISED, theme.TEXT, theme.WARNING_AMBER,
                                 dashed=True))
        else:
            self._say(self.alert, "")
            self._restyle(_style(theme.SURFACE, theme.TEXT, theme.BORDER))



class AlertRow(QPushButton):
    """A place in the strip above the tiles for one alert: the table, what is wrong, what to
    do. The strip's rows are made once and keep their height, so an alert coming or going
    never moves the tiles (nor costs the screen a new layout)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.alert: Alert | None = None
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setFixedHeight(theme.TOUCH_MIN + 8)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, 4, theme.SPACING, 4)
        self.words = QLabel()
        self.words.setTextFormat(Qt.TextFormat.RichText)
        self.words.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        layout.addWidget(self.words)
        self._kind: str | None = "-"
        self.show_alert(None)

    def show_alert(self, alert: Alert | None) -> None:
        self.alert = alert
        text = (f"<b>{escape(alert.table_id)} · {TITLES[alert.kind]}</b> — "
                f"{escape(alert.words)}" if alert is not None else "")
        if self.words.text() != text:
            self.words.setText(text)
        kind = None if alert is None else alert.kind
        if kind != self._kind:
            self._kind = kind
            if kind is None:
                self.setStyleSheet(_style(theme.BACKGROUND, theme.TEXT, theme.BACKGROUND))
            else:
                fill, colour = LOUD[kind]
                self.setStyleSheet(_style(fill, colour, theme.TEXT))
        self.setEnabled(alert is not None)


def tile_alerts(row: ReportRow) -> list[Alert]:
    return alerts_of(row)
