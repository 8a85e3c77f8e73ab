"""The supervisor's screens in the states a supervisor meets them, for
``python -m ui.screenshots`` and the screenshot test: each a real console on simulated devices,
opened by a test card and played there by touch."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from dealer_console.round.state import Phase
from ui.gallery.jackpot import JACKPOT_SCREEN_PAGES
from ui.gallery.player import ScreenPlayer
from ui.supervisor.area import SupervisorArea
from ui.supervisor.table_actions import TableActions


def _player(profile: str) -> ScreenPlayer:
    folder = tempfile.TemporaryDirectory(prefix="supervisor-screens-")
    player = ScreenPlayer.start(profile, Path(folder.name) / "table.db")
    assert player.hardware.shuffler is not None
    player.hardware.shuffler.script(seed=21)
    player.window.on_closed.append(player.close)
    player.window.on_closed.append(folder.cleanup)
    return player


def _screen(p: ScreenPlayer, title: str, role: str = "supervisor") -> tuple[SupervisorArea,
                                                                              QWidget]:
    area = p.window.supervisor or p.open_supervisor(role)
    p.tap(area.buttons[title])
    return area, area.screens[title]


def table_void() -> QWidget:
    p = _player("washington-face-up")
    p.bet(2, "Base", 50)
    _area, screen = _screen(p, "Table")
    p.tap(p.button("Table closing", screen))
    return p.window


def table_banker() -> QWidget:
    p = _player("california-face-up")
    p.open_round()
    p.until_hands_set()
    p.next_step()
    p.wait(lambda: p.phase is Phase.PLAYERS_SET, "the players' turn")
    _area, screen = _screen(p, "Table")
    p.tap(p.button("Banker's hand", screen))
    assert isinstance(screen, TableActions)
    p.tap(screen.reconstruct_reasons["Keyed wrongly"])  # the reason recorded with it
    for index in (0, 3):  # a low hand other than the House Way's touched: set it otherwise
        p.tap(screen.banker_cards.views[index])
    return p.window


def table_deck_count() -> QWidget:
    p = _player("washington-face-up")
    p.tap(p.button("Next deal: card-count error", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    _area, screen = _screen(p, "Table")
    p.tap(p.button("Deck count", screen))
    assert isinstance(screen, TableActions)
    for digit in "52":  # one card short: the count typed, OK still to press
        p.tap(screen.count_pad.keys[digit])
    return p.window


MORE_STAFF = (("D2", "Alexandra Montgomery-Fitzgerald", "dealer"),
              ("D3", "Bo Chen", "dealer"), ("D4", "Maria Fernanda Oliveira", "dealer"),
              ("D5", "Sam Okafor", "dealer"), ("S2", "Jonathan Wellington III", "supervisor"),
              ("S3", "Priya Raman", "supervisor"), ("T2", "Lee Ann Kowalczyk", "technician"),
              ("X2", "Evelyn Ashcroft-Byrne", "executive"))
"""A shift's staff as long as a table has them, with the longest names a card may hold."""


def with_more_staff(p: ScreenPlayer) -> None:
    """``MORE_STAFF`` added to the table's staff list by the executive's card, one disabled."""
    from dealer_console.employees import changes
    from dealer_console.employees.registry import Role
    from drivers.sim.table.choices import SIM_STAFF

    executive = next(track for _i, _n, role, track in SIM_STAFF if role == "executive")
    db = p.console.opened.db
    for n, (employee_id, name, role) in enumerate(MORE_STAFF, start=2):
        changes.add(db, executive, employee_id, name, Role(role), f"50009000000{n:02d}=2912")
    changes.set_enabled(db, executive, "D5", False, reason="left the casino")


def staff_list() -> QWidget:
    p = _player("washington-face-up")
    with_more_staff(p)
    _area, screen = _screen(p, "Staff")
    p.tap(p.button("Sim Dealer (SIM-D1)\ndealer", screen))
    return p.window


def staff_add() -> QWidget:
    from ui.supervisor.staff import StaffScreen

    p = _player("washington-face-up")
    _area, screen = _screen(p, "Staff")
    assert isinstance(screen, StaffScreen)
    p.tap(screen.add_button)
    screen.keys.type_text("D7")
    p.tap(screen.keys.ok)
    screen.keys.type_text("Dana Reyes")
    return p.window


