"""The tests a technician runs, each with its pass or fail shown as it happens: the shuffler's
status, a test deal with its hands shown (they never reach a round) and the deck count; each
bet-sensor node's lights in turn and each spot's chip detection live; every keypad button
echoed; a card swiped and its holder's role (never its number)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.controller.view import TestResult
from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

VERDICT = {True: ("PASS", "#2e7d32"), False: ("FAIL", theme.FAULT_RED), None: ("...", "#3a4858")}


def verdict_text(result: TestResult) -> str:
    return f"{VERDICT[result.passed][0]}  {result.name}: {result.detail}"


def short_text(result: TestResult) -> str:
    """A grid cell's words: the node's or spot's name, its verdict, what is seen now."""
    what = result.name.split(" ", 2)[2].removesuffix(" chip")  # "node", "spot 1"
    if result.passed is False:
        return f"{what}: FAIL"
    if result.passed:
        return f"{what}: PASS"
    return f"{what}: chip on" if "chip on now" in result.detail else f"{what}: ..."


def hands_text(hands: tuple[str, ...]) -> str:
    """The test deal's hands, numbered, two to a line."""
    if not hands:
        return "The test deal's hands show here (never in a round)."
    cells = [f"{n}: {hand}" for n, hand in enumerate(hands, start=1)]
    rows = ["     ".join(cells[i:i + 2]) for i in range(0, len(cells), 2)]
    return "Test deal's hands (never in a round):\n" + "\n".join(rows)


class TestsScreen(QWidget):
    def __init__(self, controller: TableController,
                 act: Callable[[Callable[[], object]], bool]) -> None:
        super().__init__()
        self.ctl = controller
        self.act = act
        self.buttons: dict[tuple[str, str], TouchButton] = {}
        self.results: dict[tuple[str, str], QLabel] = {}
        self.short: set[str] = set()
        """Tests shown in a grid cell: the verdict and a word or two."""
        layout = QHBoxLayout(self)
        left = QVBoxLayout()
        right = QVBoxLayout()
        layout.addLayout(left, 1)
        layout.addLayout(right, 1)
        names = set(controller.device_names())
        bench = controller.snapshot().bench
        results = bench.results if bench else ()
        # Issue 23: the buttons never move. Each device's buttons sit in a box of their own at
        # the top; every result line is in one scrolling area below them, so a result that
        # arrives or wraps onto two lines grows only that area (which scrolls when full).
        shown = QWidget()
        self.shown_results = QVBoxLayout(shown)
        self.shown_results.setContentsMargins(0, 0, 0, 0)
        if "shuffler" in names:
            left.addWidget(self._group("Shuffler", "shuffler", [
                ("Status", "status"), ("Test deal", "test deal"), ("Deck count", "deck count")],
                results))
        if "keypad" in names:
            left.addWidget(self._group("Keypad and card reader", "keypad", [
                ("Light test", "light test"), ("Echo lights", "keypad echo")], results))
            self.keys = QLabel("")
            self.keys.setWordWrap(True)
            self.shown_results.addWidget(self.keys)
        self.shown_results.addStretch(1)
        self.results_area = QScrollArea()
        self.results_area.setWidget(shown)
        self.results_area.setWidgetResizable(True)
        self.results_area.setFrameShape(QFrame.Shape.NoFrame)
        left.addWidget(self.results_area, 1)
        if "bet-sensors" in names:
            right.addWidget(self._sensors(results))
        if "shuffler" in names:
            self.hands = QLabel("")
            self.hands.setWordWrap(True)
            right.addWidget(self.hands)
        right.addStretch(1)
        self.show_view(controller.snapshot())

    def _group(self, title: str, device: str, actions: list[tuple[str, str]],
               results: tuple[TestResult, ...]) -> QGroupBox:
        """A device's test buttons, two to a row; its result lines go to the scrolling area."""
        box = QGroupBox(title)
        grid = QGridLayout(box)
        for i, (label, action) in enumerate(actions):
            button = TouchButton(label, ButtonRole.SECONDARY)
            button.setMinimumWidth(theme.TOUCH_MIN * 4)
            button.clicked.connect(
                lambda _=False, a=action: self.act(lambda: self.ctl.run_test(device, a)))
            self.buttons[(device, action)] = button
            grid.addWidget(button, i // 2, i % 2)
        for result in results:
            if result.device != device:
                continue
            shown = QLabel()
            shown.setWordWrap(True)
            self.results[(device, result.name)] = shown
            self.shown_results.addWidget(shown)
        return box

    def _sensors(self, results: tuple[TestResult, ...]) -> QGroupBox:
        """One row per seat: its Lights button, its node's verdict, each spot's chip."""
        box = QGroupBox("Bet sensors")
        outer = QVBoxLayout(box)
        how = QLabel("Press each seat's Lights: its node's lights blink. Put a chip on each "
                     "spot, then take it off.")
        how.setWordWrap(True)
        outer.addWidget(how)
        grid = QGridLayout()
        seats = sorted({int(r.name.split()[1]) for r in results if r.device == "bet-sensors"})
        names = {r.name for r in results if r.device == "bet-sensors"}
        widest = max(("node: FAIL", "spot 1: chip on"), key=len)
        cell_width = self.fontMetrics().horizontalAdvance(widest) + theme.SPACING * 4
        used = 1 + len({n.split()[3] for n in names if n.endswith(" chip")})
        for column in range(1, used + 1):  # a verdict arriving never moves the cells beside
            grid.setColumnMinimumWidth(column, cell_width)
        for row, seat in enumerate(seats):
            button = TouchButton(f"Lights {seat}", ButtonRole.SECONDARY)
            button.setMinimumWidth(theme.TOUCH_MIN * 3 + theme.SPACING)
            button.clicked.connect(lambda _=False, a=f"light seat {seat}": self.act(
                lambda: self.ctl.run_test("bet-sensors", a)))
            self.buttons[("bet-sensors", f"light seat {seat}")] = button
            grid.addWidget(button, row, 0)
            for column, name in enumerate((f"seat {seat} node", f"seat {seat} spot 1 chip",
                                           f"seat {seat} spot 2 chip"), start=1):
                if name not in names:  # a spot no jackpot game of this table uses
                    continue
                cell = QLabel()
                self.results[("bet-sensors", name)] = cell
                self.short.add(name)
                grid.addWidget(cell, row, column)
        outer.addLayout(grid)
        return box

    def show_view(self, view: TableSnapshot) -> None:
        bench = view.bench
        if bench is None:
            return
        for result in bench.results:
            label = self.results.get((result.device, result.name))
            if label is None:
                continue
            colour = VERDICT[result.passed][1]
            label.setText(short_text(result) if result.name in self.short
                          else verdict_text(result))
            label.setStyleSheet(f"border-left: 10px solid {colour}; padding-left: 8px;"
                                f" font-size: {theme.FONT_SMALL}px;")
        if hasattr(self, "hands"):
            self.hands.setText(hands_text(bench.hands))
        if hasattr(self, "keys"):
            self.keys.setText(f"Last button: {bench.last_button or 'none yet'}")
