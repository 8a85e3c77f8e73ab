"""The disk fills in the middle of the deal at a real console (an outside review): the dealer
reads in plain words that the shuffler's report could not be saved, and once space is freed
the console saves the hands it kept, by itself, says so in place of the alarm, and the deal
finishes on the screen."""

from __future__ import annotations

import time
from pathlib import Path

from dealer_console.audit.verify import audit
from dealer_console.round.state import Phase
from tests.controller.small_disk import Disk, disk  # noqa: F401  (the fixture)
from ui.fit_check import screen_problems
from ui.gallery.player import ScreenPlayer
from ui.screenshots import SIZES, render


def fits_both_screens(p: ScreenPlayer, folder: Path) -> None:
    """The window with its notice at both screen sizes: nothing cut, squeezed or elided (the
    notice has three short lines in the phase bar beside the step's button)."""
    for size in SIZES:
        render(p.window, folder / f"{size[0]}x{size[1]}.png", size, check=screen_problems)
    p.window.setMinimumSize(0, 0)
    p.window.setMaximumSize(16777215, 16777215)


def test_hands_the_full_disk_refused_are_saved_once_space_is_freed(
        disk: Disk, play: list[ScreenPlayer], tmp_path: Path) -> None:  # noqa: F811
    p = ScreenPlayer.start("washington-face-up", disk.where / "table.db")
    play.append(p)
    assert p.hardware.shuffler is not None
    p.hardware.shuffler.script(hand_interval=0.1)
    p.open_round()
    p.wait(lambda: len(p.ctl.state.delivered) >= 2, "two hands")
    disk.fill()
    p.wait(lambda: "could not be saved" in p.window.phase_bar.message_text(), "the notice")
    shown = p.window.phase_bar.message_text()
    assert "Shuffler" in shown and "disk is full" in shown and "technician" in shown, shown
    fits_both_screens(p, tmp_path / "kept")
    assert p.phase is Phase.DEALING and p.ctl.events_stalled
    shuffler = p.hardware.shuffler
    p.wait(lambda: shuffler.link_idle, "the shuffler done with the deal")
    for device in ("bet-sensors", "keypad"):
        p.hardware.unplug(device)  # nothing else will wake the console
    settled = time.monotonic() + 0.5  # their last reports taken (and refused) first
    p.wait(lambda: time.monotonic() > settled, "the unplugged devices' last reports")
    assert p.ctl.events_stalled
    disk.free()  # nothing touched: the console tries again by itself
    # the alarm does not stay on the screen once the disk takes the kept report
    p.wait(lambda: "saved now, the disk works again" in
           p.window.phase_bar.message_text(), "the word that the disk took the report")
    assert "could not be saved" not in p.window.phase_bar.message_text()
    fits_both_screens(p, tmp_path / "saved")
    p.until_hands_set()
    for device in ("bet-sensors", "keypad"):
        p.hardware.replug(device)
    assert len(p.ctl.state.hands) == 7
    p.play_to_end()
    p.end_game()
    assert audit(p.ctl.table.db).ok
