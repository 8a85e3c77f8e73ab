"""Game recall on the console: the last rounds as the table looked, ten to a page and paged
back, or found by round number or by a time range picked by touch.

A banner across the top and an amber border round the round say RECALL so nobody takes a past
round for the live one. Everything is read off the GUI thread with a read-only connection
(``TableReader``), so recall also works while a device is at fault and never holds the table.
The records are ``dealer_console.round.recall``'s with each award's win pages printed
(``dealer_console.reports.recall_prints``), the same as ``dealer-console recall``."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from sqlite_utils import Database

from dealer_console.controller import TableController
from dealer_console.reports.recall_prints import with_prints
from dealer_console.round.recall import recall_between, recall_page, round_numbers
from ui import theme
from ui.bridge import ControllerBridge
from ui.supervisor.recall_view import RecallFrame, RecallRoundView, clock_time, local_time
from ui.supervisor.session import Session
from ui.supervisor.time_range import TimeRangePicker
from ui.widgets.number_pad import NumberPad
from ui.widgets.pages import PageStack
from ui.widgets.reader import TableReader, db_file
from ui.widgets.touch import ButtonRole, TouchButton, kinetic

PAGE = 10
"""Rounds to a page: the regulators' "at least the last ten"."""
MOST_IN_RANGE = 200
"""Rounds a time search shows at most (the earliest in the range); narrow it for more."""

BANNER = "RECALL: past rounds, not the live table"


