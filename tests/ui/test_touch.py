from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QListWidget, QScroller, QWidget
from pytestqt.qtbot import QtBot

from ui import theme
from ui.widgets.touch import REREAD_MS, TAP_CLOCK, ButtonRole, TouchButton, kinetic


def _centre_colour(button: TouchButton) -> str:
    image = button.grab().toImage()
    return QColor(image.pixel(image.width() // 2, 6)).name()


def test_a_button_takes_its_colour_from_its_role(themed: QApplication, qtbot: QtBot) -> None:
    button = TouchButton("Deal", ButtonRole.PRIMARY)
    qtbot.addWidget(button)
    button.resize(200, 80)
    button.show()
    assert _centre_colour(button) == theme.PRIMARY
    button.set_role(ButtonRole.DANGER)
    assert button.role is ButtonRole.DANGER
    assert _centre_colour(button) == theme.FAULT_RED
    button.setEnabled(False)
    assert _centre_colour(button) == theme.DISABLED_FILL


def test_buttons_are_finger_sized_and_take_no_keyboard_focus(themed: QApplication,
                                                             qtbot: QtBot) -> None:
    plain, money = TouchButton("x"), TouchButton("1", money=True)
    for button in (plain, money):
        qtbot.addWidget(button)
        button.show()  # polished: the stylesheet must not shrink it
    assert plain.minimumSize().width() >= theme.TOUCH_MIN <= plain.minimumSize().height()
    assert money.minimumSize().width() >= theme.MONEY_MIN <= money.minimumSize().height()
    assert plain.focusPolicy() == Qt.FocusPolicy.NoFocus


@pytest.fixture
def long_list(themed: QApplication, qtbot: QtBot) -> QListWidget:
    view = QListWidget()
    view.addItems([f"round {n}" for n in range(300)])
    kinetic(view)
    qtbot.addWidget(view)
    view.resize(300, 400)
    view.show()
    qtbot.waitExposed(view)
    return view


def _scrolled_and_stopped(view: QListWidget, qtbot: QtBot) -> None:
    """The drag moved the list; then the fling is stopped, so nothing moves into the next
    test. The drags are 390 px, past 300 without a fling: a fling needs the moves to come
    quickly, which a loaded machine does not promise (drags of 310 px fail with 60 ms between
    moves)."""
    qtbot.waitUntil(lambda: view.verticalScrollBar().value() > 300)
    for target in (view, view.viewport()):
        scroller = QScroller.scroller(target)
        scroller.stop()
        assert scroller.state() == QScroller.State.Inactive


def test_a_finger_drag_scrolls_a_list(long_list: QListWidget, qtbot: QtBot) -> None:
    viewport = long_list.viewport()
    finger = QTest.createTouchDevice()
    QTest.touchEvent(viewport, finger).press(0, QPoint(150, 390), viewport).commit()
    for y in range(380, 0, -10):
        qtbot.wait(5)
        QTest.touchEvent(viewport, finger).move(0, QPoint(150, y), viewport).commit()
    QTest.touchEvent(viewport, finger).release(0, QPoint(150, 0), viewport).commit()
    _scrolled_and_stopped(long_list, qtbot)
    assert not long_list.selectedItems()  # a drag is not a tap on a row


def test_a_mouse_drag_scrolls_a_list(long_list: QListWidget, qtbot: QtBot) -> None:
    viewport = long_list.viewport()

    def send(kind: QEvent.Type, y: int, held: Qt.MouseButton) -> None:
        point = QPointF(150, y)
        button = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseMove else \
            Qt.MouseButton.LeftButton
        QApplication.sendEvent(viewport, QMouseEvent(
            kind, point, viewport.mapToGlobal(point), button, held,
            Qt.KeyboardModifier.NoModifier))

    send(QEvent.Type.MouseButtonPress, 390, Qt.MouseButton.LeftButton)
    for y in range(380, 0, -10):
        qtbot.wait(5)
        send(QEvent.Type.MouseMove, y, Qt.MouseButton.LeftButton)
    send(QEvent.Type.MouseButtonRelease, 0, Qt.MouseButton.NoButton)
    _scrolled_and_stopped(long_list, qtbot)


def test_one_keyboard_types_a_reason_as_a_sentence(themed: object, qtbot: object) -> None:
    """Issue 24: the void reason and the back-out reason were typed on two keyboards; one
    now, a reason typed as a sentence: its first letter a capital, the rest small."""
    from ui.widgets.text_keyboard import TextKeyboard

    seen: list[str] = []
    keys = TextKeyboard(sentence=True, with_ok=False, max_chars=12, placeholder="The reason")
    keys.changed.connect(seen.append)
    assert keys.display.text() == "The reason" and not keys.ok.isVisibleTo(keys)
    for key in "WRONG SEAT":
        keys.keys[key].click()
    assert keys.text() == "Wrong seat" and seen[-1] == "Wrong seat"
    keys.keys["clear"].click()
    for key in "NO CHIP ON THE SPOT":  # a new sentence: a capital again; the length bounded
        keys.keys[key].click()
    assert keys.text() == "No chip on t"
    keys.keys["delete"].click()
    assert keys.text() == "No chip on "


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The kit's clock held at ``clock[0]`` seconds, moved by the test."""
    now = [1000.0]
    monkeypatch.setattr(TAP_CLOCK, "now", lambda: now[0])
    return now


def _button(qtbot: QtBot, clicks: list[str]) -> TouchButton:
    button = TouchButton("Set the banker's hand", ButtonRole.PRIMARY, money=True)
    button.clicked.connect(lambda: clicks.append(button.text()))
    qtbot.addWidget(button)
    button.show()
    return button


def test_new_words_take_no_touch_until_read(themed: QApplication, qtbot: QtBot,
                                            clock: list[float]) -> None:
    """The kit's guard against a finger's bounce: the outside review's taps, 180 ms apart,
    stepped through each new meaning of one button."""
    clicks: list[str] = []
    button = _button(qtbot, clicks)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # words it was made with: live
    button.setText("Set the banker's hand")  # the same words again (every redraw): live
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    touched = clock[0]
    clock[0] += 0.02  # the step the touch made gives the button its next words
    button.setText("House Way: seats 2-4")
    clock[0] = touched + 0.18
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the bounce: dropped
    assert clicks == ["Set the banker's hand"] * 2 and not button.isDown()
    clock[0] = touched + REREAD_MS / 1000
    assert button.takes_taps() and button.wait_left() == 0
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert clicks[-1] == "House Way: seats 2-4"
    clock[0] += 0.02
    button.meaning_changed()  # a new action under the same words
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert len(clicks) == 3
    button.click()  # from code: not a finger's, not held
    assert len(clicks) == 4


def test_words_changed_under_a_finger_do_not_click(themed: QApplication, qtbot: QtBot,
                                                   clock: list[float]) -> None:
    clicks: list[str] = []
    button = _button(qtbot, clicks)
    qtbot.mousePress(button, Qt.MouseButton.LeftButton)
    clock[0] += 0.01
    button.setText("All 3 settled: END GAME")  # the table moved on while the finger was down
    clock[0] += REREAD_MS / 1000
    qtbot.mouseRelease(button, Qt.MouseButton.LeftButton)
    assert clicks == [] and not button.isDown()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # read, then touched
    assert clicks == ["All 3 settled: END GAME"]


def test_a_dropped_touch_goes_to_nothing_under_the_button(themed: QApplication, qtbot: QtBot,
                                                          clock: list[float]) -> None:
    pressed: list[QEvent.Type] = []

    class Panel(QWidget):
        def mousePressEvent(self, event: QMouseEvent) -> None:
            pressed.append(event.type())

    panel = Panel()
    button = TouchButton("Seat 2: House Way", parent=panel)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # touched: its step gives it...
    clock[0] += 0.02
    button.setText("Seat 3: House Way")  # ... the next seat's words
    clock[0] += 0.15
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the bounce
    assert pressed == []


def test_words_changed_by_a_touch_elsewhere_take_a_touch_at_once(
        themed: QApplication, qtbot: QtBot, clock: list[float]) -> None:
    """A digit typed on the keypad turns the phase bar's button into "$70.00 and START GAME":
    the dealer's touch on it right after is meant, and taken (only a touched button's own
    new words are held)."""
    clicks: list[str] = []
    button = _button(qtbot, clicks)
    button.setText("$7.00 and START GAME")
    clock[0] += 0.05
    button.setText("$70.00 and START GAME")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert clicks == ["$70.00 and START GAME"]
