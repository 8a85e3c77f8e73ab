"""Run by ``test_win_page_crash`` in a process of its own: a console on the simulated table
plays to a jackpot hit and confirms it by touch and card; then the keypad's money bag is
pressed, and the process is killed where the window would print the page: the print is
recorded (the controller records it first), no page printed or written. Not a test itself."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from dealer_console.devices.keypad import Button
from ui.application import application
from ui.gallery.jackpot import play_a_jackpot_hit, press
from ui.gallery.player import ScreenPlayer
from ui.supervisor import win_page


def killed(*_args: object, **_kwargs: object) -> win_page.Printed:
    """In the window's printing, before a byte of the page: the power cut, the crash."""
    print("printing", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("not reached")


def main(db: str) -> None:
    application()
    player = ScreenPlayer.start("washington-face-up", Path(db))
    play_a_jackpot_hit(player)
    win_page.print_win_page = killed
    press(player, Button.MONEY_BAG)
    player.wait(lambda: False, "the kill", timeout=60)


if __name__ == "__main__":
    main(sys.argv[1])
