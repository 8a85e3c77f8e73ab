"""The meter display's window: each game's meters in the largest type, its paytable with pays
scaled to the fixed wager, a hit waiting for its card, and the last win with the meter's new
amount.

It holds nothing of its own: the meters come from the table database (read on the
:class:`~ui.meter_display.reader.MeterReader`'s thread whenever the controller says the table
changed) and the waiting hits from the controller's view, so a window closed and opened again
shows the same. A linked game's amounts are read from the link's server on the same thread."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication, QScreen
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.controller.view import PendingHit
from dealer_console.jackpot.display import GameShown, LastHit, MeterDisplay
from dealer_console.money import format_cents
from ui import theme
from ui.bridge import ControllerBridge
from ui.meter_display import words
from ui.meter_display.placement import place
from ui.meter_display.reader import MeterReader

METER_FONT = 132
"""A meter amount's type with one meter on the screen: read across the table."""
TITLE_FONT = 40
LINE_FONT = 30
LINKED_POLL_MS = 1000
"""How often a linked game's shared meter is read again from the link's server (off the GUI
thread): the other tables' wagers and hits move it too."""


def _label(text: str = "", size: int = theme.FONT_BODY, *, bold: bool = False,
           colour: str = theme.TEXT, align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft
           ) -> QLabel:
    label = QLabel(text)
    weight = "bold" if bold else "normal"
    label.setStyleSheet(f"font-size: {size}px; font-weight: {weight}; color: {colour};"
                        "background: transparent;")
    label.setAlignment(align | Qt.AlignmentFlag.AlignVCenter)
    return label


