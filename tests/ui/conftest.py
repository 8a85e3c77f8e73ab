"""The UI kit's tests run in the themed application the console runs in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from ui.theme import apply_theme


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[QApplication]:
    apply_theme(qapp)
    yield qapp
