from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.widgets.amount_keypad import MAX_CENTS, AmountKeypad


def base_wager(cents: int) -> str | None:
    """Stands in for a profile's limits: $10 to $500 in $5 steps."""
    if not 1_000 <= cents <= 50_000:
        return "The base wager is $10 to $500."
    if cents % 500:
        return "Base wagers go in $5 steps."
    return None


@pytest.fixture
def keypad(themed: QApplication, qtbot: QtBot) -> AmountKeypad:
    pad = AmountKeypad(base_wager, "Base wager $10 to $500 in $5 steps")
    qtbot.addWidget(pad)
    pad.resize(500, 600)
    pad.show()
    return pad


def tap(qtbot: QtBot, pad: AmountKeypad, *keys: str) -> None:
    for key in keys:
        qtbot.mouseClick(pad.keys[key], Qt.MouseButton.LeftButton)


def test_typing_builds_whole_dollars_and_ok_gives_exact_cents(keypad: AmountKeypad,
                                                              qtbot: QtBot) -> None:
    assert keypad.amount() is None and not keypad.keys["ok"].isEnabled()
    tap(qtbot, keypad, "1")
    assert keypad.display.text() == "$1.00"
    tap(qtbot, keypad, "2", "5")
    assert keypad.display.text() == "$125.00"
    assert keypad.hint.text() == "Base wager $10 to $500 in $5 steps"
    assert keypad.refusal() is None and not keypad.refusal_label.isVisible()
    with qtbot.waitSignal(keypad.accepted) as accepted:
        tap(qtbot, keypad, "ok")
    assert accepted.args == [12_500]
    assert isinstance(accepted.args[0], int)


def test_a_refused_amount_shows_why_and_ok_stays_disabled(keypad: AmountKeypad,
                                                          qtbot: QtBot) -> None:
    tap(qtbot, keypad, "5")
    assert keypad.refusal_label.isVisible()
    assert keypad.refusal_label.text() == "The base wager is $10 to $500."
    tap(qtbot, keypad, "1")  # $51: in range, not a $5 step
    assert keypad.refusal_label.text() == "Base wagers go in $5 steps."
    assert not keypad.keys["ok"].isEnabled()
    tap(qtbot, keypad, "0")  # $510: over the limit
    assert keypad.display.text() == "$510.00"
    assert keypad.refusal() == "The base wager is $10 to $500."
    with qtbot.assertNotEmitted(keypad.accepted):
        tap(qtbot, keypad, "ok")
    tap(qtbot, keypad, "back", "back")  # $5
    tap(qtbot, keypad, "00")  # $500
    assert keypad.refusal() is None and not keypad.refusal_label.isVisible()
    with qtbot.waitSignal(keypad.accepted) as accepted:
        tap(qtbot, keypad, "ok")
    assert accepted.args == [50_000]


def test_clear_and_cancel(keypad: AmountKeypad, qtbot: QtBot) -> None:
    tap(qtbot, keypad, "7", "0")
    tap(qtbot, keypad, "clear")
    assert keypad.amount() is None and keypad.display.text() == "$0.00"
    assert not keypad.keys["clear"].isEnabled() and not keypad.keys["ok"].isEnabled()
    with qtbot.waitSignal(keypad.cancelled):
        tap(qtbot, keypad, "cancel")


def test_cents_entry_fills_from_the_cents_up(themed: QApplication, qtbot: QtBot) -> None:
    pad = AmountKeypad(cents=True)
    qtbot.addWidget(pad)
    pad.show()
    tap(qtbot, pad, "1")
    assert pad.display.text() == "$0.01"
    tap(qtbot, pad, "2", "5", "00")
    assert pad.display.text() == "$125.00"
    tap(qtbot, pad, "back")
    assert pad.display.text() == "$12.50"
    with qtbot.waitSignal(pad.accepted) as accepted:
        tap(qtbot, pad, "ok")
    assert accepted.args == [1_250]


def test_leading_zeros_and_the_longest_amount(themed: QApplication, qtbot: QtBot) -> None:
    pad = AmountKeypad()
    qtbot.addWidget(pad)
    tap(qtbot, pad, "0", "00", "0")
    assert pad.amount() == 0 and pad.display.text() == "$0.00"
    tap(qtbot, pad, "5")
    assert pad.amount() == 500
    for _ in range(12):
        tap(qtbot, pad, "9")
    assert pad.amount() == 599_999_900 <= MAX_CENTS  # $5,999,999: a further digit is ignored
    assert pad.display.text() == "$5,999,999.00"
    cents = AmountKeypad(cents=True)
    qtbot.addWidget(cents)
    for _ in range(12):
        tap(qtbot, cents, "9")
    assert cents.amount() == MAX_CENTS == 999_999_999


def test_a_preset_amount_and_a_changed_validator(keypad: AmountKeypad) -> None:
    keypad.set_amount(2_500)
    assert keypad.display.text() == "$25.00" and keypad.keys["ok"].isEnabled()
    keypad.set_validator(lambda cents: "Bets are closed." if cents else None)
    assert keypad.refusal() == "Bets are closed." and not keypad.keys["ok"].isEnabled()
    with pytest.raises(ValueError, match=r"\$25\.50 is not whole dollars"):
        keypad.set_amount(2_550)
    assert keypad.amount() == 2_500  # the refused preset lost nothing
    with pytest.raises(ValueError, match="outside what the keypad shows"):
        keypad.set_amount(-500)
    keypad.set_amount(None)
    assert keypad.amount() is None
