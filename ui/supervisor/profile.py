"""The table's profile and every paytable, with the exact return and house edge that
``dealer-console math`` prints (:mod:`dealer_console.math.profile_figures`). A bonus paytable
that returns more than 100% is shown refused, with its figure.

The exact figures take a moment the first time (every seven-card hand is counted): they are
computed on a worker thread when the screen is first shown and drawn when ready, so the screen
never freezes; the jackpot meters are read here first, on the thread that owns the database."""

from __future__ import annotations

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import CONSEQUENCE, TableController, TableSnapshot
from dealer_console.math.profile_figures import TableFigures, profile_figures
from dealer_console.math.returns import percent
from dealer_console.money import format_cents
from dealer_console.profiles.model import Profile
from ui import theme
from ui.bridge import ControllerBridge
from ui.supervisor.common import SupervisorScreen
from ui.supervisor.session import Session
from ui.widgets.kit import label as _label
from ui.widgets.reader import BackgroundReader
from ui.widgets.touch import kinetic


def summary(profile: Profile) -> list[str]:
    """The profile's choices a supervisor checks at a glance, in plain words."""
    lines = [f"{profile.title} ({profile.name})", f"Rules document: {profile.source}",
             f"Game: {profile.game.value.replace('_', ' ')}; banker: "
             f"{profile.banking.value.replace('_', ' ')}; {profile.positions} positions",
             f"House Way: {profile.house_way}; fouls: "
             f"{CONSEQUENCE[profile.foul]}"]
    for area, limit in profile.limits.items():
        lines.append(f"{area.value.replace('_', ' ').capitalize()} wager: "
                     f"{format_cents(limit.minimum)} to {format_cents(limit.maximum)}")
    if profile.commission is not None:
        lines.append(f"Commission: {profile.commission.basis_points / 100:g}% of a win")
    return lines


class ProfileScreen(SupervisorScreen):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__(controller, bridge, session)
        profile = controller.about.profile
        self.profile = profile
        self.summary = _label("\n".join(summary(profile)))
        self.status = _label("Computing the exact figures of every paytable...", "hint")
        self.panels: dict[str, QFrame] = {}
        self.figures: tuple[TableFigures, ...] | None = None
        self.body = QVBoxLayout()
        holder = QWidget()
        holder.setLayout(self.body)
        self.body.addWidget(_label("Profile", "heading"))
        self.body.addWidget(self.summary)
        self.body.addWidget(self.status)
        self.body.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        kinetic(scroll)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.message)
        self.reader = BackgroundReader("paytable-figures")
        self.reader.answered.connect(self.show_figures)
        self.reader.failed.connect(
            lambda why: self.status.setText(f"The figures cannot be computed: {why}"))
        self.asked = False

    def showEvent(self, event: QShowEvent) -> None:
        """The figures are computed the first time the screen is shown, not when the area
        opens: a supervisor who never looks costs the table nothing."""
        super().showEvent(event)
        if not self.asked:
            self.asked = True
            meters = self._meters()
            self.reader.ask(lambda: profile_figures(self.profile, meters))

    def _meters(self) -> dict[int, dict[str, int]]:
        """The jackpot meters as they stand (read on the owner thread)."""
        if self.profile.jackpots is None:
            return {}
        return self.ctl.meter_cents()

    def show_figures(self, figures: tuple[TableFigures, ...]) -> None:
        self.figures = figures
        self.status.setText("Paytables (exact figures, as dealer-console math prints them):")
        glance = [f"{f.area} ({f.name}): " + (
            f"return {percent(f.ret)}, house edge {percent(1 - f.ret)}" if f.ret is not None
            else f.notes[0]) + (" - REFUSED, over 100%" if f.refused else "") for f in figures]
        self.glance = _label("\n".join(glance), "group")
        self.body.insertWidget(self.body.count() - 1, self.glance)
        for figure in figures:
            panel = self._panel(figure)
            self.panels[figure.area] = panel
            self.body.insertWidget(self.body.count() - 1, panel)

    def _panel(self, f: TableFigures) -> QFrame:
        panel = QFrame()
        panel.setProperty("role", "panel")
        layout = QVBoxLayout(panel)
        layout.addWidget(_label(f"{f.area}: {f.name} - {f.title}", "group"))
        if f.ret is not None and f.house_edge is not None:
            layout.addWidget(_label(f"Return {percent(f.ret)}   House edge "
                                    f"{percent(f.house_edge)}", "heading"))
        if f.refused:
            layout.addWidget(_label(f"REFUSED: {f.refused}", "refusal"))
        for note in f.notes:
            layout.addWidget(_label(note, "hint"))
        grid = QGridLayout()
        grid.setHorizontalSpacing(theme.SPACING * 2)
        for row, line in enumerate(f.lines):
            grid.addWidget(_label(line.label), row, 0)
            grid.addWidget(_label(line.pays), row, 1)
            grid.addWidget(_label(f"chance {percent(line.probability, 6)}"), row, 2)
        layout.addLayout(grid)
        return panel

    def panel_text(self, area: str) -> str:
        """Every word of one paytable's panel (for the tests and a reader)."""
        return "\n".join(label.text() for label in self.panels[area].findChildren(QLabel))

    def show_view(self, view: TableSnapshot) -> None:
        self.show_notice(view)
