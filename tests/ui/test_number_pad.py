"""The number pad: typed by clicks, refused as typed by the caller's rule, OK only when
allowed, the number emitted once."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.widgets.number_pad import NumberPad


def test_typed_refused_and_accepted(themed: QApplication, qtbot: QtBot) -> None:
    pad = NumberPad(lambda n: None if 3 <= n <= 18 else "three dice total 3-18")
    qtbot.addWidget(pad)
    pad.show()
    got: list[int] = []
    pad.accepted.connect(got.append)
    for key in ("2", "1"):
        qtbot.mouseClick(pad.keys[key], Qt.MouseButton.LeftButton)
    assert pad.value() == 21 and not pad.ok.isEnabled()
    assert pad.refusal.text() == "three dice total 3-18"
    qtbot.mouseClick(pad.keys["\u232b"], Qt.MouseButton.LeftButton)
    assert pad.value() == 2 and not pad.ok.isEnabled()
    qtbot.mouseClick(pad.keys["0"], Qt.MouseButton.LeftButton)
    assert pad.value() == 20
    qtbot.mouseClick(pad.keys["\u232b"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pad.keys["\u232b"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pad.keys["9"], Qt.MouseButton.LeftButton)
    assert pad.ok.isEnabled()
    qtbot.mouseClick(pad.ok, Qt.MouseButton.LeftButton)
    assert got == [9] and pad.value() is None
    assert all(k.minimumHeight() >= 48 for k in pad.keys.values())
