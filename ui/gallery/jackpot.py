"""The supervisor's jackpot screens in the states a supervisor meets them, for the screenshots
(``tests/ui/test_screens_fit.py``): each is a real console on simulated devices
where a round is played by touch with a jackpot hit at seat 2, confirmed by card.
``play_a_jackpot_hit`` is the same round the tests play."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from dealer_console.cards import parse_cards
from dealer_console.devices.keypad import Button
from dealer_console.jackpot import games, win_prints
from dealer_console.jackpot_values.meters import MeterState
from dealer_console.profiles.loader import PROFILE_DIR
from drivers.sim.table.world import shuffled_deck
from ui.gallery.player import ScreenPlayer
from ui.supervisor.jackpot_screen import JackpotScreen

NATURAL_SF = "2c 3c 4c 5c 6c 7c 8c"
"""WA01's top line: 100% of the meter, above the executive threshold."""
ROYAL = "As Ks Qs Js Ts 2d 3c"
"""A royal flush: paid from the tray, a supervisor's card."""
WILD_SF = "2h 3h 4h 5h 6h JK 8h"
"""A wild straight flush: 25% of the meter, a supervisor's card."""
TWO_PEOPLE = ('executive_above = "$1,000"\n',
              'executive_above = "$1,000"\ntwo_person_above = "$2,000"\n')
"""Washington's line that says who confirms, and the same with two people above $2,000."""


LONG_REASON = ("WRONG SEAT. THE CHIP WAS ON SEAT 3 AND THE HAND MARKED WAS SEAT 2'S - "
               "SEEN ON THE CAMERA BY THE SHIFT MANAGER")
"""A back-out's reason as long as a supervisor writes one."""


def two_person_profile(folder: Path) -> str:
    """Washington with awards above $2,000 confirmed by a supervisor and an executive: the
    gallery's fullest awards list holds such an award."""
    text = (PROFILE_DIR / "washington-face-up.toml").read_text(encoding="utf-8")
    assert TWO_PEOPLE[0] in text
    path = folder / "two-people.toml"
    path.write_text(text.replace(*TWO_PEOPLE), encoding="utf-8")
    return str(path)


def confirm_waiting(p: ScreenPlayer) -> None:
    """CONFIRM and the card (or the two cards) each waiting hit needs, until none waits."""
    while p.ctl.snapshot().jackpot_pending:
        hit = p.ctl.snapshot().jackpot_pending[0]
        press(p, Button.CONFIRM)
        for role in (("supervisor", "executive") if hit.needs == "two people"
                     else (hit.needs,)):
            p.swipe(role)


def hit_round(p: ScreenPlayer, hand: str) -> None:
    """A round with ``hand`` dealt to seat 2 (its jackpot chip on), every hit confirmed, the
    round ended."""
    cards = list(parse_cards(hand))
    rest = [c for c in shuffled_deck(3, 1) if c not in cards]
    assert p.hardware.shuffler is not None  # number 1: the hands go to seats 0, 1, 2, ...
    p.hardware.shuffler.script(deck_order=tuple(rest[:14] + cards + rest[14:]),
                               random_number=1)
    assert p.hardware.bus is not None
    p.hardware.bus.place(2, 1)  # the chip on (the world's button would take it off again)
    p.open_round(chip=False)
    p.until_hands_set()
    p.play_to_end()
    confirm_waiting(p)
    p.end_game()


def back_out_by_screen(p: ScreenPlayer, screen: JackpotScreen, hit_id: int,
                       reason: str) -> None:
    """Award ``hit_id`` backed out on the awards screen: chosen, the reason typed on the
    on-screen keys, an executive's card."""
    row = next(i for i, e in enumerate(screen.entries) if e.hit.hit_id == hit_id)
    screen.table.selectRow(row)
    p.tap(screen.back_out)
    for char in reason:
        p.tap(screen.reason.keys[char])
    p.tap(screen.ask_card)
    p.swipe("executive")


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


