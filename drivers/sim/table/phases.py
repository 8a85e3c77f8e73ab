"""What the simulated dealer does in each phase of the round: one method per phase, each the
touches and device acts a dealer and the players make there (wagers, START GAME, the action
seat, the deal's faults, the settings, settlement, END GAME). Every choice is a seeded draw
keyed by the round and the purpose, so a resumed run chooses the same.

Like a dealer at the console, it mostly takes the one-touch steps the round offers ("same
wagers" for the players who bet as last round, "House Way for all" once the players who set
their own hands have, "all settled"), and in some rounds goes seat by seat, so both ways are
played (and killed and resumed by the crash tests). The one-touch steps record what the
seat-by-seat steps would, so the rounds a seed plays are the same either way."""

from __future__ import annotations

import time
from collections.abc import Callable

from dealer_console.controller import TableController
from dealer_console.devices.keypad import Button
from dealer_console.employees import registry
from dealer_console.employees.registry import Employee
from dealer_console.errors import Refusal
from dealer_console.round import commands as c
from dealer_console.round.decide_quick import repeat_seats
from dealer_console.round.jackpot_kinds import SPOT_OF_KIND
from dealer_console.round.machine import button_seat
from dealer_console.round.rotation import last_wagers
from dealer_console.round.rules import ActionSeatMethod, Banking, DealMethod
from dealer_console.round.seats import piles_in_deal_order, seven_piles
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import Phase, RoundState
from dealer_console.setting import Setting
from drivers.sim.table.choices import (
    HANDS,
    SIM_STAFF,
    _amount,
    planned_wagers,
    random_setting,
    rng_for,
)
from drivers.sim.table.fault_plan import Counters, FaultPlan
from drivers.sim.table.jackpot_player import JackpotPlayer
from drivers.sim.table.waiting import DEVICE_TIMEOUT, SimError, Waiting
from drivers.sim.table.world import World

MAX_DEALS = 5
ONE_TOUCH_RATE = 0.8
"""Chance per round and step that the dealer takes the one-touch step (0: always seat by
seat, as ``benchmarks/round_sim.py``'s seat-by-seat line plays)."""


