from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.widgets.fault_banner import FaultBanner
from ui.widgets.phase_bar import PhaseBar
from ui.widgets.touch import ButtonRole, TouchButton


def test_the_primary_button_calls_what_the_screen_set(
        themed: QApplication, qtbot: QtBot,
        read_then_touch: Callable[[TouchButton], None]) -> None:
    bar = PhaseBar()
    qtbot.addWidget(bar)
    bar.show()
    calls: list[str] = []
    assert not bar.primary.isEnabled()  # nothing to do until the screen says so
    bar.set_instruction("Take the bets, then press START GAME on the keypad.")
    bar.set_action("Deal", lambda: calls.append("deal"))
    read_then_touch(bar.primary)
    bar.set_action("Settle", lambda: calls.append("settle"))
    read_then_touch(bar.primary)
    assert calls == ["deal", "settle"]  # the old action is gone
    assert bar.primary.text() == "Settle" and bar.primary.role is ButtonRole.PRIMARY
    bar.set_action_enabled(False)
    qtbot.mouseClick(bar.primary, Qt.MouseButton.LeftButton)
    bar.set_action("Deal", None)
    assert not bar.primary.isEnabled()
    assert calls == ["deal", "settle"]
    assert bar.instruction.text().startswith("Take the bets")


def test_secondary_buttons_sit_beside_the_one_primary(themed: QApplication,
                                                      qtbot: QtBot) -> None:
    bar = PhaseBar()
    qtbot.addWidget(bar)
    bar.show()
    calls: list[str] = []
    misdeal = bar.add_secondary("Misdeal", lambda: calls.append("misdeal"),
                                role=ButtonRole.DANGER)
    bar.add_secondary("Recall", lambda: calls.append("recall"))
    qtbot.mouseClick(misdeal, Qt.MouseButton.LeftButton)
    assert calls == ["misdeal"]
    assert [b.role for b in bar.secondary] == [ButtonRole.DANGER, ButtonRole.SECONDARY]
    bar.clear_secondary()
    assert bar.secondary == ()


def test_a_message_stays_until_replaced_or_cleared(themed: QApplication, qtbot: QtBot) -> None:
    bar = PhaseBar()
    qtbot.addWidget(bar)
    bar.show()
    assert bar.message_text() == ""
    bar.show_message("Cannot deal yet: 2 bets are not locked.",
                     "Press START GAME on the keypad.")
    bar.set_instruction("Deal the seven hands.")
    bar.set_action("Deal", lambda: None)
    qtbot.wait(50)
    assert bar.message.isVisible()
    assert bar.message_text() == ("Cannot deal yet: 2 bets are not locked.\n"
                                  "Press START GAME on the keypad.")
    bar.show_message("Seat <3> & 4 late.")  # shown as text, not markup
    assert bar.message_text() == "Seat <3> & 4 late."
    assert "&lt;3&gt; &amp; 4" in bar.message.text()
    bar.clear_message()
    assert not bar.message.isVisible() and bar.message_text() == ""


def test_the_fault_banner_shows_only_while_there_are_faults(themed: QApplication,
                                                            qtbot: QtBot) -> None:
    screen = QWidget()
    banner = FaultBanner(screen)
    QVBoxLayout(screen).addWidget(banner)
    qtbot.addWidget(screen)
    screen.show()
    assert not banner.isVisible()
    banner.set_faults([("Shuffler", "Not answering.", "Check its cable and power."),
                       ("Keypad", "Card reader unplugged.", "Plug it in at the keypad.")])
    assert banner.isVisible()
    assert banner.faults()[1] == ("Keypad", "Card reader unplugged.",
                                  "Plug it in at the keypad.")
    texts = [label.text() for label in banner._labels]
    assert "Not answering." in texts and "Plug it in at the keypad." in texts
    assert any("Shuffler" in text for text in texts)
    banner.set_faults([("Shuffler", "Not answering.", "Check its cable and power.")])
    assert len(banner._labels) == 3  # the keypad's fault is gone from the screen
    banner.set_faults([])
    assert not banner.isVisible()
