"""The supervisor's recall and shift report in the states a supervisor meets them, for the
screenshots (``tests/ui/test_screens_fit.py``): a real console on simulated
devices, rounds played there by touch, the supervisor's area opened by a test card."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QScrollArea, QWidget

from ui.gallery.player import ScreenPlayer
from ui.supervisor.recall_screen import RecallScreen
from ui.supervisor.report_screen import ReportScreen


def played(profile: str = "washington-face-up", rounds: int = 3) -> ScreenPlayer:
    """A console with ``rounds`` rounds played to the end by touch (seeded deals)."""
    folder = tempfile.TemporaryDirectory(prefix="supervisor-screens-")
    player = ScreenPlayer.start(profile, Path(folder.name) / "table.db")
    assert player.hardware.shuffler is not None
    player.hardware.shuffler.script(seed=21)
    player.window.on_closed.append(player.close)
    player.window.on_closed.append(folder.cleanup)
    for _ in range(rounds):
        player.open_round(seats=(2, 3, 5))
        player.until_hands_set()
        player.play_to_end()
        player.end_game()
    return player


def open_recall(player: ScreenPlayer) -> RecallScreen:
    area = player.window.supervisor or player.open_supervisor("supervisor")
    screen = area.show_screen("Recall")
    assert isinstance(screen, RecallScreen)
    player.wait(lambda: not screen.reader.busy, "recall to be read")
    return screen


def open_report(player: ScreenPlayer) -> ReportScreen:
    area = player.window.supervisor or player.open_supervisor("supervisor")
    player.tap(area.buttons["Shift report"])
    screen = area.screens["Shift report"]
    assert isinstance(screen, ReportScreen)
    player.wait(lambda: not screen.reader.busy, "the report to be read")
    return screen


def recall() -> QWidget:
    p = played()
    open_recall(p)
    return p.window


def recall_by_number() -> QWidget:
    p = played()
    screen = open_recall(p)
    p.tap(screen.by_number)
    p.type_number(screen.number_pad, 2)
    p.wait(lambda: not screen.reader.busy, "round 2")
    return p.window


def recall_by_time() -> QWidget:
    p = played(rounds=1)
    screen = open_recall(p)
    p.tap(screen.by_time)
    p.tap(screen.picker.quick["Last 8 hours"])
    return p.window


def recall_device_fault() -> QWidget:
    p = played(rounds=2)
    p.hardware.unplug("bet-sensors")  # the shuffler's longer fault text overfills 800 px
    p.wait(lambda: not all(d.connected for d in p.ctl.snapshot().devices), "the fault")
    open_recall(p)
    return p.window


def recall_awards() -> QWidget:
    """Recall of a round whose jackpot award was backed out, at a table with several awards
    (one confirmed by two people): the award and its back-out each a line of their own, and
    each print of its win page: the ORIGINAL, a copy, and a copy the console recorded and
    stopped before printing (NOT FINISHED, with what to do)."""
    from ui.gallery.jackpot import _player, jackpot_screen, left_unfinished, print_from_screen

    p = _player(fullest=True)
    award = next(e.hit for e in p.ctl.jackpot_awards() if e.back_out is not None)
    print_from_screen(p, jackpot_screen(p), award.hit_id, 2)
    left_unfinished(p, award.hit_id)
    screen = open_recall(p)
    backed = award.round_id
    p.tap(screen.by_number)
    p.type_number(screen.number_pad, backed)
    p.wait(lambda: not screen.reader.busy, f"round {backed}")
    return p.window


def recall_prints() -> QWidget:
    """The same round scrolled to its end: the award, its back-out, each print of its win
    page, the one NOT FINISHED and what to do, the interventions."""
    window = recall_awards()
    area = window.findChild(RecallScreen)
    assert area is not None
    viewport = area.view.parentWidget()
    scroll = viewport.parentWidget() if viewport is not None else None
    assert isinstance(scroll, QScrollArea)
    bar = scroll.verticalScrollBar()
    bar.rangeChanged.connect(lambda _least, most: bar.setValue(most))  # as it is laid out
    bar.setValue(bar.maximum())
    return window


def report() -> QWidget:
    """The shift report of a table with four jackpot awards (one by two people, one backed
    out) after three ordinary rounds, the two-person award's win page printed twice and a
    third print left unfinished: every line of the report has something to say."""
    from ui.gallery.jackpot import (
        _player,
        confirm_waiting,
        jackpot_screen,
        left_unfinished,
        print_from_screen,
    )

    p = _player(fullest=True)
    if p.window.supervisor is not None:  # back to the table from the back-out
        p.tap(p.window.supervisor.leave)
    assert p.hardware.shuffler is not None
    p.hardware.shuffler.script(seed=21)
    for _ in range(3):
        p.open_round(seats=(2, 3, 5), chip=False)
        p.until_hands_set()
        p.play_to_end()
        confirm_waiting(p)  # seat 2's chip is still on: any hit confirmed
        p.end_game()
    two = next(e.hit.hit_id for e in p.ctl.jackpot_awards() if e.hit.second_employee_name)
    print_from_screen(p, jackpot_screen(p), two, 2)
    left_unfinished(p, two)
    open_report(p)
    return p.window


def report_prints() -> QWidget:
    """The same report scrolled to its win pages' rows (the pages printed, the award with
    copies, the print not finished) and on to the details' end, where each print has its line
    and what to do about the one not finished is said."""
    window = report()
    screen = window.findChild(ReportScreen)
    assert screen is not None
    title = screen.figure_labels["title:Win pages printed"]
    bar = screen.report_page.verticalScrollBar()

    def to_the_rows() -> None:  # as it is laid out: the row's place moves with the words
        sheet = screen.report_page.widget()
        assert sheet is not None
        bar.setValue(title.mapTo(sheet, QPoint(0, 0)).y())

    bar.rangeChanged.connect(lambda _least, _most: to_the_rows())
    to_the_rows()
    return window


RECALL_PAGES: dict[str, Callable[[], QWidget]] = {
    "supervisor-recall": recall,
    "supervisor-recall-by-number": recall_by_number,
    "supervisor-recall-by-time": recall_by_time,
    "supervisor-recall-device-fault": recall_device_fault,
    "supervisor-recall-awards": recall_awards,
    "supervisor-recall-prints": recall_prints,
    "supervisor-shift-report": report,
    "supervisor-shift-report-prints": report_prints,
}
