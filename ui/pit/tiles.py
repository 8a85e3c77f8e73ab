"""A table's tile on the pit and the alerts strip: what needs a person, loud and first.

Drawn only from :class:`~dealer_console.pit.server.ReportRow` values (the reader's answer);
no rule here beyond the words and colours of ``dealer_console/pit/alerts.py``'s alerts."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from dealer_console.money import format_cents
from dealer_console.pit.alerts import Alert, alerts_of
from dealer_console.pit.server import ReportRow
from ui import theme

LOUD = {"jackpot": (theme.FAULT_RED, theme.ON_FILL), "closed": (theme.FAULT_RED, theme.ON_FILL),
        "device": (theme.WARNING_AMBER, theme.ON_AMBER),
        "heartbeat": (theme.WARNING_AMBER, theme.ON_AMBER),
        "link": (theme.WARNING_AMBER, theme.ON_AMBER)}
"""An alert's fill and text colour while nobody has acknowledged it."""
TITLES = {"jackpot": "JACKPOT WAITING", "closed": "TABLE CLOSED", "device": "DEVICE DOWN",
          "heartbeat": "NO HEARTBEAT", "link": "LINK DOWN"}
PHASES = {"banker": "choosing the banker", "betting": "taking bets",
          "action": "entering the action", "dealing": "dealing", "deal_check": "checking the deal",
          "misdeal": "misdeal", "banker_set": "setting the banker's hand",
          "players_set": "setting players' hands", "settlement": "settling", "end": "settled",
          "complete": "round over", "voided": "round voided"}
"""The round's phases (``round/state.py`` ``Phase``) as the pit says them."""


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
        self.setMinimumSize(theme.TOUCH_MIN * 4, theme.TOUCH_MIN * 2)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, theme.SPACING // 2, theme.SPACING,
                                  theme.SPACING // 2)
        layout.setSpacing(2)
        self.name = QLabel(table_id)
        self.name.setStyleSheet(f"font-size: {theme.FONT_LABEL}px; font-weight: bold;")
        self.state = QLabel()
        self.figures = QLabel()
        self.alert = QLabel()
        self.alert.setStyleSheet("font-weight: bold;")
        for label in (self.name, self.state, self.figures, self.alert):
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
            label.setWordWrap(True)
            layout.addWidget(label)
        self.shown: ReportRow | None = None
        self.top: Alert | None = None

    def show_row(self, row: ReportRow, found: list[Alert]) -> None:
        self.shown = row
        r = row.report
        self.state.setText(phase_words(row))
        self.figures.setText(f"Drop {format_cents(r.drop_cents)}\n"
                             f"Hold {format_cents(r.hold_cents, sign=True)}")
        loud = [a for a in found if a.acked is None]
        self.top = (loud or found)[0] if found else None
        if loud:
            fill, text = LOUD[loud[0].kind]
            more = f" (+{len(found) - 1})" if len(found) > 1 else ""
            self.alert.setText(TITLES[loud[0].kind] + more)
            self.setStyleSheet(_style(fill, text, theme.TEXT))
        elif found:
            ack = found[0].acked
            who = f" · {ack.name}" if ack is not None else ""
            self.alert.setText(f"{TITLES[found[0].kind].lower().capitalize()}: seen{who}")
            self.setStyleSheet(_style(theme.SURFACE_RAISED, theme.TEXT, theme.WARNING_AMBER,
                                      dashed=True))
        else:
            self.alert.setText("")
            self.setStyleSheet(_style(theme.SURFACE, theme.TEXT, theme.BORDER))
        self.alert.setVisible(bool(found))


class AlertRow(QPushButton):
    """One alert in the strip above the tiles: the table, what is wrong, what to do."""

    def __init__(self, alert: Alert, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.alert = alert
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setMinimumHeight(theme.TOUCH_MIN)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, 4, theme.SPACING, 4)
        label = QLabel(f"<b>{alert.table_id} · {TITLES[alert.kind]}</b> — {alert.words}")
        label.setWordWrap(True)
        label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        layout.addWidget(label)
        fill, text = LOUD[alert.kind]
        self.setStyleSheet(_style(fill, text, theme.TEXT))


def tile_alerts(row: ReportRow) -> list[Alert]:
    return alerts_of(row)
