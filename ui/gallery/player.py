"""A player of the dealer's screens by touch, for the tests, the screenshots and the GUI
benchmark: every step is a click on a real widget of a real window (``QTest.mouseClick``), the
devices are the simulated ones behind their real drivers, and it waits for the table the way a
dealer does (events processed, never a sleep of the GUI thread in a test's place)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from dealer_console.cards import parse_cards
from dealer_console.controller import LINK_DEVICE
from dealer_console.profiles.loader import find_profile
from dealer_console.profiles.model import Profile
from dealer_console.round.state import Phase
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.table.choices import SIM_STAFF, UNKNOWN_CARD
from drivers.sim.table.world import shuffled_deck
from ui.app import Console, start_console
from ui.dealer.betting import BettingPage
from ui.dealer.pages import ActionPage, HandPage
from ui.supervisor.area import SupervisorArea
from ui.technician.area import TechnicianArea
from ui.widgets.amount_keypad import AmountKeypad
from ui.widgets.number_pad import NumberPad
from ui.widgets.touch import TAP_CLOCK, TouchButton
from ui.world import WorldWindow


def clear_the_way(widget: QWidget) -> None:
    """Move aside every other window lying over ``widget``: the offscreen platform gives a
    click to the window on top at that point (the world window or the meter display, opened
    after the dealer's window, took the technician's taps), as a real screen would."""
    target = QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())
    others = [w for w in QApplication.topLevelWidgets()
              if w.isVisible() and w is not widget.window()]
    right = max((w.frameGeometry().right() for w in [widget.window(), *others]), default=0)
    for other in others:
        if other.frameGeometry().intersects(target):
            other.move(right + 1, 0)
            right = other.frameGeometry().right()


class ScreenPlayer:
    def __init__(self, console: Console) -> None:
        self.console = console
        self.window = console.window
        self.ctl = console.controller
        self.taps = 0
        """Touches on the dealer's window (the world window's stand-ins for the players and
        the devices not counted)."""

    @classmethod
    def start(cls, profile: str | Profile, db: Path, link: str = "in-process", *,
              meter_display: bool = True) -> ScreenPlayer:
        """A console on ``profile``: a shipped profile's name, the path of a TOML file, or a
        profile made in a test."""
        chosen = profile if isinstance(profile, Profile) else find_profile(profile)
        console = start_console(chosen, db, simulated=True, link=link,
                                meter_display=meter_display)
        console.window.resize(1280, 800)
        console.window.show()
        if console.world is not None:
            console.world.show()
        player = cls(console)
        # the jackpot link is not hardware: a table plays the base game without it
        player.wait(lambda: all(d.connected for d in player.ctl.snapshot().devices
                               if d.name != LINK_DEVICE), "the devices to connect")
        return player

    @property
    def hardware(self) -> SimulatedHardware:
        assert self.console.hardware is not None
        return self.console.hardware

    @property
    def world(self) -> WorldWindow:
        assert self.console.world is not None
        return self.console.world

    @property
    def phase(self) -> Phase:
        return self.ctl.state.phase

    def close(self) -> None:
        self.window.close()
        if self.console.world is not None:
            self.world.close()
        self.console.close()

    # -- waiting and touching ----------------------------------------------------------------

    def wait(self, done: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
        app = QApplication.instance()
        assert app is not None
        deadline = time.monotonic() + timeout
        while not (done() and self.drawn()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {what} within {timeout:.0f} s "
                                   f"(phase {self.phase.value}, "
                                   f"bar: {self.window.phase_bar.message_text()!r})")
            app.processEvents()
            time.sleep(0.002)
        app.processEvents()  # the screens drawn from the view the table just reached

    def tap(self, widget: QWidget) -> None:
        """A dealer's touch: a button's new words read first (the kit's clock moved past its
        ``REREAD_MS`` rather than waited out), then a click on it."""
        assert widget.isVisible(), f"{widget!r} is not on screen"
        if isinstance(widget, QPushButton):
            assert widget.isEnabled(), f"button {widget.text()!r} is not live"
        if isinstance(widget, TouchButton):
            TAP_CLOCK.skip(widget.wait_left())
        if widget.window() is self.window:
            self.taps += 1
        clear_the_way(widget)
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
        self.wait(lambda: True, "the screens drawn after the touch")

    def drawn(self) -> bool:
        """True when the screens show the table's newest view (the bridge holds a change while
        device events wait to be applied, at most a frame)."""
        return not self.console.bridge.drawing_due

    def button(self, text: str, within: QWidget | None = None) -> QPushButton:
        """The visible button with exactly ``text``."""
        root = within or self.window
        found = [b for b in root.findChildren(QPushButton)
                 if b.text() == text and b.isVisible()]
        assert found, f"no button {text!r} on screen"
        return found[0]

    def next_step(self) -> None:
        """The phase bar's one button."""
        self.tap(self.window.phase_bar.primary)

    def seat(self, seat: int) -> None:
        self.tap(self.window.table.panels[seat])

    def type_amount(self, keypad: AmountKeypad, dollars: int) -> None:
        if keypad.keys["clear"].isEnabled():
            self.tap(keypad.keys["clear"])
        for digit in str(dollars):
            self.tap(keypad.keys[digit])

    def type_number(self, pad: NumberPad, number: int) -> None:
        for digit in str(number):
            self.tap(pad.keys[digit])
        self.tap(pad.ok)

    # -- the steps of a round ---------------------------------------------------------------

    @property
    def betting(self) -> BettingPage:
        page = self.window.pages[Phase.BETTING]
        assert isinstance(page, BettingPage)
        return page

    def bet(self, seat: int, kind_title: str, dollars: int) -> None:
        self.seat(seat)
        self.tap(self.button(kind_title, self.betting))
        self.type_amount(self.betting.keypad, dollars)
        self.tap(self.betting.keypad.keys["ok"])

    def chip(self, seat: int, spot: int = 1) -> None:
        """A jackpot chip put on a seat's sensor, in the world window."""
        self.tap(self.world.chip_buttons[(seat, spot)])

    def start_game(self) -> None:
        self.next_step()
        self.wait(lambda: self.phase is not Phase.BETTING, "START GAME to be taken")

    def accept_bank(self, dollars: int) -> None:
        page = self.window.pages[Phase.BANKER]
        keypad = page.findChild(AmountKeypad)
        assert keypad is not None
        self.type_amount(keypad, dollars)
        self.tap(keypad.keys["ok"])

    def action(self, number: int | None = None, seat: int | None = None,
               floor: bool = True) -> None:
        """The dice total or RNG number on the pad, or the high-card seat: with ``floor``, the
        supervisor's card swiped where the round asks for the floor's permission (Oxford
        Downs: putting the action button in play, or a new high card)."""
        page = self.window.pages[Phase.ACTION]
        if seat is not None:
            self.tap(self.button(f"Seat {seat}", page))
            if floor and self.ctl.snapshot().card_wanted is not None:
                self.swipe("supervisor")  # a card asked by the action page is the floor's
        elif number is not None and isinstance(page, ActionPage) and page.dice_buttons:
            self.tap(page.dice_buttons[number])  # three dice: the total in one touch
        elif number is not None:
            pad = page.findChild(NumberPad)
            assert pad is not None
            self.type_number(pad, number)

    def open_round(self, seats: tuple[int, ...] = (2, 3), chip: bool = True) -> None:
        """Bank taken where the table offers it, base wagers at ``seats`` (twice the table's
        minimum), a jackpot chip at the first of them where the table has a jackpot (and
        ``chip``), START GAME, the action found (dice total 9, or the first seat's high
        card)."""
        rules = self.ctl.rules
        if self.phase is Phase.BANKER:
            self.accept_bank(1000)
        base = rules.limit("base")
        assert base is not None
        for seat in seats:
            self.bet(seat, "Base", base.minimum // 100 * 2)
        if chip and self.console.world is not None and self.world.chip_buttons:
            self.chip(seats[0])
        self.start_game()
        method = rules.action_method.value
        if method == "dice":
            self.action(number=9)
        elif method == "high_card":
            self.action(seat=seats[0])

    def deal_jackpot_hands(self, hands: list[str], seats: tuple[int, ...] = (1, 2, 3),
                           seed: int = 5, spots: tuple[int, ...] = (1,)) -> None:
        """Stack the shuffler double's deck so its first deliveries hold ``hands`` (with the
        number 2 they go to seats 1, 2, ... in turn), take a base wager and a jackpot chip on
        each of ``spots`` at each of ``seats``, START GAME, and play by the phase bar to the End
        page."""
        stacked = [card for hand in hands for card in parse_cards(hand)]
        deck = stacked + [x for x in shuffled_deck(seed, 1) if x not in stacked]
        assert self.hardware.shuffler is not None
        self.hardware.shuffler.script(deck_order=tuple(deck), random_number=2)
        base = self.ctl.rules.limit("base")
        assert base is not None
        for seat in seats:
            self.bet(seat, "Base", base.minimum // 100 * 2)
            for spot in spots:
                self.chip(seat, spot)
        self.start_game()
        self.until_hands_set()
        self.play_to_end()

    def until_hands_set(self) -> None:
        self.wait(lambda: self.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET,
                                          Phase.SETTLEMENT, Phase.END, Phase.MISDEAL),
                  "the deal")

    @property
    def hand_page(self) -> HandPage:
        page = self.window.pages[Phase.PLAYERS_SET]
        assert isinstance(page, HandPage)
        return page

    def set_own(self, seat: int, low: tuple[int, int]) -> None:
        """Touch the seat, then the two cards of its low hand, then 'Set as shown'."""
        self.seat(seat)
        for index in low:
            self.tap(self.hand_page.cards.views[index])
        self.tap(self.hand_page.own)

    def touch_foul(self, seat: int) -> None:
        """Touch the seat, then the two cards of a low hand that fouls (the first two cards
        where the deal leaves none)."""
        hand = self.ctl.state.hands[seat]
        fouls = [(i, j) for i in range(7) for j in range(i + 1, 7)
                 if self.ctl.preview_setting(seat, [hand[i], hand[j]]).foul]
        self.seat(seat)
        for index in fouls[0] if fouls else (0, 1):
            self.tap(self.hand_page.cards.views[index])

    def play_to_end(self) -> None:
        """Every remaining step by the phase bar's button: banker's hand, players' hands the
        House Way; then each seat settled by the page's seat-by-seat button, so the round
        stays on its End page (at a table without a jackpot the phase bar's one touch also
        ends the round)."""
        while self.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET):
            self.next_step()
        while self.phase is Phase.SETTLEMENT:
            self.tap(self.window.pages[Phase.SETTLEMENT].one)  # type: ignore[attr-defined]
        self.wait(lambda: self.phase is Phase.END, "the end of settlement")

    def end_game(self) -> None:
        round_id = self.ctl.state.round_id
        self.next_step()
        self.wait(lambda: self.ctl.state.round_id != round_id, "END GAME")

    # -- staff and their cards --------------------------------------------------------------

    def swipe(self, role: str) -> None:
        """A test card of ``role`` (``supervisor``, ``executive``, ``dealer``, ``technician``,
        or ``unknown``) swiped on the simulated keypad's reader, as the world window does."""
        tracks = {r: track for _id, _name, r, track in SIM_STAFF}
        keypad = self.hardware.keypad
        assert keypad is not None, "this table has no card reader"
        before = self.ctl.snapshot()
        keypad.swipe(tracks.get(role, UNKNOWN_CARD))
        self.wait(lambda: self.ctl.snapshot() is not before
                  and (self.ctl.snapshot().card_wanted != before.card_wanted
                       or self.ctl.snapshot().notice != before.notice
                       or self.ctl.snapshot().round != before.round
                       or self.ctl.snapshot().bench != before.bench),
                  f"the {role}'s card to be read")

    def open_supervisor(self, role: str = "supervisor") -> SupervisorArea:
        """The Supervisor button, then a card of ``role``: the supervisor's area shown."""
        self.tap(self.window.supervisor_button)
        self.swipe(role)
        area = self.window.supervisor
        assert area is not None, "the supervisor's screens did not open"
        return area

    def open_technician(self, role: str = "technician") -> TechnicianArea:
        """The Technician button, then a card of ``role``: test mode and its screens."""
        self.tap(self.window.technician_button)
        self.swipe(role)
        area = self.window.technician
        assert area is not None, "the technician's screens did not open"
        return area