def _player(fullest: bool = False) -> ScreenPlayer:
    """A console after a jackpot hit; ``fullest``: after four awards instead, the first
    confirmed by two people, one backed out (what the awards list and recall must hold)."""
    folder = tempfile.TemporaryDirectory(prefix="supervisor-screens-")
    profile = two_person_profile(Path(folder.name)) if fullest else "washington-face-up"
    player = ScreenPlayer.start(profile, Path(folder.name) / "table.db")
    player.window.on_closed.append(player.close)
    player.window.on_closed.append(folder.cleanup)
    if not fullest:
        play_a_jackpot_hit(player)
        return player
    for hand in (NATURAL_SF, WILD_SF, ROYAL, WILD_SF):  # the first above $2,000: two people
        hit_round(player, hand)
    screen = jackpot_screen(player)
    royal = next(e.hit.hit_id for e in screen.entries if e.hit.cards
                 and set(parse_cards(e.hit.cards)) == set(parse_cards(ROYAL)))
    back_out_by_screen(player, screen, royal, "WRONG SEAT")
    player.wait(lambda: any(e.back_out is not None for e in player.ctl.jackpot_awards()),
                "the back-out")
    return player


def jackpot_screen(p: ScreenPlayer) -> JackpotScreen:
    area = p.window.supervisor or p.open_supervisor("supervisor")
    p.tap(area.buttons["Jackpot awards"])
    screen = area.screens["Jackpot awards"]
    assert isinstance(screen, JackpotScreen)
    return screen


def print_from_screen(p: ScreenPlayer, screen: JackpotScreen, hit_id: int, times: int) -> None:
    """Award ``hit_id``'s win page printed ``times`` from the awards screen, each dialog
    closed (the next print shows its own)."""
    screen.table.selectRow(next(i for i, e in enumerate(screen.entries)
                                if e.hit.hit_id == hit_id))
    desk = p.window.win_pages
    for _ in range(times):
        p.tap(screen.print_page)
        p.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
        assert desk.dialog is not None
        desk.dialog.accept()


def money_bag_print(p: ScreenPlayer) -> None:
    """The keypad's money bag pressed: the win page printed, its dialog closed."""
    press(p, Button.MONEY_BAG)
    desk = p.window.win_pages
    p.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
    assert desk.dialog is not None
    desk.dialog.accept()


def left_unfinished(p: ScreenPlayer, hit_id: int) -> int:
    """A print of award ``hit_id`` recorded and never printed, as a console killed between
    the two leaves it (``tests/ui/test_win_page_crash.py`` kills one); its copy number."""
    return win_prints.record_print(p.ctl.table.db, hit_id, None)


def awards() -> QWidget:
    """Four awards: a two-person one chosen (both named) and its win page printed twice (the
    prints said under it), one backed out (its own words), another's win page left
    unfinished (named above the list and in its status, with what to do)."""
    p = _player(fullest=True)
    screen = jackpot_screen(p)
    two = next(e.hit.hit_id for e in screen.entries if e.hit.second_employee_name)
    other = next(e.hit.hit_id for e in screen.entries
                 if e.hit.hit_id != two and e.back_out is None)
    left_unfinished(p, other)
    print_from_screen(p, screen, two, 2)
    chosen = screen.table.model().index(
        next(i for i, e in enumerate(screen.entries) if e.hit.hit_id == two), 0)
    bar = screen.table.verticalScrollBar()  # the chosen award in sight, however it is laid out
    bar.rangeChanged.connect(lambda _least, _most: screen.table.scrollTo(chosen))
    screen.table.scrollTo(chosen)
    return p.window


def back_out() -> QWidget:
    """The back-out page at its fullest: a long reason typed, a supervisor's card refused with
    its reason shown, the prompt still waiting for an executive's."""
    p = _player(fullest=True)
    screen = jackpot_screen(p)
    chosen = next(i for i, e in enumerate(screen.entries) if e.back_out is None)
    screen.table.selectRow(chosen)
    p.tap(screen.back_out)
    for char in LONG_REASON:
        p.tap(screen.reason.keys[char])
    p.tap(screen.ask_card)
    p.swipe("supervisor")  # refused: the reason shown, the prompt stays
    return p.window


def meter_history() -> QWidget:
    p = _player(fullest=True)
    area = p.window.supervisor or p.open_supervisor("supervisor")
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
