"""The meter display through a real console on the simulated devices: what the monitor shows
is what the table database holds, within a second of a change, whoever opened the window."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from dealer_console.jackpot.history import hit_history
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.money import format_cents
from dealer_console.profiles.loader import get_profile
from dealer_console.round.state import Phase
from ui.gallery.meter import (
    FIVE_ACES,
    NATURAL_STRAIGHT_FLUSH,
    confirm_hits,
    deal_a_hit,
    start_player,
    two_game_profile,
)
from ui.gallery.player import ScreenPlayer
from ui.meter_display.launcher import meter_display_of, show_meter_display
from ui.meter_display.window import MeterDisplayWindow
from ui.supervisor.meter_screen import MeterDisplayScreen

SECOND = 1000
"""How soon (ms) the monitor must show a change: issue 13, "The meter display"."""


@pytest.fixture
def players() -> Iterator[list[ScreenPlayer]]:
    started: list[ScreenPlayer] = []
    yield started
    for p in started:
        p.close()


def _start(players: list[ScreenPlayer], tmp_path: Path, two_games: bool = False
           ) -> ScreenPlayer:
    profile = two_game_profile(tmp_path) if two_games else get_profile("washington-face-up")
    p = start_player(profile, tmp_path / "table.db")
    players.append(p)
    return p


def _display(p: ScreenPlayer) -> MeterDisplayWindow:
    window = meter_display_of(p.console.bridge)
    assert window is not None, "the console opened no meter display"
    return window


def _meters(p: ScreenPlayer) -> dict[tuple[int, str], str]:
    """Each meter as the table database holds it, rounded down to the cent as shown."""
    rows = p.ctl.table.db.execute("SELECT spot, level, meter_micro FROM jackpot_levels").fetchall()
    return {(int(s), str(lv)): format_cents(int(m) // MICRO) for s, lv, m in rows}


def _shown(window: MeterDisplayWindow) -> dict[tuple[int, str], str]:
    return {(spot, level): label.text() for spot, panel in window.panels.items()
            for level, label in panel.meters.items()}


def _news(window: MeterDisplayWindow) -> str:
    panel = window.panels.get(1)
    return panel.news.text() if panel is not None else ""


def test_start_game_with_jackpot_chips_raises_the_shown_meter_within_a_second(
        players: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = _start(players, tmp_path)
    window = _display(p)
    qtbot.waitUntil(lambda: _shown(window) == _meters(p), timeout=5 * SECOND)
    before = _shown(window)
    p.bet(2, "Base", 20)
    p.chip(2)
    p.bet(3, "Base", 20)
    p.chip(3)
    p.start_game()  # returns once the round has moved on: the contribution is committed
    assert _meters(p) != before  # 15% of two $1 wagers went on the meter
    qtbot.waitUntil(lambda: _shown(window) == _meters(p), timeout=SECOND)
    assert not window.problem.isVisible()


def test_a_confirmed_hit_shows_the_win_and_the_reseeded_amount(
        players: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = _start(players, tmp_path)
    window = _display(p)
    deal_a_hit(p, NATURAL_STRAIGHT_FLUSH)
    confirm_hits(p)
    hit = hit_history(p.ctl.table.db)[-1]
    meter = _meters(p)[(1, "main")]
    news = window.panels[1].news
    qtbot.waitUntil(lambda: news.isVisible() and format_cents(hit.amount_cents) in news.text(),
                    timeout=SECOND)
    assert f"Seat {hit.seat} won" in news.text()
    assert f"Jackpot now {meter}" in news.text()
    assert window.panels[1].meters["main"].text() == meter
    # the 100% award took the meter and reset it to seed + reserve: below what was paid
    seed = p.ctl.table.db.execute("SELECT seed_cents FROM jackpot_levels").fetchone()[0]
    assert int(seed) <= int(meter[1:].replace(",", "").replace(".", "")) < hit.amount_cents


def test_a_hit_waiting_for_its_card_is_shown_as_pending(
        players: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = _start(players, tmp_path)
    window = _display(p)
    deal_a_hit(p, FIVE_ACES)
    waiting = p.ctl.snapshot().jackpot_pending[0]
    news = window.panels[1].news
    qtbot.waitUntil(lambda: "waiting for confirmation" in news.text(), timeout=SECOND)
    assert (f"Seat {waiting.seat}: {waiting.label}, {format_cents(waiting.amount_cents)} held"
            in news.text())
    assert p.phase is Phase.END
    confirm_hits(p)  # confirmed: the pending line gives way to the win
    qtbot.waitUntil(lambda: "won" in news.text(), timeout=SECOND)
    assert "waiting" not in news.text()


def test_two_games_are_shown_side_by_side_with_their_own_meters(
        players: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = _start(players, tmp_path, two_games=True)
    window = _display(p)
    qtbot.waitUntil(lambda: _shown(window) == _meters(p), timeout=5 * SECOND)
    assert sorted(window.panels) == [1, 2]
    assert sorted(window.panels[2].meters) == ["major", "mega", "minor"]
    assert window.panels[2].title.text() == "Game 2: $5.00 wager"
    # a fixed pay scaled to the game's fixed wager: ML02's straight flush, 100 for 1 on $5
    assert window.panels[2].lines["Straight flush"].text() == "$500.00"
    assert window.panels[1].lines["Straight flush"].text() == "$100.00"
    p.bet(4, "Base", 20)
    p.chip(4, spot=2)  # a chip on the second game's sensor only
    before = _meters(p)
    p.start_game()
    after = _meters(p)
    assert after[(1, "main")] == before[(1, "main")]
    assert after[(2, "mega")] != before[(2, "mega")]
    qtbot.waitUntil(lambda: _shown(window) == after, timeout=SECOND)


def test_closed_and_opened_again_it_shows_the_same(
        players: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = _start(players, tmp_path)
    deal_a_hit(p, FIVE_ACES)
    first = _display(p)
    qtbot.waitUntil(lambda: "held" in _news(first), timeout=SECOND)
    shown = (_shown(first), _news(first))
    first.close()
    assert meter_display_of(p.console.bridge) is None
    area = p.open_supervisor("supervisor")
    screen = area.show_screen("Meter display")
    assert isinstance(screen, MeterDisplayScreen)
    assert screen.status.text() == "The meter display is closed."
    p.tap(p.button("Open the meter display", area))
    assert "Open in a window" in screen.status.text()  # one screen here: no monitor
    again = _display(p)
    assert again is not first
    qtbot.waitUntil(lambda: (_shown(again), _news(again)) == shown,
                    timeout=SECOND)
    again.close()
    third = show_meter_display(p.ctl, p.console.bridge, p.window)  # as the console does
    qtbot.waitUntil(lambda: (_shown(third), _news(third)) == shown,
                    timeout=SECOND)


def test_not_opened_when_asked_not_to_or_for_a_table_without_a_jackpot(
        players: list[ScreenPlayer], tmp_path: Path) -> None:
    asked = start_player(get_profile("washington-face-up"), tmp_path / "a.db",
                         meter_display=False)
    players.append(asked)
    assert meter_display_of(asked.console.bridge) is None
    no_jackpot = start_player(get_profile("california-face-up"), tmp_path / "b.db")
    players.append(no_jackpot)
    assert meter_display_of(no_jackpot.console.bridge) is None


def test_the_gui_command_takes_no_meter_display(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_console.cli", "gui", "--simulated", "--db",
         str(tmp_path / "t.db"), "--no-meter-display", "--quit-after", "0.3"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
