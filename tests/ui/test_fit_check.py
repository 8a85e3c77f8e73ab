"""The screen-fit checks catch each way a screen can fail a real touchscreen (issue 22)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.fit_check import clipped, outgrows, screen_problems
from ui.widgets.touch import TouchButton

SCREEN = QSize(1280, 800)
LONG = "A sentence far too long for the hundred pixels this label is given"


def _shown(page: QWidget, qtbot: QtBot) -> QWidget:
    qtbot.addWidget(page)
    page.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    page.resize(SCREEN)
    page.show()
    QApplication.processEvents()
    return page


def test_a_page_that_fits_has_no_problems(themed: QApplication, qtbot: QtBot) -> None:
    page = QWidget()
    layout = QVBoxLayout(page)
    layout.addWidget(QLabel("Place your wagers"))
    layout.addWidget(TouchButton("START GAME"))
    assert screen_problems(_shown(page, qtbot), SCREEN) == []


def test_text_cut_at_the_side_is_named(themed: QApplication, qtbot: QtBot) -> None:
    page = QWidget()
    label = QLabel(LONG)
    label.setFixedWidth(100)
    QVBoxLayout(page).addWidget(label)
    problems = clipped(_shown(page, qtbot))
    assert len(problems) == 1 and "cut at the side (100 px of" in problems[0]
    assert "A sentence far too long" in problems[0]


def test_wrapped_text_cut_at_the_bottom_is_named(themed: QApplication, qtbot: QtBot) -> None:
    page = QWidget()
    label = QLabel("wrapped words " * 40)
    label.setWordWrap(True)
    label.setFixedHeight(20)
    QVBoxLayout(page).addWidget(label)
    problems = clipped(_shown(page, qtbot))
    assert len(problems) == 1 and "cut at the bottom (20 px of" in problems[0]


def test_a_button_too_small_for_a_finger_or_its_words(themed: QApplication,
                                                      qtbot: QtBot) -> None:
    page = QWidget()
    small = QPushButton("OK")
    small.setFixedSize(40, 40)
    narrow = QPushButton("Seat 1 jackpot wager")
    narrow.setFixedSize(60, 60)
    layout = QVBoxLayout(page)
    layout.addWidget(small)
    layout.addWidget(narrow)
    problems = clipped(_shown(page, qtbot))
    assert any("'OK' is 40x40, smaller than a finger" in p for p in problems)
    assert any("'Seat 1 jackpot wager' is cut at the side (60 px of" in p for p in problems)


def test_a_window_whose_contents_need_more_than_the_screen(themed: QApplication,
                                                           qtbot: QtBot) -> None:
    page = QWidget()
    tall = QLabel("x")
    tall.setMinimumHeight(900)
    QVBoxLayout(page).addWidget(tall)
    assert outgrows(_shown(page, qtbot), SCREEN) == [
        f"QWidget needs {page.minimumSizeHint().width()}x"
        f"{page.minimumSizeHint().height()}, more than the screen's 1280x800"]


def test_long_content_may_scroll(themed: QApplication, qtbot: QtBot) -> None:
    page = QWidget()
    inside = QWidget()
    rows = QVBoxLayout(inside)
    for n in range(60):
        rows.addWidget(QLabel(f"Seat line {n}"))
    area = QScrollArea()
    area.setWidget(inside)
    area.setWidgetResizable(True)
    QVBoxLayout(page).addWidget(area)
    assert screen_problems(_shown(page, qtbot), SCREEN) == []


def test_elided_words_are_named(themed: QApplication, qtbot: QtBot) -> None:
    page = QWidget()
    label = QLabel("Seat 1\u2026")
    label.setProperty("full_text", "Seat 1 jackpot wager")
    QVBoxLayout(page).addWidget(label)
    problems = clipped(_shown(page, qtbot))
    assert problems == ["QLabel 'Seat 1 jackpot wager' is shown elided as 'Seat 1\u2026'"]


def test_tabs_and_drop_down_arrows_too_small_for_a_finger(themed: QApplication,
                                                         qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QComboBox, QTabWidget

    from ui.widgets.touch import touch_tabs_and_arrows

    page = QWidget()
    tabs = QTabWidget()
    tabs.addTab(QLabel("a"), "Shuffler")
    baud = QComboBox()
    baud.addItems(["9600", "115200"])
    layout = QVBoxLayout(page)
    layout.addWidget(tabs)
    layout.addWidget(baud)
    problems = clipped(_shown(page, qtbot))
    assert any(p.startswith("tab 'Shuffler' is") for p in problems), problems
    assert any("QComboBox '9600''s arrow is" in p for p in problems), problems
    touch_tabs_and_arrows(page)
    QApplication.processEvents()
    assert clipped(page) == []


def test_a_list_cell_or_column_title_cut_is_named(themed: QApplication, qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

    page = QWidget()
    table = QTableWidget(1, 2)
    table.setHorizontalHeaderLabels(["What", "Confirmed by"])
    table.verticalHeader().setVisible(False)  # as the screens show their lists
    table.setItem(0, 0, QTableWidgetItem("contribution\nround 1, seat 2"))
    table.setItem(0, 1, QTableWidgetItem("Sim Supervisor"))
    table.setColumnWidth(0, 60)
    table.setColumnWidth(1, 40)
    QVBoxLayout(page).addWidget(table)
    problems = clipped(_shown(page, qtbot))
    assert any(p.startswith("cell 'contribution\\nround 1, seat 2' is cut at the side")
               for p in problems), problems
    assert any(p.startswith("column title 'Confirmed by' is cut at the side")
               for p in problems), problems
    table.setColumnWidth(0, 400)
    table.setColumnWidth(1, 400)
    table.resizeRowsToContents()
    assert clipped(page) == []
