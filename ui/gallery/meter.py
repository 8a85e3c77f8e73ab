"""The meter display in the states the players see it, for ``python -m ui.screenshots`` and
the tests: a real console on simulated devices, a stacked deck dealt through the shuffler
double, the hit marked by the round and confirmed with a test card on the keypad's reader."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from dealer_console.cards import parse_cards
from dealer_console.devices.keypad import Button
from dealer_console.profiles.loader import PROFILE_DIR, get_profile, load_profile
from dealer_console.profiles.model import Profile
from dealer_console.round import commands as c
from drivers.sim.table.world import shuffled_deck
from ui.gallery.player import ScreenPlayer
from ui.meter_display.window import MeterDisplayWindow

NATURAL_STRAIGHT_FLUSH = "As Ks Qs Js Ts 9s 8s"
"""Seven spades in a row: WA01's 100% line (the meter paid and reset to seed + reserve)."""
FIVE_ACES = "As Ad Ah Ac JK"

SECOND_GAME = """
[[jackpot]]
spot = 2
paytable = "fupgpp-ml02"
wager = "$5"
mode = "house"
fixed_from_meter = true
executive_above = "$10,000"

[jackpot.meters.mega]
seed = "$50,000"
contribution = "5%"

[jackpot.meters.major]
seed = "$5,000"
contribution = "3%"

[jackpot.meters.minor]
seed = "$500"
contribution = "2%"
reserve = "0.25%"
"""


def two_game_profile(folder: Path) -> Profile:
    """The shipped Washington profile with a second jackpot game (ML02, $5) on sensor spot 2
    (the document's "House Jackpot and Progressive Jackpots": up to two games a layout)."""
    text = (PROFILE_DIR / "washington-face-up.toml").read_text(encoding="utf-8")
    text = text.replace("\n[jackpot]\n", "\n[[jackpot]]\nspot = 1\n")
    path = folder / "washington-two-games.toml"
    path.write_text(text + SECOND_GAME, encoding="utf-8")
    return load_profile(path)


def start_player(profile: Profile, db: Path, *, meter_display: bool = True) -> ScreenPlayer:
    """A console as ``ScreenPlayer.start`` makes one, for a profile that is not shipped."""
    return ScreenPlayer.start(profile, db, meter_display=meter_display)


def deal_a_hit(p: ScreenPlayer, cards: str, seats: Iterable[int] | None = None,
               spots: Iterable[int] = (1,)) -> None:
    """A round with base wagers and jackpot chips at ``seats`` (every player seat when None),
    the first hand dealt holding ``cards``, played to its end: the jackpot hand is then marked
    and waits for its card."""
    assert p.hardware.shuffler is not None and p.hardware.bus is not None
    stacked = list(parse_cards(cards))
    deck = stacked + [x for x in shuffled_deck(5, 1) if x not in stacked]
    p.hardware.shuffler.script(deck_order=tuple(deck), random_number=2)
    base = p.ctl.rules.limit("base")
    assert base is not None
    for seat in p.ctl.rules.player_seats if seats is None else seats:
        p.ctl.do(c.PlaceWager(seat, "base", base.minimum))
        for spot in spots:
            p.hardware.bus.place(seat, spot)
    p.wait(lambda: p.window.phase_bar.primary.isEnabled(), "START GAME to be live")
    p.start_game()
    p.until_hands_set()
    p.play_to_end()
    p.wait(lambda: bool(p.ctl.snapshot().jackpot_pending), "the jackpot hand to be marked")


def confirm_hits(p: ScreenPlayer) -> None:
    """CONFIRM on the keypad and the card each waiting hit needs, until none waits."""
    keypad = p.hardware.keypad
    assert keypad is not None
    while p.ctl.snapshot().jackpot_pending:
        needs = p.ctl.snapshot().jackpot_pending[0].needs
        keypad.tap(Button.CONFIRM)
        p.wait(lambda: p.ctl.snapshot().jackpot_armed, "CONFIRM")
        before = len(p.ctl.snapshot().jackpot_pending)
        p.swipe(needs)
        p.wait(lambda b=before: len(p.ctl.snapshot().jackpot_pending) < b,  # type: ignore[misc]
               "the confirmation")


def _display(profile: Profile, play: Callable[[ScreenPlayer], None],
             profile_folder: tempfile.TemporaryDirectory[str] | None = None) -> QWidget:
    """The meter display after ``play``; its table's folder (and ``profile_folder``, where a
    profile was written for it) removed when the window closes."""
    folder = tempfile.TemporaryDirectory(prefix="meter-display-")
    p = start_player(profile, Path(folder.name) / "table.db", meter_display=False)
    play(p)
    window = MeterDisplayWindow(p.ctl, p.console.bridge)
    window.on_closed.append(p.close)
    window.on_closed.append(folder.cleanup)
    if profile_folder is not None:
        window.on_closed.append(profile_folder.cleanup)
    p.wait(lambda: bool(window.panels), "the meters to be read")
    return window


def _last_hit(p: ScreenPlayer) -> None:
    deal_a_hit(p, NATURAL_STRAIGHT_FLUSH)
    confirm_hits(p)
    p.end_game()


def last_hit() -> QWidget:
    return _display(get_profile("washington-face-up"), _last_hit)


def two_games_pending() -> QWidget:
    folder = tempfile.TemporaryDirectory(prefix="meter-profile-")  # was left behind in /tmp
    return _display(two_game_profile(Path(folder.name)),
                    lambda p: deal_a_hit(p, FIVE_ACES, spots=(1, 2)), folder)


def _rounds(p: ScreenPlayer, count: int) -> None:
    """``count`` rounds with jackpot chips at two seats, any hit confirmed."""
    for _ in range(count):
        p.open_round(seats=(2, 3))
        p.until_hands_set()
        p.play_to_end()
        confirm_hits(p)
        p.end_game()


def meter_chart() -> QWidget:
    """The supervisor's meter chart after rounds before and after a 100% hit."""
    folder = tempfile.TemporaryDirectory(prefix="meter-chart-")
    p = start_player(get_profile("washington-face-up"), Path(folder.name) / "table.db",
                     meter_display=False)
    assert p.hardware.shuffler is not None
    p.hardware.shuffler.script(seed=21)
    _rounds(p, 3)
    deal_a_hit(p, NATURAL_STRAIGHT_FLUSH)
    confirm_hits(p)
    p.end_game()
    p.hardware.shuffler.script(seed=22)
    _rounds(p, 2)
    area = p.open_supervisor("supervisor")
    area.show_screen("Meter chart")
    p.window.on_closed.append(p.close)
    p.window.on_closed.append(folder.cleanup)
    return p.window


METER_PAGES: dict[str, Callable[[], QWidget]] = {
    "meter-display-last-hit": last_hit,
    "meter-display-two-games-pending": two_games_pending,
    "supervisor-meter-chart": meter_chart,
}
