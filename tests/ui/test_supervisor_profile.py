"""The profile screen's figures are the math module's (what ``dealer-console math`` prints),
computed off the screen's thread; a bonus paytable returning more than 100% is shown refused
with its figure."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from dealer_console.jackpot import games
from dealer_console.math.jackpot import jackpot_figures
from dealer_console.math.returns import ace_high_figures, fortune_figures, percent
from dealer_console.paytables import Paytable
from dealer_console.profiles.loader import get_profile
from dealer_console.profiles.model import Profile
from ui.app import start_console
from ui.gallery.player import ScreenPlayer
from ui.supervisor.profile import ProfileScreen


def open_profile(p: ScreenPlayer) -> ProfileScreen:
    area = p.open_supervisor("supervisor")
    p.tap(area.buttons["Profile and paytables"])
    screen = area.screens["Profile and paytables"]
    assert isinstance(screen, ProfileScreen)
    p.wait(lambda: screen.figures is not None, "the paytables' figures", timeout=120)
    return screen


def test_the_figures_are_the_math_modules(play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    play.append(p)
    screen = open_profile(p)
    profile = p.ctl.opened.profile
    assert profile.fortune is not None and profile.ace_high is not None
    assert profile.jackpots is not None
    fortune = fortune_figures(profile.fortune)
    text = screen.panel_text("Fortune bonus")
    assert f"Return {percent(fortune.ret)}" in text
    assert f"House edge {percent(fortune.house_edge)}" in text
    assert all(f"chance {percent(x.probability, 6)}" in text for x in fortune.lines)
    ace = ace_high_figures(profile.ace_high)
    assert f"Return {percent(ace.ret)}" in screen.panel_text("Ace-High bonus")
    assert "REFUSED" not in screen.panel_text("Ace-High bonus")
    game = profile.jackpots.games[0]
    meters = {name: m.meter_cents
              for name, m in games.meter_states(p.ctl.table.db, game.spot).items()}
    jackpot = jackpot_figures(game.paytable).return_at(meters, game.wager_cents)
    text = screen.panel_text(f"Jackpot, sensor {game.spot}")
    assert f"Return {percent(jackpot)}" in text and f"House edge {percent(1 - jackpot)}" in text
    assert "Envy" in screen.panels
    assert profile.title in screen.summary.text()


def _generous(profile: Profile) -> Profile:
    """The profile with its Ace-High table paying far too much (no shipped table does)."""
    table = profile.ace_high
    assert table is not None
    lines = tuple(dataclasses.replace(x, odds=(x.odds or 0) * 40) for x in table.lines)
    rich = Paytable(table.name, table.kind, table.title, table.source, lines, table.links)
    return dataclasses.replace(profile, ace_high=rich)


def test_a_paytable_over_100_percent_is_shown_refused(play: list[ScreenPlayer],
                                                      tmp_path: Path) -> None:
    profile = _generous(get_profile("washington-face-up"))
    console = start_console(profile, tmp_path / "t.db", simulated=True, link="in-process")
    p = ScreenPlayer(console)
    play.append(p)
    console.window.resize(1280, 800)  # the table's screen: every screen's button in sight
    console.window.show()
    p.wait(lambda: all(d.connected for d in p.ctl.snapshot().devices), "the devices")
    screen = open_profile(p)
    assert profile.ace_high is not None
    figures = ace_high_figures(profile.ace_high)
    assert figures.over_100
    text = screen.panel_text("Ace-High bonus")
    assert "REFUSED" in text and percent(figures.ret) in text and "over 100%" in text
    assert "REFUSED" not in screen.panel_text("Fortune bonus")
