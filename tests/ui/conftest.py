"""The UI kit's tests run in the application the console runs in (Python's cycles collected on
its thread, ``ui/application.py``), themed where they ask for ``themed``; ``play`` collects the
consoles a test starts and closes them after it; ``read_then_touch`` touches a kit button as a
dealer who has read its new words; every window a test left hidden is deleted after it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import shiboken6
from pyqtgraph import GraphicsView
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.application import application
from ui.gallery.player import ScreenPlayer
from ui.theme import apply_theme
from ui.widgets.touch import TAP_CLOCK, TouchButton


@pytest.fixture(autouse=True)
def gui_thread_collects(qapp: QApplication) -> None:
    """pytest-qt's application collects cycles on its thread as the console's does: without
    it a device thread destroyed a dead window's Qt objects and the worker hung."""
    assert application() is qapp


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[QApplication]:
    apply_theme(qapp)
    yield qapp


@pytest.fixture
def play(qtbot: QtBot) -> Iterator[list[ScreenPlayer]]:
    started: list[ScreenPlayer] = []
    yield started
    for player in started:
        player.close()


@pytest.fixture
def read_then_touch(qtbot: QtBot) -> Callable[[TouchButton], None]:
    """A click on a kit button once its new words are read: the kit's clock moved past the
    button's ``REREAD_MS`` (not waited out: the suite's time), as ``ScreenPlayer.tap`` does."""

    def touch(button: TouchButton) -> None:
        TAP_CLOCK.skip(button.wait_left())
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    return touch


@pytest.fixture(autouse=True)
def delete_closed_windows(qapp: QApplication) -> Iterator[None]:
    """Every window left hidden after a test is deleted. Closing a window only hides it: a
    worker kept hundreds of them, and each change of the application's style went through
    all (a theme test's set-up and teardown took 4-21 s). A pyqtgraph view is closed first:
    its ``close`` clears its scene while the items' Python side is alive, where deleting the
    scene with its window called into an item already gone (a crash in the meter chart's
    test)."""
    yield
    for window in qapp.topLevelWidgets():
        # a window deleted with another one (its dialog) is no longer valid
        if shiboken6.isValid(window) and not window.isVisible():
            for view in window.findChildren(GraphicsView):
                view.close()
            window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
