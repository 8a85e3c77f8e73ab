"""The tests a technician runs, each with its pass or fail shown as it happens: the shuffler's
status, a test deal with its hands shown (they never reach a round) and the deck count; each
bet-sensor node's lights in turn and each spot's chip detection live; every keypad button
echoed; a card swiped and its holder's role (never its number)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QGridLayout, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.controller.view import TestResult
from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

VERDICT = {True: ("PASS", "#2e7d32"), False: ("FAIL", theme.FAULT_RED), None: ("...", "#3a4858")}


def verdict_text(result: TestResult) -> str:
    return f"{VERDICT[result.passed][0]}  {result.name}: {result.detail}"


class TestsScreen(QWidget):
    def __init__(self, controller: TableController,
                 act: Callable[[Callable[[], object]], bool]) -> None:
        super().__init__()
        self.ctl = controller
        self.act = act
        self.buttons: dict[tuple[str, str], TouchButton] = {}
        self.results: dict[tuple[str, str], QLabel] = {}
        layout = QHBoxLayout(self)
        left = QVBoxLayout()
        right = QVBoxLayout()
        layout.addLayout(left, 1)
        layout.addLayout(right, 1)
        names = {d.name for d in controller.devices.all()}
        bench = controller.snapshot().bench
        results = bench.results if bench else ()
        if "shuffler" in names:
            left.addWidget(self._group("Shuffler", "shuffler", [
                ("Status", "status"), ("Test deal", "test deal"), ("Deck count", "deck count")],
                results))
            self.hands = QLabel("")
            self.hands.setWordWrap(True)
            left.addWidget(self.hands)
        if "keypad" in names:
            left.addWidget(self._group("Keypad and card reader", "keypad", [
                ("Light test", "light test"), ("Echo lights", "keypad echo")], results))
            self.keys = QLabel("")
            self.keys.setWordWrap(True)
            left.addWidget(self.keys)
        left.addStretch(1)
        if "bet-sensors" in names:
            seats = sorted({int(r.name.split()[1]) for r in results
                            if r.device == "bet-sensors"})
            right.addWidget(self._group("Bet sensors", "bet-sensors",
                                        [(f"Lights {s}", f"light seat {s}") for s in seats],
                                        results, columns=4))
        right.addStretch(1)
        self.show_view(controller.snapshot())

    def _group(self, title: str, device: str, actions: list[tuple[str, str]],
               results: tuple[TestResult, ...], columns: int = 3) -> QGroupBox:
        box = QGroupBox(title)
        outer = QVBoxLayout(box)
        grid = QGridLayout()
        for i, (label, action) in enumerate(actions):
            button = TouchButton(label, ButtonRole.SECONDARY)
            button.clicked.connect(
                lambda _=False, a=action: self.act(lambda: self.ctl.run_test(device, a)))
            self.buttons[(device, action)] = button
            grid.addWidget(button, i // columns, i % columns)
        outer.addLayout(grid)
        for result in results:
            if result.device != device:
                continue
            shown = QLabel()
            shown.setWordWrap(True)
            self.results[(device, result.name)] = shown
            outer.addWidget(shown)
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
            label.setText(verdict_text(result))
            label.setStyleSheet(f"border-left: 10px solid {colour}; padding-left: 8px;"
                                f" font-size: {theme.FONT_SMALL}px;")
        if hasattr(self, "hands"):
            self.hands.setText("Test deal: " + "  |  ".join(bench.hands) if bench.hands
                               else "The test deal's hands show here (never in a round).")
        if hasattr(self, "keys"):
            self.keys.setText(f"Last button: {bench.last_button or 'none yet'}")
