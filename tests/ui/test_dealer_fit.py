"""Every dealer page in its fullest state fits a real screen of 1280x800 and of 1920x1080
(issue 22): six seats, every wager with six jackpot wagers, the longest refusal, the card
prompt and a fault banner shown; the window never needs more than the screen, no text is cut
or elided, no button is smaller than a finger (``ui/fit_check.py``). The keypad and the phase
bar stay where they are whatever the page holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from dealer_console.round.state import Phase
from ui.fit_check import screen_problems
from ui.gallery.player import ScreenPlayer
from ui.screenshots import SIZES
from ui.widgets.amount_keypad import AmountKeypad
from ui.widgets.number_pad import NumberPad

Build = Callable[[ScreenPlayer], None]


@pytest.fixture
def started(qtbot: QtBot, themed: QApplication) -> Iterator[list[ScreenPlayer]]:
    players: list[ScreenPlayer] = []
    yield players
    for p in players:
        p.close()


def _start(started: list[ScreenPlayer], tmp_path: Path, profile: str) -> ScreenPlayer:
    p = ScreenPlayer.start(profile, tmp_path / f"{profile}-{len(started)}.db")
    started.append(p)
    return p


def _every_wager(p: ScreenPlayer) -> None:
    """Six seats, each with every wager the screen takes and a jackpot chip."""
    kinds = [b.text() for k, b in p.betting.kind_buttons.items() if k != "house_wager"]
    for seat in p.ctl.rules.player_seats:
        if p.ctl.state.banker_kind == "player" and seat == p.ctl.state.banker_seat:
            continue
        for kind in kinds:
            p.bet(seat, kind, 5 if kind != "Base" else 25)
        if p.console.world is not None and p.world.chip_buttons:
            p.chip(seat)


def _longest_refusal(p: ScreenPlayer) -> None:
    p.seat(3)
    p.tap(p.button("Ace-High", p.betting))
    p.type_amount(p.betting.keypad, 900)


def _prompt_and_fault(p: ScreenPlayer, device: str = "bet-sensors") -> None:
    p.tap(p.window.supervisor_button)
    p.tap(p.button(f"Unplug {device}", p.world))
    p.wait(lambda: p.window.faults.isVisible(), "the fault banner")


def wagers_quiet(p: ScreenPlayer) -> None:
    pass


def wagers_full(p: ScreenPlayer) -> None:
    _every_wager(p)
    _longest_refusal(p)


def wagers_prompt(p: ScreenPlayer) -> None:
    wagers_full(p)
    p.tap(p.window.supervisor_button)


def wagers_fault(p: ScreenPlayer) -> None:
    wagers_full(p)
    _prompt_and_fault(p)


def _to_hands(p: ScreenPlayer) -> None:
    _every_wager(p)
    p.start_game()
    p.until_hands_set()


def hand_foul(p: ScreenPlayer) -> None:
    _to_hands(p)
    if p.phase is Phase.BANKER_SET:
        p.next_step()  # the banker's hand
    p.touch_foul(3)
    _prompt_and_fault(p, "keypad")


def settlement_full(p: ScreenPlayer) -> None:
    _to_hands(p)
    while p.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET):
        p.next_step()
    _prompt_and_fault(p, "keypad")


def _dealt_until(p: ScreenPlayer, next_deal: str, phase: Phase) -> None:
    """The shuffler's next deal set in the world window, every wager, START GAME, then the
    card prompt and a fault once the round reaches ``phase``."""
    p.tap(p.button(next_deal, p.world))
    _every_wager(p)
    p.start_game()
    p.wait(lambda: p.phase is phase, phase.value)
    _prompt_and_fault(p, "keypad")


def misdeal_full(p: ScreenPlayer) -> None:
    _dealt_until(p, "Next deal: card-count error", Phase.MISDEAL)


def deal_full(p: ScreenPlayer) -> None:
    _dealt_until(p, "Hands on the deal button", Phase.DEALING)


def bank_full(p: ScreenPlayer) -> None:
    keypad = p.window.pages[Phase.BANKER].keypad  # type: ignore[attr-defined]
    p.type_amount(keypad, 99999)
    _prompt_and_fault(p, "keypad")


def dice_full(p: ScreenPlayer) -> None:
    p.accept_bank(500)
    _every_wager(p)
    p.start_game()
    _prompt_and_fault(p, "keypad")


def high_card_full(p: ScreenPlayer) -> None:
    p.accept_bank(500)
    _every_wager(p)
    p.start_game()
    _prompt_and_fault(p, "keypad")


def end_jackpot(p: ScreenPlayer) -> None:
    p.deal_jackpot_hands(["As Ks Qs Js Ts 2d 3c"], seats=(1, 2, 3, 4, 5, 6))
    p.tap(p.window.supervisor_button)


STATES: dict[str, tuple[str, Build]] = {
    "wagers-quiet": ("washington-face-up", wagers_quiet),
    "wagers-full": ("washington-face-up", wagers_full),
    "wagers-prompt": ("washington-face-up", wagers_prompt),
    "wagers-fault": ("washington-face-up", wagers_fault),
    "bank": ("california-face-up", bank_full),
    "dice": ("california-face-up", dice_full),
    "high-card": ("oxford-downs-face-up", high_card_full),
    "deal": ("washington-face-up", deal_full),
    "misdeal": ("washington-face-up", misdeal_full),
    "hand-foul": ("washington-face-up", hand_foul),
    "fortune-hands": ("catfish-bend-fortune", hand_foul),
    "settlement": ("washington-face-up", settlement_full),
    "end-jackpot": ("washington-face-up", end_jackpot),
}


def _lay_out(window: QWidget, size: QSize) -> None:
    window.setFixedSize(size)
    app = QApplication.instance()
    assert app is not None
    for _ in range(4):
        layout = window.layout()
        if layout is not None:
            layout.activate()
        app.processEvents()


def _place(widget: QWidget) -> QRect:
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


@pytest.mark.parametrize("state", list(STATES))
def test_every_dealer_page_fits_both_screens(started: list[ScreenPlayer], tmp_path: Path,
                                             state: str) -> None:
    profile, build = STATES[state]
    p = _start(started, tmp_path, profile)
    build(p)
    p.wait(lambda: True, "the screen")
    for width, height in SIZES:
        _lay_out(p.window, QSize(width, height))
        problems = screen_problems(p.window, QSize(width, height))
        assert not problems, f"{state} at {width}x{height}: " + "; ".join(problems[:6])
        # what the dealer touches or must read at once is whole on screen, never scrolled
        # half away: the keypads, the phase bar, a fault and the card prompt in the top strip
        page = p.window.stack.currentWidget()
        assert page is not None
        for part in (p.window.phase_bar, p.window.faults, p.window.card_prompt,
                     *page.findChildren(AmountKeypad), *page.findChildren(NumberPad)):
            if part.isVisible():
                shown = part.visibleRegion().boundingRect().size()
                assert shown == part.size(), f"{state} at {width}x{height}: {part!r} shows " \
                    f"{shown.width()}x{shown.height()} of {part.width()}x{part.height()}"


@pytest.mark.parametrize("size", SIZES)
def test_the_keypad_and_the_phase_bar_never_move(started: list[ScreenPlayer],
                                                 tmp_path: Path, size: tuple[int, int]
                                                 ) -> None:
    places = []
    for build in (wagers_quiet, wagers_full, wagers_prompt, wagers_fault):
        p = _start(started, tmp_path, "washington-face-up")
        build(p)
        p.wait(lambda: True, "the screen")
        _lay_out(p.window, QSize(*size))
        places.append((_place(p.betting.keypad), _place(p.window.phase_bar)))
    assert all(place == places[0] for place in places), places


@pytest.mark.parametrize("profile", ["washington-face-up", "catfish-bend-fortune"])
def test_the_world_window_fits_both_screens(started: list[ScreenPlayer], tmp_path: Path,
                                            profile: str) -> None:
    """The simulated table's window: every key and swipe button whole, on either screen."""
    p = _start(started, tmp_path, profile)
    for width, height in SIZES:
        _lay_out(p.world, QSize(width, height))
        problems = screen_problems(p.world, QSize(width, height))
        assert not problems, f"world at {width}x{height}: " + "; ".join(problems[:6])