class GamePanel(QFrame):
    """One jackpot game: title, meters, the hit of the moment, paytable."""

    def __init__(self, game: GameShown, games: int) -> None:
        super().__init__()
        self.spot = game.spot
        self.setObjectName("meterGame")
        self.setStyleSheet(f"#meterGame {{ background: {theme.SURFACE}; "
                           f"border-radius: {theme.RADIUS}px; }}")
        centre = Qt.AlignmentFlag.AlignHCenter
        self.title = _label(words.game_title(game, games), TITLE_FONT, bold=True,
                            colour=theme.TEXT_MUTED, align=centre)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING * 2, theme.SPACING, theme.SPACING * 2,
                                  theme.SPACING)
        layout.setSpacing(theme.SPACING // 2)
        layout.addWidget(self.title)
        # the amounts stay the biggest thing however many meters share the screen
        size = max(METER_FONT // max(1, games, len(game.meters) - 1), 56)
        line_font = LINE_FONT if games == 1 else LINE_FONT * 3 // 4
        self.meters: dict[str, QLabel] = {}
        for meter in game.meters:
            if len(game.meters) > 1:
                layout.addWidget(_label(words.level_name(meter.level), TITLE_FONT,
                                        colour=theme.TEXT_MUTED, align=centre))
            amount = _label("", size, bold=True, colour=theme.WARNING_AMBER, align=centre)
            amount.setObjectName(f"meter-{meter.level}")
            self.meters[meter.level] = amount
            layout.addWidget(amount)
        self.line_font = line_font
        self.news = _label("", line_font, bold=True, align=centre)
        self.news.setWordWrap(True)
        self.news.setObjectName("meterEvent")
        layout.addWidget(self.news)
        self.lines: dict[str, QLabel] = {}
        grid = QGridLayout()
        grid.setHorizontalSpacing(theme.SPACING * 2)
        grid.setVerticalSpacing(2)
        for row, line in enumerate(game.lines):
            label = _label(line.label, line_font)
            label.setWordWrap(True)
            grid.addWidget(label, row, 0)
            pay = _label(words.pay_text(line), line_font, bold=True,
                         align=Qt.AlignmentFlag.AlignRight)
            self.lines[line.label] = pay
            grid.addWidget(pay, row, 1)
        layout.addStretch(1)
        layout.addLayout(grid)
        layout.addStretch(1)

    def show_game(self, game: GameShown, pending: tuple[PendingHit, ...],
                  last: LastHit | None) -> None:
        for meter in game.meters:
            self.meters[meter.level].setText(format_cents(meter.cents))
        mine = [hit for hit in pending if hit.spot == game.spot]
        if mine:
            text = "\n".join(["Jackpot hand waiting for confirmation"]
                             + [words.pending_text(hit) for hit in mine])
            self._news(text, theme.WARNING_AMBER, theme.ON_AMBER)
        elif last is not None and last.spot == game.spot:
            lines = [words.win_text(last), words.new_amount_text(game, last)]
            self._news("\n".join(t for t in lines if t), theme.OK_GREEN, theme.ON_FILL)
        else:
            self.news.setText("")
            self.news.hide()

    def _news(self, text: str, fill: str, colour: str) -> None:
        self.news.setText(text)
        self.news.setStyleSheet(f"font-size: {self.line_font}px; font-weight: bold; "
                                f"color: {colour};"
                                f"background: {fill}; border-radius: {theme.RADIUS}px;"
                                f"padding: {theme.SPACING}px;")
        self.news.show()


class MeterDisplayWindow(QWidget):
    """The table monitor's window for one table (its controller's bridge)."""

    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 db_path: str | Path | None = None, parent: QWidget | None = None) -> None:
        # a window of its own even with a parent (the parent only keeps it alive)
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(f"Jackpot meters: {controller.about.title}")
        self.setAutoFillBackground(True)
        self.ctl = controller
        self.bridge = bridge
        self.panels: dict[int, GamePanel] = {}
        self.on_closed: list[Callable[[], object]] = []
        self._display: MeterDisplay | None = None
        self._pending: tuple[PendingHit, ...] = controller.snapshot().jackpot_pending
        self._shape: tuple[object, ...] = ()
        self._stopped = False
        self.heading = _label("Jackpot", TITLE_FONT, bold=True,
                              align=Qt.AlignmentFlag.AlignHCenter)
        self.problem = _label("", theme.FONT_BODY, colour=theme.WARNING_AMBER,
                              align=Qt.AlignmentFlag.AlignHCenter)
        self.problem.hide()
        self.row = QHBoxLayout()
        self.row.setSpacing(theme.SPACING * 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING * 2, theme.SPACING, theme.SPACING * 2,
                                  theme.SPACING * 2)
        layout.addWidget(self.heading)
        layout.addLayout(self.row, 1)
        layout.addWidget(self.problem)
        about = controller.about  # a linked game's amounts are the link server's
        self.reader = MeterReader(db_path or about.db_path, self,
                                  links=dict(about.links) or None, dsn=about.link_dsn)
        self.reader.read.connect(self._read)
        self.reader.failed.connect(self._failed)
        bridge.changed.connect(self.show_view)
        app = QGuiApplication.instance()
        assert isinstance(app, QGuiApplication)
        app.screenAdded.connect(self._screens_changed)
        app.screenRemoved.connect(self._screens_changed)
        self.reader.request()
        self._poll = QTimer(self)  # a linked meter moves with every table on the link, not
        self._poll.setInterval(LINKED_POLL_MS)  # only with this one's changes
        self._poll.timeout.connect(self.reader.request)
        if about.links:
            self._poll.start()

    # -- what changes it --------------------------------------------------------------------

    def show_view(self, view: TableSnapshot) -> None:
        """The table changed: a contribution, a hit or a hand marked may have come with it."""
        self._pending = view.jackpot_pending
        self._draw()
        self.reader.request()

    def _read(self, display: MeterDisplay) -> None:
        self._display = display
        self.problem.hide()
        self._draw()

    def _failed(self, why: str) -> None:
        self.problem.setText(why)
        self.problem.show()

    def place(self) -> QScreen | None:
        """Full screen on the table's monitor, or a window on the console's screen."""
        return place(self)

    def _screens_changed(self, _screen: QScreen) -> None:
        if self.isVisible():
            self.place()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop()
        super().closeEvent(event)
        for hook in self.on_closed:
            hook()

    def stop(self) -> None:
        """Stop listening and reading (the window may be drawn no more)."""
        if self._stopped:
            return
        self._stopped = True
        self._poll.stop()
        self.bridge.changed.disconnect(self.show_view)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.screenAdded.disconnect(self._screens_changed)
            app.screenRemoved.disconnect(self._screens_changed)
        self.reader.close()

    # -- drawing ----------------------------------------------------------------------------

    def _draw(self) -> None:
        display = self._display
        if display is None:
            return
        shape = tuple((g.spot, tuple(m.level for m in g.meters), g.lines)
                      for g in display.games)
        if shape != self._shape:
            self._build(display)
            self._shape = shape
        for game in display.games:
            self.panels[game.spot].show_game(game, self._pending, display.last_hit)
        self.heading.setVisible(not display.games)
        if not display.games:
            self.heading.setText("This table has no jackpot game")

    def _build(self, display: MeterDisplay) -> None:
        for panel in self.panels.values():
            self.row.removeWidget(panel)
            panel.deleteLater()
        self.panels = {g.spot: GamePanel(g, len(display.games)) for g in display.games}
        for panel in self.panels.values():
            self.row.addWidget(panel, 1)
