"""A finger's bounce takes one step only (outside review: three taps 180 ms apart on California's
"Set the banker's hand" set every player's hand the House Way and paid the table; a double tap
on Washington's "Seat 2: House Way" set seat 3 too). The dealer's real window, controller,
drivers and simulated devices; each touch a raw click, as a finger gives it (not the player's
``tap``, which touches as a dealer who has read the button first).

The kit's clock is held while the quick taps land, so a loaded machine's pause between two
lines of a test never passes for the dealer's reading time; the deliberate tap after them
waits on the real clock with qtbot."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from dealer_console.round.state import Phase
from ui.gallery.player import ScreenPlayer
from ui.widgets import touch
from ui.widgets.touch import TAP_CLOCK, TouchButton


@contextmanager
def clock_held() -> Iterator[None]:
    """The kit's clock stands still inside the block."""
    at = touch.TAP_CLOCK.now()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(touch.TAP_CLOCK, "now", lambda: at)
        yield


def finger(p: ScreenPlayer, button: TouchButton) -> None:
    """One touch on ``button`` as a finger gives it, then the screens drawn from what it did."""
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    p.wait(lambda: True, "the screens drawn after the touch")


def banker_to_set(play: list[ScreenPlayer], tmp_path: Path, profile: str) -> ScreenPlayer:
    """A round on ``profile`` with players at seats 2-4 and the banker's hand to set (not an
    ace-high pai gow, so the players' hands are still to set after it)."""
    for seed in (3, 4, 5, 6, 7, 8):
        p = ScreenPlayer.start(profile, tmp_path / f"t{seed}.db")
        play.append(p)
        assert p.hardware.shuffler is not None
        p.hardware.shuffler.script(seed=seed)
        p.open_round(seats=(2, 3, 4))
        p.until_hands_set()
        if p.phase is Phase.BANKER_SET and not p.ctl.snapshot().banker_pai_gow:
            return p
    raise AssertionError("no seed gave a banker's hand to set")


def test_a_triple_tap_on_the_phase_bar_takes_one_step(
        play: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = banker_to_set(play, tmp_path, "california-face-up")
    bar = p.window.phase_bar.primary
    round_id = p.ctl.state.round_id
    assert bar.text() == "Set the banker's hand"
    TAP_CLOCK.skip(bar.wait_left())  # the dealer has read this step
    with clock_held():
        finger(p, bar)
        p.wait(lambda: bar.text().startswith("House Way:"), "the players' step on the button")
        assert p.phase is Phase.PLAYERS_SET and bar.isEnabled()
        finger(p, bar)  # the bounce: on the new words at once
        finger(p, bar)  # and a third
    assert p.phase is Phase.PLAYERS_SET and p.ctl.state.round_id == round_id
    assert not p.ctl.state.settings.keys() & {2, 3, 4}, "a player's own choice was taken"
    assert bar.text().startswith("House Way:")

    qtbot.waitUntil(bar.takes_taps)  # the dealer reads the new words, then touches them
    finger(p, bar)
    p.wait(lambda: p.phase is Phase.SETTLEMENT, "the players' hands set the House Way")
    assert p.ctl.state.round_id == round_id  # and nothing paid: the page is read first


def test_a_double_tap_on_a_seats_house_way_sets_that_seat_only(
        play: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = banker_to_set(play, tmp_path, "washington-face-up")
    p.next_step()  # the banker's hand, touched as a dealer does
    p.wait(lambda: p.phase is Phase.PLAYERS_SET, "the players' turn")
    p.seat(2)
    button = p.hand_page.house_way
    assert button.text() == "Seat 2: House Way"
    TAP_CLOCK.skip(button.wait_left())
    with clock_held():
        finger(p, button)
        p.wait(lambda: button.text() == "Seat 3: House Way", "the next seat's hand")
        finger(p, button)  # the bounce
    assert set(p.ctl.state.settings) & {2, 3, 4} == {2}

    qtbot.waitUntil(button.takes_taps)
    finger(p, button)
    p.wait(lambda: 3 in p.ctl.state.settings, "seat 3's hand, touched deliberately")
    assert set(p.ctl.state.settings) & {2, 3, 4} == {2, 3}
