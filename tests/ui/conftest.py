"""The UI kit's tests run in the themed application the console runs in; ``play`` collects
the consoles a test starts and closes them after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.gallery.player import ScreenPlayer
from ui.theme import apply_theme


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
