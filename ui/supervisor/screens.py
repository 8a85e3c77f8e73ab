"""Every supervisor screen, in the order its button shows: a title and a factory.

A screen is a QWidget built from the controller, its Qt bridge and the session of the
supervisor whose card opened the area, the first time it is shown (``area.Screens``). When it
has a ``show_view(TableSnapshot)`` method the area calls it on every change of the table while
the screen is shown. Add a screen by adding its line here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QWidget

from dealer_console.controller import TableController
from ui.bridge import ControllerBridge
from ui.supervisor.jackpot_screen import JackpotScreen
from ui.supervisor.link_hits_screen import LinkHitsScreen
from ui.supervisor.meter_history_screen import MeterHistoryList
from ui.supervisor.meter_screen import MeterDisplayScreen
from ui.supervisor.profile import ProfileScreen
from ui.supervisor.session import Session
from ui.supervisor.staff import StaffScreen
from ui.supervisor.table_actions import TableActions

Factory = Callable[[TableController, ControllerBridge, Session], QWidget]


@dataclass(frozen=True, slots=True)
class Screen:
    title: str
    build: Factory


def _recall(controller: TableController, bridge: ControllerBridge, session: Session) -> QWidget:
    from ui.supervisor.recall_screen import RecallScreen

    return RecallScreen(controller, bridge, session)


def _meter_chart(controller: TableController, bridge: ControllerBridge,
                 session: Session) -> QWidget:
    from ui.supervisor.meter_chart import MeterChart  # pyqtgraph and numpy: when opened

    return MeterChart(controller, bridge, session)


def _report(controller: TableController, bridge: ControllerBridge, session: Session) -> QWidget:
    from ui.supervisor.report_screen import ReportScreen

    return ReportScreen(controller, bridge, session)


SCREENS: list[Screen] = [
    Screen("Jackpot awards", JackpotScreen),
    Screen("Linked hits", LinkHitsScreen),
    Screen("Table", TableActions),
    Screen("Recall", _recall),
    Screen("Shift report", _report),
    Screen("Meter history", MeterHistoryList),
    Screen("Meter chart", _meter_chart),
    Screen("Meter display", MeterDisplayScreen),
    Screen("Staff", StaffScreen),
    Screen("Profile and paytables", ProfileScreen),
]
