"""The UI kit's tests run in the application the console runs in (Python's cycles collected on
its thread, ``ui/application.py``), themed where they ask for ``themed``; ``play`` collects the
consoles a test starts and closes them after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.application import application
from ui.gallery.player import ScreenPlayer
from ui.theme import apply_theme


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
