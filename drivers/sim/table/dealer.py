"""A random dealer and players acting through the table controller, the way the console's
screens and a real table's devices do: wagers and settings as a dealer's touches, START GAME,
END GAME, the jackpot's seat and hand buttons and the card swipes on the simulated keypad, the
deal from the shuffler double behind its real driver.

The dealer only decides what to do next from the round's phase, so it picks up a round in any
phase after a crash. It takes device events one at a time (:meth:`TableController.pump` with
``max_events=1``) so that its own actions fall between the same events in every run: a seeded
run is the same run every time, whatever the machine's speed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from sqlite_utils import Database

from dealer_console.controller import TableController
from dealer_console.controller.link_device import LINK_DEVICE
from dealer_console.controller.view import Level
from dealer_console.devices.keypad import Button
from dealer_console.employees.cardhash import KdfParams
from dealer_console.employees.simulated import install_simulated_staff
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.round import commands as c
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS, SPOT_OF_KIND
from dealer_console.round.machine import button_seat
from dealer_console.round.rules import ActionSeatMethod, Banking, DealMethod
from dealer_console.round.seats import piles_in_deal_order, seven_piles
from dealer_console.round.state import Phase, RoundState
from dealer_link.asker import ASK_TIMEOUT_S
from drivers.sim.table.choices import (
    HANDS,
    SIM_PINS,
    SIM_STAFF,
    _amount,
    planned_wagers,
    random_setting,
    rng_for,
    stacked_deck,
)
from drivers.sim.table.world import DealFault, World, shuffled_deck

FAULTS = ("misdeal", "exposed", "wrong-first", "reconstruct", "foul", "device-repeat", "wire",
          "jackpot-hands")
FAULT_RATE = 0.15
"""Chance per round of each enabled fault."""
JACKPOT_HANDS_RATE = 0.3
"""Chance per round that ``jackpot-hands`` stacks the deck: real hit rates are far too small
for a short run to see a jackpot (a seven-card straight flush is 32 hands in 154 million)."""
DEVICE_TIMEOUT = 20.0
LINK_PATIENCE_S = 120.0
"""How long the dealer keeps swiping again for a linked hit the link cannot pay yet (a server
restarting, a table's connection cut): the screen says to swipe again once it is back."""
MAX_DEALS = 5


class SimError(RuntimeError):
    """The simulated table could not go on (a device stopped answering)."""


@dataclass
class Counters:
    commands: int = 0
    refused: int = 0
    faults: Counter[str] = field(default_factory=Counter)


def install_sim_staff(db: Database) -> None:
    """The simulated table's staff and their public test cards, put on file through the
    ordinary set-up and an executive's swipe (a cheaper key derivation than a real table's:
    these cards are test data), each with a test PIN for a profile with ``pin_required``."""
    install_simulated_staff(db, SIM_STAFF, actor="simulate", kdf=KdfParams(n=2**10),
                            test_pins=SIM_PINS)


class RandomDealer:
    def __init__(self, controller: TableController, world: World, seed: int,
                 faults: frozenset[str], hold_before_end: float = 0.0,
                 holds: Mapping[Phase, float] | None = None) -> None:
        self.ctl = controller
        self.world = world
        self.rules = controller.rules
        self.seed = seed
        self.faults = faults
        self.hold_before_end = hold_before_end
        self.holds = dict(holds or {})
        self.counters = Counters()
        self.cards = {role: track for _id, _name, role, track in SIM_STAFF}
        self.pins = {track: SIM_PINS[emp_id] for emp_id, _name, _role, track in SIM_STAFF}
        self._last_refusal = 0

    @property
    def state(self) -> RoundState:
        return self.ctl.state

    # -- driving the table ---------------------------------------------------------------------

    def resume(self) -> None:
        """After opening (or reopening after a crash): the shuffler scripted for the deal in
        play, then the controller brings the devices in line with the round."""
        st = self.state
        if st.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK):
            self.world.script_deal(self._deal_fault(st.deal_no))
        self.ctl.start()
        # every device answering (and every sensor node) before the first step, as a dealer
        # waits for the table to come up; not the jackpot link: the base game goes on without
        # it (START GAME refuses the jackpot wagers while it is down)
        self._wait(lambda: all(d.connected and d.fault is None
                               for d in self.ctl.snapshot().devices
                               if d.name != LINK_DEVICE), "device connection")

    def finished_rounds(self) -> int:
        row = self.ctl.table.db.execute(
            "SELECT COUNT(*) FROM rounds WHERE status IN ('complete', 'voided')").fetchone()
        return int(row[0])

    def run(self, rounds: int) -> None:
        while self.finished_rounds() < rounds:
            self.step()

    def step(self) -> None:
        """Do the next thing the current phase needs."""
        if self.state.phase in self.holds:
            time.sleep(self.holds[self.state.phase])
        {
            Phase.BANKER: self._banker,
            Phase.BETTING: self._betting,
            Phase.ACTION: self._action,
            Phase.DEALING: self._dealing,
            Phase.DEAL_CHECK: self._deal_check,
            Phase.MISDEAL: self._misdeal,
            Phase.BANKER_SET: self._banker_set,
            Phase.PLAYERS_SET: self._players_set,
            Phase.SETTLEMENT: self._settlement,
            Phase.END: self._end,
        }[self.state.phase]()

    def _do(self, cmd: c.Command) -> bool:
        try:
            self.ctl.do(cmd)
        except Refusal:
            self.counters.refused += 1
            return False
        self.counters.commands += 1
        return True

    def _wait(self, done: Callable[[], bool], what: str,
              timeout: float = DEVICE_TIMEOUT) -> None:
        """Take device events one at a time until ``done``."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise SimError(f"round {self.state.round_id}: no {what} within "
                               f"{timeout:.0f} s")
            self.ctl.pump(timeout=0.05, max_events=1)

    def _next_device_step(self, what: str) -> None:
        """Wait for the device's next event that changes the round."""
        seq = self.state.last_seq
        self._wait(lambda: self.state.last_seq != seq, what)

    def _fault(self, name: str, purpose: str | None = None) -> bool:
        if name not in self.faults:
            return False
        hit = rng_for(self.seed, self.state.round_id, f"fault/{purpose or name}").random()
        if hit < (JACKPOT_HANDS_RATE if name == "jackpot-hands" else FAULT_RATE):
            self.counters.faults[name] += 1
            return True
        return False

    def _deal_fault(self, deal_no: int) -> DealFault:
        """What the shuffler does on this round's deal ``deal_no`` (the same after a restart)."""
        st = self.state
        fault = DealFault()
        if deal_no == 0 and self._fault("misdeal"):
            rng = rng_for(self.seed, st.round_id, "misdeal-kind")
            kind = rng.choice(("short", "missing", "count"))
            index = rng.randint(2, HANDS)
            fault = DealFault(short_hand=index if kind == "short" else None,
                              missing_hand=index if kind == "missing" else None,
                              count_error=kind == "count")
        if self.ctl.opened.jackpot is not None and self._fault("jackpot-hands",
                                                               f"stack/{deal_no}"):
            from dealer_console.controller.controller import deal_id_for

            shuffled = shuffled_deck(self.seed, deal_id_for(st.round_id, deal_no))
            stack_rng = rng_for(self.seed, st.round_id, f"jackpot-hands/{deal_no}")
            fault = replace(fault, deck=stacked_deck(stack_rng, shuffled))
        return fault

    # -- the phases ------------------------------------------------------------------------------

    def _banker(self) -> None:
        st = self.state
        rng = rng_for(self.seed, st.round_id, f"bank/{st.offer_seat}")
        catfish = self.rules.banking is Banking.HOUSE_OR_PLAYER_BANKER
        accept = rng.random() < (0.3 if catfish else 0.9)
        limit = self.rules.banker_limit
        wager = (_amount(rng, limit.minimum, limit.maximum, limit.increment, 200_000)
                 if limit is not None else 2_000_000)
        if not accept and self._do(c.DeclineBank(st.offer_seat)):
            return
        self._do(c.AcceptBank(st.offer_seat, wager))

    def _betting(self) -> None:
        planned = planned_wagers(self.rules, self.state, self.seed)
        for seat, kind, cents in planned:
            if kind not in SPOT_OF_KIND and (seat, kind) not in self.state.wagers:
                self._do(c.PlaceWager(seat, kind, cents))
        self.world.script_deal(self._deal_fault(0))
        round_id = self.state.round_id
        if self.world.has_keypad:
            # Chips on the jackpot sensors, START GAME on the keypad: the sensors lock and the
            # chips they hold then are the round's jackpot wagers.
            self.world.chips({(seat, SPOT_OF_KIND[kind]) for seat, kind, _cents in planned
                              if kind in SPOT_OF_KIND})
            refusals = self._refusals()
            self.world.press(Button.START_GAME)
            self._wait(lambda: self.state.phase is not Phase.BETTING
                       or self.state.round_id != round_id
                       or self._refusals() != refusals, "START GAME")
            deadline = time.monotonic() + DEVICE_TIMEOUT
            attempt = 0
            while self.state.phase is Phase.BETTING and self._link_down():
                # a linked jackpot's link is down: the dealer returns the jackpot chips and
                # plays the base game (docs/link.md); on a loaded machine the sensors' next
                # poll may be late to see them gone, so START GAME is pressed again
                if time.monotonic() > deadline:
                    break
                attempt += 1
                self.world.chips(set())
                time.sleep(min(0.05 * attempt, 0.5))
                self._press_start_game(round_id)
            if self.state.phase is Phase.BETTING:
                raise SimError(f"round {round_id}: START GAME refused: {self._notice_text()}")
            return
        try:
            self.ctl.start_game()
        except Refusal as exc:
            raise SimError(f"round {round_id}: START GAME refused: {exc.why}") from None

    def _press_start_game(self, round_id: int) -> None:
        """START GAME on the keypad, then wait for the round to start or a new refusal."""
        before = self._refusals()
        self.world.press(Button.START_GAME)
        self._wait(lambda: self.state.phase is not Phase.BETTING
                   or self.state.round_id != round_id
                   or self._refusals() != before, "START GAME")

    def _link_down(self) -> bool:
        """True when the last refusal was the table's jackpot link being down (the link may
        already be back: the refusal is what the dealer read), by its code, not its words."""
        notice = self.ctl.snapshot().notice
        return notice is not None and notice.code is RefusalCode.LINK_DOWN

    def _notice_number(self) -> int:
        notice = self.ctl.snapshot().notice
        return notice.number if notice else 0

    def _refusals(self) -> int:
        """The number of the latest refusal notice (other notices do not count)."""
        notice = self.ctl.snapshot().notice
        if notice is not None and notice.level is Level.REFUSED:
            self._last_refusal = notice.number
        return self._last_refusal

    def _notice_text(self) -> str:
        notice = self.ctl.snapshot().notice
        return notice.what if notice else ""

    def _action(self) -> None:
        st = self.state
        method = self.rules.action_method
        rng = rng_for(self.seed, st.round_id, f"action/{st.deal_no}")
        if method is ActionSeatMethod.HIGH_CARD:
            button = button_seat(st, self.rules)
            if button is not None:
                self._do(c.SetActionSeat(button))  # the button moves on by itself
            else:
                seats = [s for s in self.rules.seats if s != st.banker_seat]
                self._do(c.SetActionSeat(rng.choice(seats), restart=True))
        elif method is ActionSeatMethod.DICE:
            self._do(c.SetActionNumber(sum(rng.randint(1, 6) for _ in range(3))))
        elif method is ActionSeatMethod.RNG:
            self._do(c.SetActionNumber(rng.randint(1, 21)))
        else:
            self._next_device_step("random number from the shuffler")

    def _dealing(self) -> None:
        st = self.state
        if self.rules.deal_method is DealMethod.HAND:
            self._hand_dealt()
            return
        first = st.deal_no == 0  # faults hit a round's first deal; a redeal goes cleanly
        if first and not st.delivered and self._fault("wrong-first"):
            self.ctl.first_hand_went_to(st.order[2])
        if first and st.exposed == 0 and self._fault("exposed"):
            at = rng_for(self.seed, st.round_id, "exposed-at").randint(1, HANDS - 1)
            if len(st.delivered) == at:
                count = rng_for(self.seed, st.round_id, "exposed-count").randint(1, 4)
                self._do(c.CardsExposed(count))
                return
        if len(st.delivered) == 3 and self._fault("device-repeat"):
            from dealer_console.controller.controller import deal_id_for

            seen = self.world.hands.get((deal_id_for(st.round_id, st.deal_no), 3))
            if seen is not None:
                self.ctl.deliver(seen)  # the same hand again: recognised by its fact key
                self.ctl.pump(max_events=1)
        self._next_device_step("hand from the shuffler")

    def _hand_dealt(self) -> None:
        """Seven piles dealt by hand (California): the player-dealer picks the first pile."""
        from dealer_console.cards import DECK

        st = self.state
        rng = rng_for(self.seed, st.round_id, f"hand-deal/{st.deal_no}")
        deck = list(DECK)
        rng.shuffle(deck)
        piles = piles_in_deal_order(seven_piles(deck[:49]), rng.randrange(HANDS))
        for pile in piles[len(st.delivered):]:
            self._do(c.DealHand(tuple(pile)))

    def _deal_check(self) -> None:
        st = self.state
        if st.wrong_start is not None:
            self._do(c.CorrectFirstHand())
        elif self.rules.deal_method is DealMethod.HAND:
            self._do(c.RemainingCards(53 - 49))
        else:
            self._next_device_step("count of the cards left from the shuffler")

    def _misdeal(self) -> None:
        st = self.state
        if st.deal_no >= MAX_DEALS:
            raise SimError(f"round {st.round_id}: {MAX_DEALS} misdeals in a row")
        if st.deck_count_due:
            self.world.deck_complete()
            self.ctl.count_deck()
            self._wait(lambda: not self.state.deck_count_due
                       or self.ctl.waiting_for is None, "deck count from the shuffler")
            return
        self.world.script_deal(self._deal_fault(st.deal_no + 1))
        self._do(c.Redeal())

    def _banker_set(self) -> None:
        st = self.state
        rng = rng_for(self.seed, st.round_id, "banker-set")
        setting = None
        if st.banker_kind == "player":
            setting = random_setting(st.hands[st.banker_seat], rng, allow_foul=False)
        self._do(c.SetBankerHand(setting))

    def _players_set(self) -> None:
        st = self.state
        left = [s for s in st.seats_with_base() if s != st.banker_seat and s not in st.settings]
        again = []
        if self.rules.foul.value == "reset_once_then_dead":
            # Catfish Bend's second chance: a hand reset after a first foul may be set again.
            again = [s for s in sorted(st.settings) if st.set_how.get(s) == "foul_reset_house_way"
                     and st.fouls.get(s) == 1 and self._fault("foul", f"foul/{s}/1")]
        seat = again[0] if again else left[0]
        attempt = st.fouls.get(seat, 0)
        rng = rng_for(self.seed, st.round_id, f"set/{seat}/{attempt}")
        foul = seat != 0 and self._fault("foul", f"foul/{seat}/{attempt}")
        setting = None if seat == 0 else random_setting(st.hands[seat], rng, allow_foul=foul)
        self._do(c.SetPlayerHand(seat, setting))

    def _settlement(self) -> None:
        st = self.state
        if not st.settled_seats and self._fault("reconstruct"):
            cards = st.hands[st.banker_seat]
            rng = rng_for(self.seed, st.round_id, "reconstruct")
            setting = random_setting(cards, rng, allow_foul=False)
            if setting is not None and setting != st.banker_setting:
                self._do(c.ReconstructBankerHand(setting, "supervisor SIM-1"))
        self._do(c.SettleNext())

    def _end(self) -> None:
        if self.ctl.opened.jackpot is not None and self._jackpot_hits():
            time.sleep(self.hold_before_end)
        round_id = self.state.round_id
        if self.world.has_keypad:
            self.world.press(Button.END_GAME)
            self._wait(lambda: self.state.round_id != round_id, "END GAME from the keypad")
        else:
            self.ctl.end_game()

    def _press(self, button: Button) -> None:
        """A keypad button, waited for until the controller has acted on it."""
        seen = self._pressed
        self.world.press(button)
        self._wait(lambda: self._pressed != seen, f"{button.name} from the keypad")

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
        text = self._notice_text()
        return "jackpot link" in text and "card is needed" not in text

    def _swipe_once(self, track: str) -> bool:
        notice = self._notice_number()
        waiting = len(self.ctl.snapshot().jackpot_pending)
        self.world.swipe(track)
        # a linked hit's card is accepted first (a notice), then the link's server pays it
        self._wait(lambda: (self._notice_number() != notice
                            and self.ctl.snapshot().jackpot_asking is None)
                   or len(self.ctl.snapshot().jackpot_pending) < waiting, "answer to a swipe",
                   DEVICE_TIMEOUT + ASK_TIMEOUT_S)
        if self.ctl.snapshot().jackpot_pin_for is not None:  # the profile's pin_required
            try:
                self.ctl.enter_pin(self.pins[track])
            except Refusal:
                return False
        return len(self.ctl.snapshot().jackpot_pending) < waiting

    @property
    def _pressed(self) -> int:
        return self.ctl.buttons_pressed

    def _jackpot_hits(self) -> int:
        """The dealer's keypad and the supervisor's swipes for every marked hit: the seat
        button, sometimes a wrong hand button (refused: the cards do not win it, and the mark
        stays where they do); CONFIRM and a card (sometimes first a dealer's card, which may
        not confirm it and is refused and logged). Returns how many hits were confirmed."""
        confirmed = 0
        while True:
            pending = self.ctl.snapshot().jackpot_pending
            if not pending:
                return confirmed
            first = pending[0]
            rng = rng_for(self.seed, self.state.round_id, f"jackpot/{first.spot}/{first.seat}")
            self.ctl.select_jackpot_game(first.spot)
            self._press(Button.for_seat(first.seat))
            system = self.ctl.opened.jackpot
            assert system is not None
            game = system.current(self.state)
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
                    raise SimError(f"the second of two cards was refused: {self._notice_text()}")
            elif not self._swipe(self.cards[first.needs]):
                if "card is needed" in self._notice_text():  # the shared meter moved past
                    continue  # the executive's threshold: the hit is quoted again
                raise SimError(f"a {first.needs}'s card was refused: {self._notice_text()}")
            confirmed += 1


__all__ = ["FAULTS", "JACKPOT_KINDS", "RandomDealer", "SimError", "install_sim_staff"]
