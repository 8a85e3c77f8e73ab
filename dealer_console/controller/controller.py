"""The table controller (see the package doc): device events and dealer commands in, the round's
transitions and each phase's device actions out, a frozen view for the screens.

Threads: a driver's I/O thread only calls :meth:`TableController.deliver`, which queues the
event and calls ``wake`` (the console's Qt bridge emits a queued signal there; a headless owner
just calls :meth:`pump`). Everything else runs on the thread that owns the database.
"""

from __future__ import annotations

import queue
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_console.cards import Card
from dealer_console.controller.cards import CardCapture, CardRequest
from dealer_console.controller.health import TITLES, DeviceHealth
from dealer_console.controller.link_device import (
    LINK_DEVICE,
    LinkAnswered,
    LinkHealthChanged,
    link_device,
)
from dealer_console.controller.questions import (
    SettingPreview,
    banker_pai_gow,
    hidden_seats,
    preview,
    sets_own_hand,
    wager_hint,
)
from dealer_console.controller.staff import StaffDesk
from dealer_console.controller.table_root import OpenTable
from dealer_console.controller.test_mode import (
    IN_TEST_MODE,
    TEST_DEAL_HANDS,
    Bench,
    between_rounds_problem,
    log_entered,
    log_left,
    test_deal_id,
)
from dealer_console.controller.view import (
    ConfirmedHit,
    Level,
    Notice,
    PendingHit,
    TableSnapshot,
    WinPageRequest,
)
from dealer_console.devices.bet_sensors import (
    SEATS,
    BetRemoved,
    BetSensorControl,
    BetsLocked,
    LateBet,
)
from dealer_console.devices.diagnostics import DeviceDriver, DiagnosticsSnapshot, RawFrame
from dealer_console.devices.events import DeviceEvent
from dealer_console.devices.keypad import (
    BadRead,
    Button,
    ButtonPressed,
    CardSwiped,
    KeypadControl,
)
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    DeckChecked,
    FirstPositionDrawn,
    HandDelivered,
    ShufflerControl,
)
from dealer_console.employees.authorize import authorise, log_accepted
from dealer_console.employees.registry import Employee, Role, find_by_card
from dealer_console.errors import ConsoleError, Refusal
from dealer_console.jackpot import history, store
from dealer_console.jackpot.meters import MICRO
from dealer_console.jackpot.projection import project
from dealer_console.jackpot.round_hook import JackpotSystem, LinkUnanswered
from dealer_console.round import commands as c
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.machine import Refused, decide
from dealer_console.round.phases import ACCEPTS, not_accepted
from dealer_console.round.rules import ActionSeatMethod, DealMethod
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import Phase, RoundState
from dealer_console.setting import Setting
from dealer_console.storage.eventlog import Event

HANDS = 7
"""Hands a Pai Gow deal delivers: seven, whatever the number of players."""

Listener = Callable[[TableSnapshot], None]


def deal_id_for(round_id: int, deal_no: int) -> int:
    """The shuffler's deal id (1-65535) for a round's deal: the same after a restart, so a deal
    asked for again reports the same facts and the round applies each once."""
    return ((round_id - 1) * 8 + deal_no) % 0xFFFF + 1


def lock_id_for(round_id: int) -> int:
    """The bet sensors' lock id (1-65535) for a round, for the same reason."""
    return (round_id - 1) % 0xFFFF + 1


@dataclass
class TableDevices:
    """The table's devices, through the control interfaces the drivers fulfil; any may be
    absent (a table without a jackpot has no sensors or keypad)."""

    shuffler: ShufflerControl | None = None
    sensors: BetSensorControl | None = None
    keypad: KeypadControl | None = None

    def all(self) -> list[DeviceDriver]:
        return [d for d in (self.shuffler, self.sensors, self.keypad) if d is not None]

    def named(self, name: str) -> DeviceDriver | None:
        return next((d for d in self.all() if d.name == name), None)

    def put(self, driver: DeviceDriver) -> None:
        """Make ``driver`` the table's device of its name (``shuffler``, ``bet-sensors``,
        ``keypad``)."""
        slot = {"shuffler": "shuffler", "bet-sensors": "sensors", "keypad": "keypad"}.get(
            driver.name)
        if slot is None:
            raise ValueError(f"no device slot for a driver named {driver.name!r}")
        setattr(self, slot, driver)


class _Hold(Exception):
    """A device fact that arrived before its phase: kept and tried again after the next
    transition (hands delivered while the dealer still enters the dice)."""