def staff_pin() -> QWidget:
    """Set PIN: the new PIN typed once (dots only), the pad asking for it again."""
    from ui.supervisor.staff import StaffScreen

    p = _player("washington-face-up")
    _area, screen = _screen(p, "Staff")
    assert isinstance(screen, StaffScreen)
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.set_pin)
    for digit in "2580":
        p.tap(screen.pin_pad.keys[digit])
    p.tap(screen.pin_pad.ok)
    for digit in "25":
        p.tap(screen.pin_pad.keys[digit])
    return p.window


PIN_LINE = ('executive_above = "$1,000"\n', 'executive_above = "$1,000"\npin_required = true\n')
"""Washington's line that says who confirms, and the same with a PIN after the card."""


def _pin_player() -> ScreenPlayer:
    """A console on Washington with a PIN after the confirmation's card."""
    from dealer_console.profiles.loader import PROFILE_DIR

    folder = tempfile.TemporaryDirectory(prefix="supervisor-pins-")
    text = (PROFILE_DIR / "washington-face-up.toml").read_text(encoding="utf-8")
    assert PIN_LINE[0] in text
    path = Path(folder.name) / "pins.toml"
    path.write_text(text.replace(*PIN_LINE), encoding="utf-8")
    p = _player(str(path))
    p.window.on_closed.append(folder.cleanup)
    return p


def staff_executive_pin() -> QWidget:
    """A staff change on a table whose jackpot confirmations take a PIN: the executive's card
    accepted, a wrong PIN refused in words, the prompt's pad taking the next one."""
    from dealer_console.employees.registry import Role
    from ui.supervisor.staff import StaffScreen

    p = _pin_player()
    _area, screen = _screen(p, "Staff")
    assert isinstance(screen, StaffScreen)
    p.tap(screen.rows["SIM-D1"])
    p.tap(screen.role_buttons[Role.SUPERVISOR])
    p.swipe("executive")
    pad = p.window.card_prompt.pin_pad
    for digit in "1111":  # a wrong PIN, OK: refused in words
        p.tap(pad.keys[digit])
    p.tap(pad.ok)
    for digit in "24":  # the next one, half typed
        p.tap(pad.keys[digit])
    return p.window


def staff_pin_warnings() -> QWidget:
    """The staff list where confirmations take a PIN, with every warning of the executives'
    PINs: a new executive without one, the only other's locked, and the list as long as the
    fullest (one withdrawn)."""
    from dealer_console.employees import changes, pins
    from dealer_console.employees.registry import Role, log
    from drivers.sim.table.choices import SIM_STAFF
    from ui.supervisor.staff import StaffScreen

    p = _pin_player()
    with_more_staff(p)
    executive = next(track for _i, _n, role, track in SIM_STAFF if role == "executive")
    db = p.console.opened.db
    changes.add(db, executive, "X7", "Margarethe Oyelaran-Castellanos", Role.EXECUTIVE,
                "5000900000099=2912")
    for _ in range(pins.LOCK_AFTER):  # the sim executive's PIN mistyped to its lock
        with db.atomic():
            log(db, "swipe_refused", "SIM-X1", "card swipe",
                f"confirm a jackpot hit{pins.WRONG_MARK}Sim Executive's PIN is not right")
    _area, screen = _screen(p, "Staff")
    assert isinstance(screen, StaffScreen)
    screen.refresh()
    return p.window


def profile() -> QWidget:
    from ui.supervisor.profile import ProfileScreen

    p = _player("washington-face-up")
    _area, screen = _screen(p, "Profile and paytables")
    assert isinstance(screen, ProfileScreen)
    p.wait(lambda: screen.figures is not None, "the paytables' figures", timeout=120)
    return p.window


SUPERVISOR_PAGES: dict[str, Callable[[], QWidget]] = {
    "supervisor-table-void": table_void,
    "supervisor-table-banker": table_banker,
    "supervisor-table-deck-count": table_deck_count,
    "supervisor-staff": staff_list,
    "supervisor-staff-add": staff_add,
    "supervisor-staff-pin": staff_pin,
    "supervisor-executive-pin": staff_executive_pin,
    "supervisor-staff-pin-warnings": staff_pin_warnings,
    "supervisor-profile": profile,
    **JACKPOT_SCREEN_PAGES,
}