def _scroll(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    kinetic(area)
    return area


class RecallScreen(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.body = PageStack()
        self.reader = TableReader(db_file(controller))
        self.reader.answered.connect(self._show_answer)
        self.reader.failed.connect(self._show_failure)
        self.rounds: list[dict[str, Any]] = []
        self.span: tuple[int, int] | None = None
        self.banner = QLabel(BANNER)
        self.banner.setObjectName("recall_banner")
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.banner.setStyleSheet(
            f"QLabel#recall_banner {{ background: {theme.WARNING_AMBER}; color: {theme.ON_AMBER};"
            f" font-size: {theme.FONT_HEADING}px; font-weight: bold; padding: 8px;"
            f" border-radius: {theme.RADIUS}px; }}")

        self.newest = TouchButton("Newest", ButtonRole.SECONDARY)
        self.older = TouchButton("Older", ButtonRole.SECONDARY)
        self.newer = TouchButton("Newer", ButtonRole.SECONDARY)
        self.by_number = TouchButton("Round number", ButtonRole.SECONDARY)
        self.by_time = TouchButton("By time", ButtonRole.SECONDARY)
        self.newest.clicked.connect(lambda: self.load_newest())
        self.older.clicked.connect(lambda: self._page_before(self.rounds[0]["round"]))
        self.newer.clicked.connect(lambda: self._page_before(self.rounds[-1]["round"] + PAGE + 1))
        self.by_number.clicked.connect(lambda: self.show_search(by_time=False))
        self.by_time.clicked.connect(lambda: self.show_search(by_time=True))
        tools = QHBoxLayout()
        for button in (self.newest, self.older, self.newer, self.by_number, self.by_time):
            tools.addWidget(button)
        self.status = QLabel("")
        self.status.setProperty("role", "hint")
        self.status.setWordWrap(True)

        # the list of rounds and the one shown
        self.list_box = QWidget()
        self.list_layout = QVBoxLayout(self.list_box)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.list_layout.setSpacing(theme.SPACING // 2)
        self.list_layout.addStretch(1)
        self.round_buttons: dict[int, TouchButton] = {}
        self.view = RecallRoundView()
        self.list_area = _scroll(self.list_box)
        self.list_area.setFixedWidth(theme.TOUCH_MIN * 5)
        rounds_page = QWidget()
        rounds_row = QHBoxLayout(rounds_page)
        rounds_row.setContentsMargins(0, 0, 0, 0)
        rounds_row.addWidget(self.list_area)
        rounds_row.addWidget(RecallFrame(_scroll(self.view)), 1)
        self.rounds_page = rounds_page

        # search by number
        self.number_pad = NumberPad(self._number_problem, "Type the round's number.")
        self.number_pad.accepted.connect(self.find_round)
        self.number_page = self._search_page("Find a round by its number", self.number_pad)

        # search by time
        self.picker = TimeRangePicker()
        self.find_in_range = TouchButton("Show rounds in this range", ButtonRole.PRIMARY)
        self.find_in_range.clicked.connect(lambda: self.find_between())
        picker_box = QWidget()
        picker_layout = QVBoxLayout(picker_box)
        picker_layout.setContentsMargins(0, 0, 0, 0)
        picker_layout.addWidget(self.picker)
        picker_layout.addWidget(self.find_in_range)
        picker_layout.addStretch(1)
        self.time_page = self._search_page("Find rounds by the time they started", picker_box)

        for page in (self.rounds_page, self.number_page, self.time_page):
            self.body.addWidget(page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(theme.SPACING // 2)
        layout.addWidget(self.banner)
        layout.addLayout(tools)
        layout.addWidget(self.status)
        layout.addWidget(self.body, 1)
        self._refresh_buttons()
        self.load_newest()

    def show_search(self, by_time: bool) -> None:
        self.body.setCurrentWidget(self.time_page if by_time else self.number_page)

    def _search_page(self, title: str, content: QWidget) -> QWidget:
        """A search: what it finds and the way back on the left, its keys on the right."""
        page = QWidget()
        heading = QLabel(title)
        heading.setProperty("role", "heading")
        heading.setWordWrap(True)
        back = TouchButton("Back to the rounds", ButtonRole.SECONDARY)
        back.clicked.connect(lambda: self.body.setCurrentWidget(self.rounds_page))
        side_box = QWidget()
        side_box.setMaximumWidth(theme.TOUCH_MIN * 7)
        side = QVBoxLayout(side_box)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(heading)
        side.addWidget(back)
        side.addStretch(1)
        layout = QHBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(side_box)
        layout.addWidget(content, 1)
        return page

    # -- questions to the reader ---------------------------------------------------------------

    def load_newest(self) -> None:
        self._ask(lambda db: recall_page(db, count=PAGE), "the newest rounds", None)

    def _page_before(self, before: int) -> None:
        self._ask(lambda db: recall_page(db, before=before, count=PAGE), "rounds", None)

    def find_round(self, number: int) -> None:
        self.body.setCurrentWidget(self.rounds_page)
        def around(db: Database) -> list[dict[str, Any]]:
            # the round and those before it, or the first page when it is among the first
            span = round_numbers(db)
            first = span[0] if span else 1
            return recall_page(db, before=max(number + 1, first + PAGE), count=PAGE)

        self._ask(around, f"round {number}", number)

    def find_between(self) -> None:
        problem = self.picker.problem()
        if problem:
            self.status.setText(problem)
            return
        start, end = self.picker.bounds()
        self.body.setCurrentWidget(self.rounds_page)
        self._ask(lambda db: recall_between(db, start, end, MOST_IN_RANGE),
                  "rounds ended from " + local_time(start) + " to " + local_time(end), "first")

    def _ask(self, fetch: Any, what: str, select: int | str | None) -> None:
        def work(db: Database) -> dict[str, Any]:
            return {"rounds": with_prints(db, fetch(db)), "span": round_numbers(db),
                    "what": what, "select": select}

        self.status.setText(f"Reading {what}...")
        self.reader.read(work)
        self._refresh_buttons()

    # -- answers ---------------------------------------------------------------------------

    def _show_answer(self, answer: dict[str, Any]) -> None:
        self.rounds = answer["rounds"]
        self.span = answer["span"]
        select = answer["select"]
        for button in self.round_buttons.values():
            button.hide()
            button.deleteLater()
        self.round_buttons = {}
        for r in self.rounds:
            started = clock_time(r["started"])
            live = " (live)" if r["status"] == "open" else ""
            button = TouchButton(f"Round {r['round']}{live}\n{started}", ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, n=r["round"]: self.show_round(n))
            self.list_layout.insertWidget(self.list_layout.count() - 1, button)
            self.round_buttons[r["round"]] = button
        held = "no rounds yet" if self.span is None else (
            f"the table holds rounds {self.span[0]} to {self.span[1]}")
        if isinstance(select, int) and select not in self.round_buttons:
            self.status.setText(f"There is no round {select}: {held}.")
        elif not self.rounds:
            self.status.setText(f"No {answer['what']}: {held}.")
        else:
            shown = f"rounds {self.rounds[0]['round']} to {self.rounds[-1]['round']}"
            self.status.setText(f"Showing {answer['what']}: {shown}, oldest first; {held}.")
        if self.rounds:
            finished = [r["round"] for r in self.rounds if r["status"] != "open"]
            wanted = (select if isinstance(select, int) and select in self.round_buttons
                      else self.rounds[0]["round"] if select == "first"
                      else (finished or [self.rounds[-1]["round"]])[-1])
            self.show_round(wanted)
        self.view.setVisible(bool(self.rounds))
        self._refresh_buttons()

    def _show_failure(self, message: str) -> None:
        self.status.setText(message)
        self._refresh_buttons()

    def show_round(self, number: int) -> None:
        for n, button in self.round_buttons.items():
            button.setChecked(n == number)
        record = next(r for r in self.rounds if r["round"] == number)
        self.view.set_round(record)

    def _refresh_buttons(self) -> None:
        have = bool(self.rounds) and self.span is not None
        self.older.setEnabled(have and self.rounds[0]["round"] > self.span[0])  # type: ignore[index]
        self.newer.setEnabled(have and self.rounds[-1]["round"] < self.span[1])  # type: ignore[index]

    def _number_problem(self, number: int) -> str | None:
        if number < 1:
            return "Round numbers start at 1."
        return None