class PhasePolicy:
    def __init__(self, controller: TableController, world: World, seed: int, plan: FaultPlan,
                 waiting: Waiting, jackpot: JackpotPlayer, counters: Counters,
                 hold_before_end: float = 0.0, one_touch_rate: float = ONE_TOUCH_RATE) -> None:
        self.ctl = controller
        self.world = world
        self.rules = controller.rules
        self.seed = seed
        self.plan = plan
        self.waiting = waiting
        self.jackpot = jackpot
        self.counters = counters
        self.hold_before_end = hold_before_end
        self.one_touch_rate = one_touch_rate

    @property
    def state(self) -> RoundState:
        return self.ctl.state

    def for_phase(self, phase: Phase) -> Callable[[], None]:
        return {
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
        }[phase]

    def _do(self, cmd: c.Command, by: Employee | None = None) -> bool:
        """The dealer's command, or a supervisor's (``by``: as from the supervisor's screens
        the simulated supervisor opened with their card)."""
        try:
            if by is None:
                self.ctl.do(cmd)
            else:
                self.ctl.supervise(cmd, by)
        except Refusal:
            self.counters.refused += 1
            return False
        self.counters.commands += 1
        self.counters.by_command[type(cmd).__name__] += 1
        return True

    def _one_touch(self, step: str) -> bool:
        """Whether the dealer takes ``step``'s one-touch command this round."""
        rng = rng_for(self.seed, self.state.round_id, f"one-touch/{step}")
        return rng.random() < self.one_touch_rate

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
        if not self._do(c.AcceptBank(st.offer_seat, wager)):
            self._do(c.DeclineBank(st.offer_seat))  # it may not bank (no wager last round)

    def _betting(self) -> None:
        planned = planned_wagers(self.rules, self.state, self.seed)
        same = self._same_wagers_seats(planned) if self._one_touch("same-wagers") else set()
        # the players who bet anew, seat by seat; "same wagers" for those who bet as last
        # round; then the house's own wager, and anything a refused touch left
        for seat, kind, cents in planned:
            if (seat not in same and seat != 0 and kind not in SPOT_OF_KIND
                    and (seat, kind) not in self.state.wagers):
                self._do(c.PlaceWager(seat, kind, cents))
        self._same_wagers(same)
        for seat, kind, cents in planned:
            if kind not in SPOT_OF_KIND and (seat, kind) not in self.state.wagers:
                self._do(c.PlaceWager(seat, kind, cents))
        self.world.script_deal(self.plan.deal_fault(0))
        round_id = self.state.round_id
        if self.world.has_keypad:
            # Chips on the jackpot sensors, START GAME on the keypad: the sensors lock and the
            # chips they hold then are the round's jackpot wagers.
            self.world.chips({(seat, SPOT_OF_KIND[kind]) for seat, kind, _cents in planned
                              if kind in SPOT_OF_KIND})
            refusals = self.waiting.refusals()
            self.world.press(Button.START_GAME)
            self.waiting.wait(lambda: self.state.phase is not Phase.BETTING
                              or self.state.round_id != round_id
                              or self.waiting.refusals() != refusals, "START GAME")
            deadline = time.monotonic() + DEVICE_TIMEOUT
            attempt = 0
            while self.state.phase is Phase.BETTING and self.waiting.link_down():
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
                raise SimError(f"round {round_id}: START GAME refused: "
                               f"{self.waiting.notice_text()}")
            return
        try:
            self.ctl.start_game()
        except Refusal as exc:
            raise SimError(f"round {round_id}: START GAME refused: {exc.why}") from None

    def _same_wagers_seats(self, planned: list[tuple[int, str, int]]) -> set[int]:
        """The seats whose planned wagers are exactly last round's and none placed yet: the
        dealer's "same wagers" places them, as the seat-by-seat touches would."""
        st = self.state
        offered = set(repeat_seats(st))
        mine: dict[int, list[tuple[int, str, int]]] = {}
        for wager in planned:
            if wager[1] not in SPOT_OF_KIND:
                mine.setdefault(wager[0], []).append(wager)
        last: dict[int, list[tuple[int, str, int]]] = {}
        for wager in last_wagers(st):
            last.setdefault(wager[0], []).append(wager)
        return {seat for seat, wagers in mine.items()
                if seat in offered and sorted(wagers) == sorted(last.get(seat, []))}

    def _same_wagers(self, seats: set[int]) -> None:
        """One touch for the table when every seat it would bet for bets the same, else one
        touch a seat (the seat-by-seat touches after it place what a refusal left)."""
        if not seats:
            return
        if seats == set(repeat_seats(self.state)) and self._do(c.RepeatWagers()):
            return
        for seat in sorted(seats):
            self._do(c.RepeatWagers(seat))

    def _press_start_game(self, round_id: int) -> None:
        """START GAME on the keypad, then wait for the round to start or a new refusal."""
        before = self.waiting.refusals()
        self.world.press(Button.START_GAME)
        self.waiting.wait(lambda: self.state.phase is not Phase.BETTING
                          or self.state.round_id != round_id
                          or self.waiting.refusals() != before, "START GAME")

    def _action(self) -> None:
        st = self.state
        method = self.rules.action_method
        rng = rng_for(self.seed, st.round_id, f"action/{st.deal_no}")
        if method is ActionSeatMethod.HIGH_CARD:
            button = button_seat(st, self.rules)
            if button is not None:
                self._do(c.SetActionSeat(button))  # the button moves on by itself
            else:
                # the button put in play: a high card on the floor's permission, their card
                seats = [s for s in self.rules.seats if s != st.banker_seat]
                self._do(c.SetActionSeat(rng.choice(seats), restart=True),
                         by=registry.find(self.ctl.table.db, SIM_STAFF[0][0]))
        elif method is ActionSeatMethod.DICE:
            self._do(c.SetActionNumber(sum(rng.randint(1, 6) for _ in range(3))))
        elif method is ActionSeatMethod.RNG:
            self._do(c.SetActionNumber(rng.randint(1, 21)))
        else:
            self.waiting.next_device_step("random number from the shuffler")

    def _dealing(self) -> None:
        st = self.state
        if self.rules.deal_method is DealMethod.HAND:
            self._hand_dealt()
            return
        first = st.deal_no == 0  # faults hit a round's first deal; a redeal goes cleanly
        if first and not st.delivered and self.plan.hit("wrong-first"):
            self.ctl.first_hand_went_to(st.order[2])
        if first and st.exposed == 0 and self.plan.hit("exposed"):
            at = rng_for(self.seed, st.round_id, "exposed-at").randint(1, HANDS - 1)
            if len(st.delivered) == at:
                count = rng_for(self.seed, st.round_id, "exposed-count").randint(1, 4)
                # past three it is a misdeal, declared on the floor's card
                by = (registry.find(self.ctl.table.db, SIM_STAFF[0][0])
                      if st.exposed + count > 3 else None)
                self._do(c.CardsExposed(count), by=by)
                return
        if len(st.delivered) == 3 and self.plan.hit("device-repeat"):
            from dealer_console.controller.controller import deal_id_for

            seen = self.world.hands.get((deal_id_for(st.round_id, st.deal_no), 3))
            if seen is not None:
                self.ctl.deliver(seen)  # the same hand again: recognised by its fact key
                self.ctl.pump(max_events=1)
                if self.state.phase is not Phase.DEALING:
                    return  # the event taken was the deal's next fact, and it ended the deal
        # the hands waiting together are taken as one run (one transaction), as the console
        # takes them, unless a fault of this deal acts between two of them (the repeat acts
        # in a redeal too); never past the deal's last hand, so the deal check is a step of
        # its own (a --hold there holds)
        between = ((first and st.exposed == 0 and self.plan.strikes("exposed"))
                   or self.plan.strikes("device-repeat"))
        self.waiting.next_device_step("hand from the shuffler",
                                      max_events=1 if between else HANDS - len(st.delivered))

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
            self.waiting.next_device_step("count of the cards left from the shuffler")

    def _misdeal(self) -> None:
        st = self.state
        if st.deal_no >= MAX_DEALS:
            raise SimError(f"round {st.round_id}: {MAX_DEALS} misdeals in a row")
        if st.deck_count_due:
            self.world.deck_complete()
            self.ctl.count_deck()
            self.waiting.wait(lambda: not self.state.deck_count_due
                              or self.ctl.waiting_for is None, "deck count from the shuffler")
            return
        self.world.script_deal(self.plan.deal_fault(st.deal_no + 1))
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
        if not st.settings and st.banker_kind == "player" and self.rules.face_up:
            self._reconstruct()  # only until the first player sets against the banker's hand
        st = self.state
        # the round says whose hand is set now (Catfish Bend: the house's after a player
        # banker's, so not in this step)
        todo = RoundSnapshot.of(st, self.rules).players_to_set()
        left = [s for s in todo if s not in st.settings]
        # Catfish Bend's second chance: a hand reset after a first foul is set again (the
        # fault plan's pick, which may foul again), or else kept the House Way
        waiting = [s for s in todo if s in st.settings]
        again = [s for s in waiting if self.plan.hit("foul", f"foul/{s}/1")]
        if not again and self._one_touch("set"):
            # the players who set their own hands first, then one touch for the rest
            own = [s for s in left if self._own_setting(s, count=False) is not None]
            if not own:
                draws = [f"foul/{s}/{st.fouls.get(s, 0)}" for s in left if s != 0]
                if self._do(c.SetHandsHouseWay()):
                    for purpose in draws:  # the fault plan's draws, counted as seat by seat
                        self.plan.hit("foul", purpose)
                    return
            left = own or left
        seat = again[0] if again else (left[0] if left else waiting[0])
        setting = self._own_setting(seat) if seat in again + left else None
        self._do(c.SetPlayerHand(seat, setting))

    def _own_setting(self, seat: int, count: bool = True) -> Setting | None:
        """The setting the player at ``seat`` makes of its hand (None: it asks for the House
        Way): drawn for the seat and its try, so the same whatever order hands are set in."""
        if seat == 0:
            return None
        st = self.state
        attempt = st.fouls.get(seat, 0)
        rng = rng_for(self.seed, st.round_id, f"set/{seat}/{attempt}")
        purpose = f"foul/{seat}/{attempt}"
        foul = self.plan.hit("foul", purpose) if count else self.plan.strikes("foul", purpose)
        return random_setting(st.hands[seat], rng, allow_foul=foul)

    def _reconstruct(self) -> None:
        """The ``reconstruct`` fault: a supervisor's card sets the banker's hand otherwise,
        where and when the round allows it (at a Face Up table a player banker's hand only
        before any player has set against it; elsewhere until a seat is settled), once."""
        st = self.state
        if st.reconstructed or RoundSnapshot.of(st, self.rules).reconstruct_problem:
            return
        if not self.plan.hit("reconstruct"):
            return
        cards = st.hands[st.banker_seat]
        rng = rng_for(self.seed, st.round_id, "reconstruct")
        for _try in range(21):  # a setting the round takes (never the one it has, nor foul)
            setting = random_setting(cards, rng, allow_foul=False)
            cmd = c.ReconstructBankerHand(setting, "", "Dealer's error") if setting else None
            if cmd is not None and self.ctl.check_on_card(cmd) is None:
                supervisor = registry.find(self.ctl.table.db, SIM_STAFF[0][0])
                self._do(cmd, by=supervisor)
                return

    def _settlement(self) -> None:
        self._reconstruct()
        # a table without a jackpot ends the game in the same touch, as the dealer's screen
        # does; at a jackpot table END GAME follows on its own, after any hit is marked
        if not (self._one_touch("settle")
                and self._do(c.SettleAll(end_game=self.rules.profile.jackpot is None))):
            self._do(c.SettleNext())

    def _end(self) -> None:
        if self.ctl.opened.jackpot is not None and self.jackpot.play_hits():
            time.sleep(self.hold_before_end)
        round_id = self.state.round_id
        if self.world.has_keypad:
            self.world.press(Button.END_GAME)
            self.waiting.wait(lambda: self.state.round_id != round_id,
                              "END GAME from the keypad")
        else:
            self.ctl.end_game()