class TableController:
    def __init__(self, opened: OpenTable, devices: TableDevices | None = None,
                 wake: Callable[[], None] | None = None) -> None:
        self.opened = opened
        self.table = opened.table
        self.rules = opened.rules
        self.devices = devices or TableDevices()
        self.wake = wake
        self._inbox: queue.SimpleQueue[DeviceEvent] = queue.SimpleQueue()
        self._ready: deque[DeviceEvent] = deque()
        self._held: list[DeviceEvent] = []
        self._listeners: list[Listener] = []
        self._subscribed: set[int] = set()
        for driver in self.devices.all():
            self._subscribe(driver)  # before reading the state: no change is missed
        self._health = {d.name: DeviceHealth(d.name, d.state) for d in self.devices.all()}
        self._link = opened.jackpot.link if opened.jackpot is not None else None
        if self._link is not None:  # the link's health redraws the device area when it turns
            self._link.health.watch(
                lambda: self.deliver(LinkHealthChanged(device=LINK_DEVICE, seq=0)))
            self._link.answers_to(  # a linked hit's award, from the asker's thread
                lambda answer: self.deliver(LinkAnswered(device=LINK_DEVICE, seq=0,
                                                         answer=answer)))
        self._deal_id: int | None = None
        self._deal_open = False  # the shuffler is still delivering deal _deal_id
        self._deal_wanted = False  # a new deal waits for the shuffler to finish the last
        self.buttons_pressed = 0
        """Keypad buttons acted on since the controller started (for observers and tests)."""
        self._lock_id: int | None = None
        self._counting = False
        self._first_seat: int | None = None
        self._armed = False
        self._card: CardRequest | CardCapture | None = None
        self._win_page: WinPageRequest | None = None
        self._last_hit: ConfirmedHit | None = None
        self._lines: dict[int, tuple[str, ...]] | None = None
        spots = sorted(s for s, k in JACKPOT_KINDS.items() if k in self.rules.wager_kinds)
        self._game = spots[0] if spots else 1
        self._notice: Notice | None = None
        self._notices = 0
        self._view: TableSnapshot | None = None
        self.staff = StaffDesk(self.table.db, self._changed)
        """The staff list, changed for an executive authorised by :meth:`want_card`."""
        self._bench: Bench | None = None
        self._tried: dict[str, DeviceDriver] = {}
        """The device a technician's candidate replaced, until it is kept or put back."""

    # -- what screens read ------------------------------------------------------------------

    @property
    def state(self) -> RoundState:
        """The round as it stands (the table's own object: screens use :meth:`snapshot`)."""
        return self.table.state

    def snapshot(self) -> TableSnapshot:
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def add_listener(self, listener: Listener) -> None:
        """``listener`` is called on the owner thread with the new view after every change."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    @property
    def listeners(self) -> tuple[Listener, ...]:
        return tuple(self._listeners)

    def accepts(self, kind: type[c.Command]) -> bool:
        return kind in ACCEPTS[self.state.phase]

    def check(self, cmd: c.Command) -> str | None:
        """Why the round would refuse ``cmd`` now, or None: the machine is asked and nothing
        changes (python-chess's ``is_legal``), so a screen enables what the rules allow."""
        if self._bench is not None:
            return IN_TEST_MODE
        problem = not_accepted(self.state.phase, type(cmd))
        if problem:
            return problem
        try:
            decide(self.state, self.rules, cmd, self.table.services)
        except Refused as exc:
            return exc.why
        return None

    def house_way(self, seat: int) -> Setting:
        """The House Way of ``seat``'s hand (its ``rule`` names the chart line that set it)."""
        hand = self.state.hands.get(seat)
        if hand is None:
            raise Refused(f"seat {seat} has no hand")
        return self.table.services.house_way(hand)

    def preview_setting(self, seat: int, low: Sequence[Card]) -> SettingPreview:
        """What setting ``low`` as seat ``seat``'s two-card hand would be: foul or not, and
        what the profile does with a foul."""
        hand = self.state.hands.get(seat)
        if hand is None:
            raise Refused(f"seat {seat} has no hand")
        if len(low) != 2 or any(card not in hand for card in low) or low[0] == low[1]:
            raise Refused("choose two different cards of the hand for the low hand")
        return preview(self.rules, hand, low)

    def wager_hint(self, kind: str) -> str:
        return wager_hint(self.rules, kind)

    def sets_own_hand(self, seat: int) -> bool:
        return sets_own_hand(self.state, seat)

    @property
    def waiting_for(self) -> str | None:
        """The device step the table waits on, or None."""
        st = self.state
        if self._lock_id is not None:
            return "the bet sensors to lock the wagers"
        if self._counting:
            return "the shuffler to count the deck"
        if self._deal_wanted:
            return "the shuffler to finish its last deal"
        if self.opened.jackpot is not None and self.opened.jackpot.asking() is not None:
            return "the jackpot link to pay the hit"
        dealing = st.phase is Phase.DEALING or (
            st.phase is Phase.ACTION and self.rules.action_method is ActionSeatMethod.SHUFFLER
        ) or (st.phase is Phase.DEAL_CHECK and st.wrong_start is None)
        if dealing and self._shuffler_deals() and self._deal_id is not None:
            return "the shuffler's hands"
        return None

    # -- device events (any thread in, owner thread applies) ---------------------------------

    def deliver(self, event: DeviceEvent) -> None:
        """A driver's event, from its I/O thread (or a test standing in for one): queued for
        the owner thread; never touches the database here."""
        self._inbox.put(event)
        if self.wake is not None:
            self.wake()

    def pump(self, timeout: float = 0.0, max_events: int | None = None) -> int:
        """Apply queued device events on the owner thread; wait up to ``timeout`` for the
        first. Returns how many were applied."""
        done = 0
        while max_events is None or done < max_events:
            event = self._next_event(timeout if done == 0 else 0.0)
            if event is None:
                break
            self._apply(event)
            done += 1
        return done

    def _next_event(self, timeout: float) -> DeviceEvent | None:
        if self._ready:
            return self._ready.popleft()
        try:
            return self._inbox.get(timeout=timeout) if timeout > 0 else self._inbox.get_nowait()
        except queue.Empty:
            return None

    def _apply(self, event: DeviceEvent) -> None:
        health = self._health.get(event.device)
        if health is not None and health.apply(event):
            self._changed()
        if isinstance(event, LinkAnswered):  # money the server has paid: never the bench's
            self._link_answered(event)
            return
        if self._bench is not None:
            self._bench_event(self._bench, event)  # never the round's
            return
        try:
            if isinstance(event, (FirstPositionDrawn, HandDelivered, CardsLeft,
                                  CardCountError)):
                self._deal_fact(event)
            elif isinstance(event, DeckChecked):
                self._deck_checked(event)
            elif isinstance(event, BetsLocked):
                self._bets_locked(event)
            elif isinstance(event, (LateBet, BetRemoved)):
                self._bet_moved(event)
            elif isinstance(event, ButtonPressed):
                self._button(event.button)
            elif isinstance(event, CardSwiped):
                self._swiped(event.track)
            elif isinstance(event, LinkHealthChanged):
                self._changed()
            elif isinstance(event, BadRead):
                self._tell(Level.WARNING, "the card was not read", "swipe it again, steadily")
        except _Hold:
            self._held.append(event)
        except Refusal as exc:
            self._tell(Level.REFUSED, exc.why)

    def _deal_fact(self, event: FirstPositionDrawn | HandDelivered | CardsLeft
                   | CardCountError) -> None:
        if event.deal_id != self._deal_id:
            return  # an earlier deal's report (a void deal, or before a restart)
        ends = isinstance(event, (CardsLeft, CardCountError))
        if ends:
            self._deal_open = False
        if self._deal_wanted:
            # the round has moved on (a misdeal, a redeal): this deal's reports are void, and
            # the next deal is asked for once the machine has finished this one
            if ends:
                self._request_deal()
            return
        st, name, key = self.state, event.device, event.key
        if isinstance(event, FirstPositionDrawn):
            if self.rules.action_method is ActionSeatMethod.SHUFFLER and st.phase is Phase.ACTION:
                self._handle(c.SetActionNumber(event.number), device=name, fact=key)
        elif isinstance(event, CardCountError):
            if st.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK):
                self._handle(c.CardCountError(f"the shuffler counted {event.counted} cards"),
                             device=name, fact=key)
        elif st.phase is Phase.ACTION:
            raise _Hold
        elif isinstance(event, HandDelivered):
            if st.phase is Phase.DEALING:
                seat = self._first_seat if not st.delivered else None
                self._handle(c.DealHand(event.cards, seat, event.index), device=name, fact=key)
        elif st.phase is Phase.DEALING or (st.phase is Phase.DEAL_CHECK
                                           and st.wrong_start is None):
            self._handle(c.RemainingCards(event.count), device=name, fact=key)
        elif st.phase is Phase.DEAL_CHECK:
            raise _Hold  # counted once the dealer has moved the hands

    def _deck_checked(self, event: DeckChecked) -> None:
        if event.deal_id != 0 or not self._counting:
            return  # the machine's own check before a deal; a count error says the rest
        self._counting = False
        if self.state.phase is Phase.MISDEAL and self.state.deck_count_due:
            self._handle(c.DeckCounted(event.counted), device=event.device, fact=event.key)
        else:
            self._changed()

    def _bets_locked(self, event: BetsLocked) -> None:
        if event.lock_id != self._lock_id or self.state.phase is not Phase.BETTING:
            return
        self._lock_id = None
        st = self.state
        # asked before any chip becomes a wager: a START GAME refused after them would leave
        # the chips placed as wagers of a round that has not started
        problem = self._link_refuses(event) or self.check(c.StartGame())
        if problem:  # nothing placed: the dealer returns the chips and starts the base game
            self._release_sensors()
            raise Refused(problem)
        for spot in sorted(event.wagered):
            kind = JACKPOT_KINDS.get(spot.spot)
            fixed = self.rules.jackpot_wager(kind) if kind else None
            if kind is None or fixed is None or (spot.seat, kind) in st.wagers:
                continue
            try:
                self._handle(c.PlaceWager(spot.seat, kind, fixed), device=event.device,
                             fact=(*_tuple(event.key), spot.seat, spot.spot))
            except Refusal as exc:
                self._tell(Level.WARNING, f"jackpot chip at seat {spot.seat} not taken: "
                           f"{exc.why}", "give the chip back to the player")
        try:
            self._handle(c.StartGame(), device=event.device, fact=event.key)
        except Refusal:
            self._release_sensors()
            raise

    def _link_refuses(self, event: BetsLocked) -> str | None:
        """Why a linked jackpot's chips cannot be taken now (its link is down), checked
        before any of them becomes a wager, or None."""
        system = self.opened.jackpot
        if system is None or system.link is None:
            return None
        from dealer_console.link.hook import LinkDown

        sensed: dict[int, list[int]] = {}
        for spot in event.wagered:
            sensed.setdefault(spot.spot, []).append(spot.seat)
        try:
            system.link.check_start(sensed)
        except LinkDown as exc:
            return str(exc)
        return None

    def _bet_moved(self, event: LateBet | BetRemoved) -> None:
        st = self.state
        if not st.locked or event.lock_id != lock_id_for(st.round_id):
            return  # a finished round's lock, still being released: its chips are free
        if isinstance(event, LateBet):
            self._tell(Level.WARNING, f"a chip was put on seat {event.spot.seat}'s jackpot "
                       "sensor after START GAME: it is not a wager",
                       "give the chip back to the player")
        else:
            self._tell(Level.WARNING, f"the jackpot chip of seat {event.spot.seat} was taken "
                       "off its sensor: the wager stands", "put the chip back on the sensor")

    def _button(self, button: Button) -> None:
        self.buttons_pressed += 1  # each button's own step says what changed
        if button is Button.START_GAME:
            self.start_game()
        elif button is Button.END_GAME:
            self.end_game()
        elif button.seat is not None:
            self.jackpot_seat(button.seat)
        elif button.hand_line is not None:
            self.jackpot_hand(button.hand_line)
        elif button.game is not None:
            self.select_jackpot_game(button.game)
        elif button is Button.CONFIRM:
            self.arm_confirmation()
        elif button is Button.CANCEL:
            self._armed = False
            self._card = None
            if self.opened.jackpot is not None:
                self.opened.jackpot.drop_held()
            self._changed()
        elif button is Button.MONEY_BAG:
            self.request_win_page()

    def _swiped(self, track: str) -> None:
        if isinstance(self._card, CardCapture):
            self._card_captured(self._card, track)
            return
        if self._card is not None:
            self._card_swiped(self._card, track)
            return
        if not self._armed:
            self._tell(Level.WARNING, "a card was swiped but nothing waits for a card",
                       "press CONFIRM first, then swipe")
            return
        self.confirm_jackpot(track)

    # -- dealer commands (owner thread) -----------------------------------------------------

    def do(self, cmd: c.Command) -> list[Event]:
        """Apply a dealer's command; raises :class:`~dealer_console.errors.Refusal` with the
        reason (nothing changed)."""
        self._not_in_test_mode()
        return self._handle(cmd)

    def start_game_problem(self) -> str | None:
        """Why START GAME cannot be taken now (the round's rules, or a device the step needs
        that is not there), or None."""
        if self._bench is not None:
            return IN_TEST_MODE
        problem = self.check(c.StartGame())
        if problem:
            return problem
        if self._lock_id is not None:
            return "START GAME is under way: waiting for the bet sensors"
        if self._shuffler_deals():
            problem = self._missing(self.devices.shuffler, "the deal")
        return problem or self._missing(self._jackpot_sensors(), "START GAME")

    def start_game(self) -> None:
        """START GAME: on a jackpot table the sensors are locked first and the round starts
        when they answer with the chips they hold; elsewhere at once."""
        self._not_in_test_mode()
        problem = self.check(c.StartGame())
        if problem:
            raise Refused(problem)
        if self._shuffler_deals():
            self._need(self.devices.shuffler, "the deal")
        self._need(self._jackpot_sensors(), "START GAME")  # raised with what to do
        problem = self.start_game_problem()
        if problem:
            raise Refused(problem)
        sensors = self._jackpot_sensors()
        if sensors is None:
            self._handle(c.StartGame())
            return
        self._lock_id = lock_id_for(self.state.round_id)
        sensors.lock(self._lock_id)
        self._changed()

    def end_game(self) -> None:
        self._not_in_test_mode()
        self._handle(c.EndGame())

    def count_deck(self) -> None:
        """After a misdeal that needs it: the shuffler counts the deck (53 expected)."""
        st = self.state
        if st.phase is not Phase.MISDEAL or not st.deck_count_due:
            raise Refused("no deck count is due now")
        shuffler = self.devices.shuffler
        if shuffler is None:
            raise Refused("no shuffler here: count the deck by hand and enter the count")
        self._need(shuffler, "the deck count")
        self._counting = True
        shuffler.count_deck()
        self._changed()

    def first_hand_went_to(self, seat: int) -> None:
        """The dealer put the coming first hand at ``seat`` (not the first position): the deal
        goes on from there and the hands are moved afterwards (CorrectFirstHand)."""
        if self.state.phase not in (Phase.ACTION, Phase.DEALING) or self.state.delivered:
            raise Refused("the first hand's seat is told before the first hand is dealt")
        if seat not in self.rules.seats:
            raise Refused(f"seat {seat} is not at this table")
        self._first_seat = seat

    # jackpot: the keypad's buttons, or the same on screen

    def select_jackpot_game(self, spot: int) -> None:
        if JACKPOT_KINDS.get(spot) not in self.rules.wager_kinds:
            raise Refused(f"this table has no jackpot game on sensor spot {spot}")
        self._game = spot
        self._changed()

    def jackpot_seat(self, seat: int) -> None:
        self._system().select_seat(self.state, self._game, seat)
        self._changed()

    def jackpot_hand(self, line_no: int) -> None:
        """The hand button: set, move or (pressed again) clear the selected seat's mark."""
        self._system().press_hand(self.state, self._game, line_no)
        self._changed()

    def arm_confirmation(self) -> None:
        if not self._system().marks(self.state):
            raise Refused("no jackpot hand is waiting to be confirmed")
        self._armed = True
        self._changed()

    def confirm_jackpot(self, track: str) -> None:
        """A card swipe confirms the first pending hit: authorised once by the jackpot system
        (a refusal is logged and raised with its reason). Where the award needs two people the
        first accepted swipe is held and told; the confirmation stays armed for the second."""
        before = self.table.state
        try:
            hit = self._system().confirm(self.table, track)
        finally:
            self._changed()  # a PIN wanted, or one no longer wanted, is drawn either way
        self._after_confirmation(before, hit)

    def enter_pin(self, pin: str) -> None:
        """The confirmer's PIN after their accepted swipe (``pin_required``): checked by the
        jackpot system; a wrong one is logged and raised in plain words, nothing paid."""
        before = self.table.state
        try:
            hit = self._system().enter_pin(self.table, pin)
        except Refusal as exc:
            self._tell(Level.REFUSED, exc.why)  # drawn under the hit, as a refused card is
            raise
        finally:
            self._changed()
        self._after_confirmation(before, hit)

    def _link_answered(self, event: LinkAnswered) -> None:
        """The link's server answered the hit asked: recorded with its amounts, or the
        refusal told in plain words (nothing paid; or, unanswered, swipe again)."""
        before = self.table.state
        try:
            hit = self._system().answered(self.table, event.answer)
        except LinkUnanswered as exc:  # not a refusal: the server may have paid it
            self._tell(Level.WARNING, exc.why, "swipe the card again once the link is back")
            return
        except Refusal as exc:
            self._tell(Level.REFUSED, exc.why)
            return
        finally:
            self._changed()
        if hit is not None:
            self._after_confirmation(before, hit)

    def _after_confirmation(self, before: RoundState, hit: store.HitRecord | None) -> None:
        asking = self._system().asking() if hit is None else None
        if asking is not None:  # the answer comes back as a LinkAnswered event
            self._tell(Level.INFO, f"card accepted: the jackpot link is paying {asking}",
                       "wait for the award on this screen")
            return
        pin_for = self._system().pin_wanted(self.state) if hit is None else None
        if pin_for is not None:  # the panel asks for the PIN
            self._tell(Level.INFO, f"{pin_for.name}'s card accepted: nothing is paid yet",
                       f"{pin_for.name} types their PIN now")
            return
        if hit is None:  # the first of two people: held, nothing paid, the swipe still awaited
            held = self._system().held(self.state)
            assert held is not None
            self._tell(Level.INFO, f"{held.name} ({held.role.value}) confirmed first: "
                       "nothing is paid yet", "the second person swipes their card now")
            return
        self._armed = False
        self._last_hit = ConfirmedHit(
            hit.spot, hit.seat, hit.line_label, hit.amount_cents, hit.confirmed_by, hit.level,
            None if hit.meter_before_micro is None else hit.meter_before_micro // MICRO,
            None if hit.meter_after_micro is None else hit.meter_after_micro // MICRO,
            hit.link)
        self._after(before)

    # the money bag: the win page of an award (Washington document, "Face Up Pai Gow Poker
    # Jackpot Rules of Play" item 9 f); and the back-out by manual adjustment (item 9 h)

    def request_win_page(self, hit_id: int | None = None) -> int:
        """Ask the window to print award ``hit_id``'s win page and show it; without an award,
        the last one confirmed in this round (the keypad's money bag). Returns the award."""
        db = self.table.db
        if hit_id is None:
            row = db.execute("SELECT MAX(hit_id) FROM jackpot_hits WHERE round_id = ?",
                             [self.state.round_id]).fetchone()
            if row is None or row[0] is None:
                raise Refused("no jackpot award has been confirmed in this round: earlier "
                              "awards are printed from the supervisor's jackpot screen")
            hit_id = int(row[0])
        else:
            try:
                store.get_hit(db, hit_id)
            except store.JackpotError as exc:  # an award this table does not have
                raise Refused(str(exc)) from exc
        number = 1 + (self._win_page.number if self._win_page is not None else 0)
        self._win_page = WinPageRequest(hit_id, number)
        self._changed()
        return hit_id

    def win_page_of(self, hit_id: int) -> store.HitRecord:
        """The confirmed award as its win page prints it."""
        return store.get_hit(self.table.db, hit_id)

    def jackpot_awards(self) -> list[history.AwardEntry]:
        """The table's confirmed awards, newest first, each with its back-out if any."""
        return history.awards_newest_first(self.table.db)

    def meter_ledger(self) -> list[history.LedgerEntry]:
        """Every change of a meter (contributions, awards, resets, adjustments), newest first."""
        return history.ledger_newest_first(self.table.db)

    def ask_back_out(self, hit_id: int, reason: str) -> None:
        """Want an executive's card to back award ``hit_id`` out with ``reason``; refused at
        once (no card asked for) without a reason or for an award already backed out."""
        problem = store.back_out_problem(self.table.db, hit_id, reason)
        if problem:
            raise Refused(problem)
        why = reason.strip()
        self.want_card(Role.EXECUTIVE, f"back out jackpot award {hit_id} ({why})",
                       lambda employee: self.back_out(hit_id, why, employee))

    def back_out(self, hit_id: int, reason: str, employee: Employee) -> int:
        """Back award ``hit_id`` out for ``employee``, whose executive's card was authorised:
        the meter entries reversed exactly, the award kept on record as backed out."""
        try:
            adjustment = store.back_out_by(self.table.db, hit_id=hit_id, reason=reason,
                                           employee_id=employee.employee_id)
        except store.JackpotError as exc:  # a meter that would go below zero: told, kept
            raise Refused(str(exc)) from exc
        self._tell(Level.INFO, f"award {hit_id} backed out by {employee.name}: {reason}")
        return adjustment

    # a card wanted for something other than a jackpot hit (see :mod:`.cards`)

    def want_card(self, role: Role, purpose: str,
                  on_card: Callable[[Employee], object]) -> None:
        """The next swipe authorises ``purpose`` for ``role``; it replaces a request still
        open and takes precedence over an armed jackpot confirmation."""
        self._card = CardRequest(role, purpose, on_card)
        self._changed()

    def capture_card(self, purpose: str, on_track: Callable[[str], object]) -> None:
        """The next swipe is a new card to register: its track goes to ``on_track`` without
        being authorised (no one holds it yet), shown or logged; the staff change that
        ``on_track`` makes hashes it and logs who authorised the change."""
        self._card = CardCapture(purpose, on_track)
        self._changed()

    def cancel_card(self) -> None:
        self._card = None
        self._changed()

    def swipe(self, track: str) -> None:
        """A swipe from a reader other than the keypad's (a test, a USB reader): the same
        path as the keypad's."""
        self._swiped(track)

    # the technician's test mode (see :mod:`.test_mode`)

    @property
    def in_test_mode(self) -> bool:
        return self._bench is not None

    def test_mode_problem(self) -> str | None:
        """Why test mode cannot be entered now, or None."""
        if self._bench is not None:
            return IN_TEST_MODE
        if self._lock_id is not None:
            return "START GAME is under way: test mode waits for the next round"
        return between_rounds_problem(self.state)

    def ask_test_mode(self, on_entered: Callable[[Employee], object]) -> None:
        """A technician's card enters test mode (refused at once when it cannot start);
        ``on_entered`` then opens the technician's screens."""
        problem = self.test_mode_problem()
        if problem:
            raise Refused(problem)

        def entered(employee: Employee) -> None:
            self.enter_test_mode(employee)
            on_entered(employee)

        self.want_card(Role.TECHNICIAN, "enter test mode", entered)

    def enter_test_mode(self, employee: Employee) -> None:
        """Enter test mode for ``employee`` (a technician whose card was accepted)."""
        problem = self.test_mode_problem()
        if problem:
            raise Refused(problem)
        if employee.role is not Role.TECHNICIAN:
            raise Refused(f"{employee.name} is a {employee.role.value}; test mode needs a "
                          "technician's card")
        session = log_entered(self.table.db, employee)
        sensors = self.devices.sensors
        seats = tuple(s for s in sorted(self.rules.seats) if 1 <= s <= SEATS) if sensors else ()
        self._bench = Bench(employee, session, time.monotonic(), seats)
        health = self._health.get(sensors.name) if sensors else None
        if health is not None and health.connected:  # what the nodes last said
            self._bench.nodes = {s: s not in health.nodes_down for s in seats}
        self._armed = False
        self._changed()

    def leave_test_mode(self) -> int:
        """Leave test mode (a candidate device not kept is put back); returns the seconds
        spent, as logged."""
        bench = self._bench
        if bench is None:
            raise Refused("the table is not in test mode")
        for name in list(self._tried):
            self.restore_device(name)
        seconds = int(time.monotonic() - bench.entered)
        log_left(self.table.db, bench.session, seconds)
        self._bench = None
        self._changed()
        return seconds

    def run_test(self, device: str, action: str) -> None:
        """Start a technician's test on ``device``: the shuffler's ``test deal`` (seven hands
        that never reach a round), or one of the driver's own test actions."""
        bench = self._bench
        if bench is None:
            raise Refused("device tests run only in test mode")
        driver = self.devices.named(device)
        if driver is None:
            raise Refused(f"this table has no {device}")
        if device == "shuffler" and action == "test deal":
            self._need(driver, "the test deal")
            deal_id = test_deal_id(self.state.round_id)
            bench.start_deal(deal_id)
            assert self.devices.shuffler is not None
            self.devices.shuffler.start_deal(TEST_DEAL_HANDS, deal_id)
        else:
            try:
                driver.run_test_action(action)
            except ValueError as exc:
                raise Refused(str(exc)) from None
            if device == "bet-sensors" and action.startswith("light seat "):
                seat = int(action.removeprefix("light seat "))
                bench.lit.add(seat)
                bench.answered.pop(seat, None)  # this press's answer is awaited
        self._changed()

    def diagnostics(self, device: str) -> DiagnosticsSnapshot | None:
        driver = self.devices.named(device)
        return None if driver is None else driver.diagnostics()

    def frames(self, device: str, after: int = 0) -> tuple[RawFrame, ...]:
        """The device's raw frames since number ``after`` (any thread's driver, read here)."""
        driver = self.devices.named(device)
        return () if driver is None else driver.frames(after)

    def try_device(self, candidate: DeviceDriver) -> None:
        """Device set-up (test mode only): stop the table's device of the candidate's name
        and run the candidate in its place, subscribed like the first; kept with
        :meth:`keep_device`, or the old one put back with :meth:`restore_device`."""
        if self._bench is None:
            raise Refused("devices are set up only in test mode")
        name = candidate.name
        current = self.devices.named(name)
        if current is not None:
            current.stop()
            self._tried.setdefault(name, current)
        self._install(candidate)

    def keep_device(self, name: str) -> None:
        self._tried.pop(name, None)

    def restore_device(self, name: str) -> None:
        old = self._tried.pop(name, None)
        if old is None:
            return
        current = self.devices.named(name)
        if current is not None:
            current.stop()
        self._install(old)

    def _install(self, driver: DeviceDriver) -> None:
        self._subscribe(driver)
        self.devices.put(driver)
        self._health[driver.name] = DeviceHealth(driver.name)
        driver.start()
        self._changed()

    def _subscribe(self, driver: DeviceDriver) -> None:
        if id(driver) not in self._subscribed:
            self._subscribed.add(id(driver))
            driver.subscribe(self.deliver)

    def _bench_event(self, bench: Bench, event: DeviceEvent) -> None:
        if isinstance(event, CardSwiped):
            employee = find_by_card(self.table.db, event.track)  # read only, nothing logged
            bench.card_read(None if employee is None else employee.role.value)
        else:
            bench.apply(event)
        self._changed()

    def _not_in_test_mode(self) -> None:
        if self._bench is not None:
            raise Refused(IN_TEST_MODE)

    def _card_swiped(self, request: CardRequest, track: str) -> None:
        """Authorise once, log who, then hand the employee to the requester; a refusal is
        logged and told, and the request stays open for the right card."""
        employee = authorise(self.table.db, track, request.role, request.purpose)
        with self.table.db.atomic():
            log_accepted(self.table.db, employee, request.purpose)
        self._card = None
        self._changed()
        request.on_card(employee)

    def _card_captured(self, capture: CardCapture, track: str) -> None:
        self._card = None
        self._changed()
        try:
            capture.on_track(track)
        except ConsoleError as exc:
            self._tell(Level.REFUSED, str(exc))

    # -- internals -----------------------------------------------------------------------------

    def _handle(self, cmd: c.Command, device: str | None = None,
                fact: Hashable | None = None) -> list[Event]:
        before = self.table.state
        events = self.table.handle(cmd, device=device, fact=fact)
        if events:
            self._after(before)
        return events

    def _after(self, before: RoundState) -> None:
        """Each phase's device actions, after a transition."""
        st = self.state
        if st.round_id != before.round_id:
            # the round's last transaction is committed: anchor the chain outside the file
            self.opened.journal.write(self.table.db)
            self._new_round()
        elif st.phase is Phase.ACTION and (before.phase is not Phase.ACTION
                                           or st.deal_no != before.deal_no):
            self._request_deal()
        if self._held:
            self._ready.extend(self._held)  # tried again, one by one, by the next pump
            self._held.clear()
            if self.wake is not None:
                self.wake()
        self._changed()

    def start(self) -> None:
        """Bring the devices in line with the round as it was resumed (after a restart): a
        deal in progress is asked for again (the facts already applied are recognised), the
        sensors locked again for a round in play or released between rounds."""
        st = self.state
        sensors = self._jackpot_sensors()
        if sensors is not None:
            if st.phase in (Phase.BANKER, Phase.BETTING):
                sensors.unlock()
            else:
                sensors.lock(lock_id_for(st.round_id))
        if st.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK):
            self._request_deal()
        self._changed()

    def _new_round(self) -> None:
        self._lock_id, self._counting, self._deal_wanted = None, False, False
        self._first_seat, self._armed, self._last_hit = None, False, None
        if self.opened.jackpot is not None:
            self.opened.jackpot.drop_held()
        self._held.clear()
        self._release_sensors()

    def _release_sensors(self) -> None:
        self._lock_id = None
        sensors = self._jackpot_sensors()
        if sensors is not None:
            sensors.unlock()

    def _request_deal(self) -> None:
        """Ask the shuffler for the round's current deal; while it still delivers an earlier
        deal, the request waits for that deal's end (a real machine finishes a deal)."""
        self._held.clear()
        self._first_seat = None
        if not self._shuffler_deals() or self.devices.shuffler is None:
            return
        st = self.state
        deal_id = deal_id_for(st.round_id, st.deal_no)
        if self._deal_open and self._deal_id != deal_id:
            self._deal_wanted = True
            return
        self._deal_id, self._deal_open, self._deal_wanted = deal_id, True, False
        self.devices.shuffler.start_deal(HANDS, deal_id)

    def _shuffler_deals(self) -> bool:
        return self.rules.deal_method is DealMethod.SHUFFLER

    def _jackpot_sensors(self) -> BetSensorControl | None:
        if not any(k in self.rules.wager_kinds for k in JACKPOT_KINDS.values()):
            return None
        return self.devices.sensors

    def _need(self, driver: DeviceDriver | None, what: str) -> None:
        problem = self._missing(driver, what)
        if problem and driver is not None:
            raise Refused(f"{problem}; {self._health[driver.name].view().todo}")

    def _missing(self, driver: DeviceDriver | None, what: str) -> str | None:
        """Why ``what`` waits for ``driver``'s device (not connected), or None."""
        if driver is None:
            return None
        health = self._health[driver.name]
        if health.connected:
            return None
        return f"{health.view().fault or TITLES.get(driver.name, driver.name)}: {what} waits"

    def _system(self) -> JackpotSystem:
        system = self.opened.jackpot
        if system is None:
            raise Refused("this table has no jackpot")
        return system

    def _tell(self, level: Level, what: str, todo: str = "") -> None:
        self._notices += 1
        self._notice = Notice(level, what, todo, self._notices)
        self._changed()

    def _changed(self) -> None:
        self._view = None
        if self._listeners:
            view = self.snapshot()
            for listener in list(self._listeners):
                listener(view)

    def _build_view(self) -> TableSnapshot:
        st = self.state
        return TableSnapshot(
            title=self.opened.profile.title, profile=self.rules.name,
            round=RoundSnapshot.of(st), accepts=ACCEPTS[st.phase],
            waiting_for=self.waiting_for,
            devices=tuple(h.view() for h in self._health.values()) + link_device(self._link),
            jackpot_pending=self._pending(st), jackpot_game=self._game,
            jackpot_armed=self._armed, notice=self._notice,
            card_wanted=self._card.prompt if self._card is not None else None,
            win_page=self._win_page,
            hidden_seats=hidden_seats(self.rules, st),
            banker_pai_gow=banker_pai_gow(self.rules, st),
            test_mode=self._bench is not None,
            bench=None if self._bench is None else self._bench.view(
                time.monotonic() - self._bench.entered),
            **self._jackpot_view(st))

    def _jackpot_view(self, st: RoundState) -> dict[str, Any]:
        """The jackpot panel's part of the view: games, wagered seats, marks, the hand
        buttons of the chosen game, the last confirmed hit."""
        system = self.opened.jackpot
        if system is None:
            return {}
        if self._lines is None:  # the games are fixed while the table is open
            db = self.table.db
            self._lines = {spot: tuple(line.label for line in
                                       store.game_config(db, spot).paytable.lines)
                           for spot in store.spots(db)}
        out: dict[str, Any] = {"jackpot_games": tuple(sorted(self._lines)),
                               "jackpot_last": self._last_hit,
                               "jackpot_lines": self._lines.get(self._game, ())}
        jr = system.current(st)
        if jr is None:
            return out
        out["jackpot_wagered"] = frozenset((spot, seat) for spot, g in jr.games.items()
                                           for seat in g.wagered)
        out["jackpot_marked"] = frozenset(
            (spot, seat, g.paytable.number_of(m.line))
            for spot, g in jr.games.items() for seat, m in g.marks.items())
        chosen = jr.games.get(self._game)
        out["jackpot_selected"] = None if chosen is None else chosen.selected
        held = system.held(st)
        out["jackpot_held"] = None if held is None else f"{held.name} ({held.role.value})"
        pin_for = system.pin_wanted(st)
        out["jackpot_pin_for"] = (None if pin_for is None
                                  else f"{pin_for.name} ({pin_for.role.value})")
        out["jackpot_asking"] = system.asking()
        return out

    def _pending(self, st: RoundState) -> tuple[PendingHit, ...]:
        """The hits waiting for a swipe, each with its amount and meters as they will be after
        the hits before it (:func:`dealer_console.jackpot.projection.project`)."""
        system = self.opened.jackpot
        if system is None:
            return ()
        marks = system.marks(st)
        db = self.table.db
        spots = {p.spot for p in marks}
        games = {spot: store.game_config(db, spot) for spot in spots}
        states = {spot: system.meter_states(spot) for spot in spots}
        return tuple(
            PendingHit(h.spot, h.seat, h.line_no, h.label, h.amount_cents, h.needs, h.level,
                       h.meter_before_cents, h.meter_after_cents, h.meters_after)
            for h in project(games, states, [(p.spot, p.mark) for p in marks]))


def _tuple(key: Hashable) -> tuple[Hashable, ...]:
    return key if isinstance(key, tuple) else (key,)

