"""The simulated jackpot player: the dealer's keypad buttons and the supervisor's and
executive's swipes for every hit the table marked, with the mistakes real people make (a
wrong hand button, a dealer's card), a linked hit swiped again while its link is down."""

from __future__ import annotations

import time

from dealer_console.controller import TableController
from dealer_console.devices.keypad import Button
from dealer_console.errors import Refusal, RefusalCode
from dealer_link.settings import ASK_TIMEOUT_S
from drivers.sim.table.choices import rng_for
from drivers.sim.table.fault_plan import Counters
from drivers.sim.table.staff import StaffCards
from drivers.sim.table.waiting import DEVICE_TIMEOUT, SimError, Waiting
from drivers.sim.table.world import World

LINK_PATIENCE_S = 120.0
"""How long the dealer keeps swiping again for a linked hit the link cannot pay yet (a server
restarting, a table's connection cut): the screen says to swipe again once it is back."""


class JackpotPlayer:
    def __init__(self, controller: TableController, world: World, seed: int,
                 waiting: Waiting, staff: StaffCards, counters: Counters) -> None:
        self.ctl = controller
        self.world = world
        self.seed = seed
        self.waiting = waiting
        self.cards = staff.cards
        self.pins = staff.pins
        self.counters = counters

    def _press(self, button: Button) -> None:
        """A keypad button, waited for until the controller has acted on it."""
        seen = self.ctl.buttons_pressed
        self.world.press(button)
        self.waiting.wait(lambda: self.ctl.buttons_pressed != seen,
                          f"{button.name} from the keypad")

    def _swipe(self, track: str) -> bool:
        """A card through the keypad's reader: True when it confirmed a hit, False when it
        was refused (the refusal is the controller's latest notice). A linked hit refused
        because the link is down is swiped again once it is back, as the screen says."""
        deadline = time.monotonic() + LINK_PATIENCE_S
        while True:
            if self._swipe_once(track):
                return True
            if not self._link_trouble() or time.monotonic() > deadline:
                return False
            time.sleep(0.2)  # the link's sender reconnects on its own

    def _link_trouble(self) -> bool:
        """True when the last swipe's hit could not be paid through the jackpot link for now
        (down, no answer, or the link has not yet received the seat's wager): the screen
        says to swipe again. Not when the shared meter now needs another person's card."""
        notice = self.ctl.snapshot().notice
        if notice is not None and notice.code in (RefusalCode.LINK_DOWN,
                                                  RefusalCode.LINK_UNANSWERED):
            return True
        # the link server's own refusals and the meters not yet told have no code of their
        # own yet (jackpot/round_hook.py): read as the dealer reads them
        text = self.waiting.notice_text()
        return "jackpot link" in text and "card is needed" not in text

    def _swipe_once(self, track: str) -> bool:
        notice = self.waiting.notice_number()
        waiting = len(self.ctl.snapshot().jackpot_pending)
        self.world.swipe(track)
        # a linked hit's card is accepted first (a notice), then the link's server pays it
        self.waiting.wait(lambda: (self.waiting.notice_number() != notice
                                   and self.ctl.snapshot().jackpot_asking is None)
                          or len(self.ctl.snapshot().jackpot_pending) < waiting,
                          "answer to a swipe", DEVICE_TIMEOUT + ASK_TIMEOUT_S)
        if self.ctl.snapshot().jackpot_pin_for is not None:  # the profile's pin_required
            try:
                self.ctl.enter_pin(self.pins[track])
            except Refusal:
                return False
        return len(self.ctl.snapshot().jackpot_pending) < waiting

    def play_hits(self) -> int:
        """The dealer's keypad and the supervisor's swipes for every marked hit: the seat
        button, sometimes a wrong hand button (refused: the cards do not win it, and the mark
        stays where they do); CONFIRM and a card (sometimes first a dealer's card, which may
        not confirm it and is refused and logged). Returns how many hits were confirmed."""
        confirmed = 0
        while True:
            system = self.ctl.opened.jackpot
            if system is None or not system.marks(self.ctl.state):
                return confirmed  # asked without building a whole view at every round's end
            pending = self.ctl.snapshot().jackpot_pending
            if not pending:
                return confirmed
            first = pending[0]
            rng = rng_for(self.seed, self.ctl.state.round_id,
                          f"jackpot/{first.spot}/{first.seat}")
            self.ctl.select_jackpot_game(first.spot)
            self._press(Button.for_seat(first.seat))
            game = system.current(self.ctl.state)
            assert game is not None
            lines = len(game.game(first.spot).paytable.lines)
            if rng.random() < 0.3 and lines > 1:  # a wrong hand button: refused, the mark kept
                wrong = rng.choice([n for n in range(1, lines + 1) if n != first.line_no])
                self._press(Button.for_hand_line(wrong))
                now = self.ctl.snapshot().jackpot_pending
                if not now or (now[0].seat, now[0].line_no) != (first.seat, first.line_no):
                    raise SimError(f"hand button {wrong} moved seat {first.seat}'s mark off "
                                   "the line its cards win")
            self._press(Button.CONFIRM)
            if rng.random() < 0.2:
                if self._swipe(self.cards["dealer"]):
                    raise SimError("a dealer's card confirmed a jackpot hit")
                self.counters.refused += 1
            if first.needs == "two people":  # a supervisor's swipe held, then an executive's
                if self._swipe(self.cards["supervisor"]):
                    raise SimError("one card paid an award that needs two people")
                if not self._swipe(self.cards["executive"]):
                    raise SimError("the second of two cards was refused: "
                                   f"{self.waiting.notice_text()}")
            elif not self._swipe(self.cards[first.needs]):
                if "card is needed" in self.waiting.notice_text():  # the shared meter moved
                    continue  # past the executive's threshold: the hit is quoted again
                raise SimError(f"a {first.needs}'s card was refused: "
                               f"{self.waiting.notice_text()}")
            confirmed += 1
