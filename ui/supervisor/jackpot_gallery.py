"""The supervisor's jackpot screens in the states a supervisor meets them, for the screenshots
(``tests/ui/test_supervisor_screenshots.py``): each is a real console on simulated devices
where a round is played by touch with a jackpot hit at seat 2, confirmed by card.
``play_a_jackpot_hit`` is the same round the tests play."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from dealer_console.cards import parse_cards
from dealer_console.devices.keypad import Button
from dealer_console.jackpot import games
from dealer_console.jackpot_values.meters import MeterState
from drivers.sim.table.world import shuffled_deck
from ui.supervisor.jackpot_screen import JackpotScreen
from ui.testing import ScreenPlayer

NATURAL_SF = "2c 3c 4c 5c 6c 7c 8c"
"""WA01's top line: 100% of the meter, above the executive threshold."""


def press(p: ScreenPlayer, button: Button) -> None:
    """A button of the simulated keypad, through its driver, applied by the table."""
    assert p.hardware.keypad is not None
    before = p.ctl.buttons_pressed
    p.hardware.keypad.tap(button)
    p.wait(lambda: p.ctl.buttons_pressed > before, f"the keypad's {button.name}")


def play_a_jackpot_hit(p: ScreenPlayer, hand: str = NATURAL_SF) -> MeterState:
    """Seat 2 (where ``open_round`` puts the jackpot chip) dealt ``hand``, every seat settled,
    the hit the console found confirmed with CONFIRM and the executive's card. Returns the
    main meter as it stood just before the confirmation."""
    cards = list(parse_cards(hand))
    rest = [c for c in shuffled_deck(3, 1) if c not in cards]
    assert p.hardware.shuffler is not None  # number 1: the hands go to seats 0, 1, 2, ...
    p.hardware.shuffler.script(deck_order=tuple(rest[:14] + cards + rest[14:]),
                               random_number=1)
    p.open_round()
    p.until_hands_set()
    p.play_to_end()
    pending = p.ctl.snapshot().jackpot_pending
    assert [x.seat for x in pending] == [2], pending
    before = games.meter_states(p.ctl.table.db, 1)["main"]
    press(p, Button.CONFIRM)
    p.swipe("executive")
    assert not p.ctl.snapshot().jackpot_pending
    return before


def _player() -> ScreenPlayer:
    folder = tempfile.TemporaryDirectory(prefix="supervisor-screens-")
    player = ScreenPlayer.start("washington-face-up", Path(folder.name) / "table.db")
    player.window.on_closed.append(player.close)
    player.window.on_closed.append(folder.cleanup)
    play_a_jackpot_hit(player)
    return player


def jackpot_screen(p: ScreenPlayer) -> JackpotScreen:
    area = p.open_supervisor("supervisor")
    p.tap(area.buttons["Jackpot awards"])
    screen = area.screens["Jackpot awards"]
    assert isinstance(screen, JackpotScreen)
    return screen


def awards() -> QWidget:
    p = _player()
    jackpot_screen(p)
    return p.window


def back_out() -> QWidget:
    p = _player()
    screen = jackpot_screen(p)
    p.tap(screen.back_out)
    for char in "WRONG SEAT":
        p.tap(screen.reason.keys[char])
    p.tap(screen.ask_card)
    p.swipe("supervisor")  # refused: the reason shown, the prompt stays
    return p.window


def meter_history() -> QWidget:
    p = _player()
    area = p.open_supervisor("supervisor")
    p.tap(area.buttons["Meter history"])
    return p.window


def win_page() -> QWidget:
    p = _player()
    press(p, Button.MONEY_BAG)
    desk = p.window.win_pages
    p.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
    dialog = desk.dialog
    assert dialog is not None
    dialog.finished.connect(lambda _result: p.window.close())
    return dialog


JACKPOT_SCREEN_PAGES: dict[str, Callable[[], QWidget]] = {
    "supervisor-jackpot-awards": awards,
    "supervisor-jackpot-back-out": back_out,
    "supervisor-meter-history": meter_history,
    "supervisor-win-page": win_page,
}
