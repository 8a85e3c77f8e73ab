"""Run by ``test_jackpot_panel``'s kill test in a process of its own: a console on the
simulated table plays to a jackpot hit, confirms it by touch and card, says so on stdout and
waits before END GAME for the SIGKILL. Not a test itself."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ui.application import application
from ui.gallery.player import ScreenPlayer

ROYAL = "As Ks Qs Js Ts 2d 3c"


def main(db: str) -> None:
    app = application()
    player = ScreenPlayer.start("washington-face-up", Path(db))
    player.deal_jackpot_hands([ROYAL])
    player.tap(player.button("CONFIRM, then swipe the card"))
    player.swipe("supervisor")
    assert not player.ctl.snapshot().jackpot_pending
    print("confirmed", flush=True)
    while True:  # the dealer has not pressed END GAME yet
        app.processEvents()
        time.sleep(0.01)


if __name__ == "__main__":
    main(sys.argv[1])
