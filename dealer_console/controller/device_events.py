"""How a device's event reaches the round: the health it reports, then the step it stands
for (a deal's fact mapped by :mod:`.facts`, the sensors' lock, a keypad button, a swipe), or
the technician's bench in test mode. A refusal is told to the dealer, never raised to the
driver. Runs on the owner thread only (the inbox hands it the events).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol

from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.device_desk import DeviceDesk
from dealer_console.controller.facts import (
    HOLD,
    DealFact,
    deal_came_short,
    deal_command,
    lock_id_for,
    stale_jackpot_wagers,
    wager_commands,
)
from dealer_console.controller.inbox import Inbox
from dealer_console.controller.jackpot_desk import JackpotDesk, Tell
from dealer_console.controller.link_device import LinkAnswered, LinkHealthChanged
from dealer_console.controller.notice_keeper import NoticeKeeper
from dealer_console.controller.test_desk import TestModeDesk
from dealer_console.controller.view import Level
from dealer_console.devices.bet_sensors import BetRemoved, BetsLocked, LateBet
from dealer_console.devices.events import DeviceEvent
from dealer_console.devices.keypad import (
    BadRead,
    Button,
    ButtonPressed,
    CardSwiped,
    KeypadEvent,
)
from dealer_console.devices.kinds import TITLES
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    DealReportChanged,
    DeckChecked,
    FirstPositionDrawn,
    HandDelivered,
    ShufflerState,
    ShufflerStatus,
)
from dealer_console.employees.registry import Employee
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_console.round.notices import NoticeAbout
from dealer_console.round.state import Phase, RoundState
from dealer_console.round.table import Table
from dealer_console.storage.eventlog import Event
from dealer_console.storage.failures import WriteFailed
from dealer_console.storage.identity import StorageError

Applied = Callable[[Callable[[], list[Event]]], list[Event]]
"""The controller's wrapper of a table transaction: what follows a transition, after it."""


class Actions(Protocol):
    """The controller's public steps a keypad button takes (the same as the screen's)."""

    def check(self, cmd: c.Command) -> str | None: ...
    def start_game(self) -> None: ...
    def end_game(self) -> None: ...
    def jackpot_seat(self, seat: int) -> None: ...
    def jackpot_hand(self, line_no: int) -> None: ...
    def select_jackpot_game(self, spot: int) -> None: ...
    def arm_confirmation(self) -> None: ...
    def request_win_page(self, hit_id: int | None = None,
                         asked_by: Employee | None = None) -> int: ...
    def confirm_jackpot(self, track: str) -> None: ...


SAVED_WHEN_IT_CAN = (FirstPositionDrawn, HandDelivered, CardsLeft, CardCountError, DeckChecked,
                     BetsLocked, LinkAnswered)
"""Device reports the device never sends again: one the disk refused is tried again until
the disk takes it (a person's press or swipe is theirs to repeat). The jackpot link's answer
is one: the server has paid or refused the hit, and does not answer it again by itself."""


class DeviceEvents:
    def __init__(self, table: Table, inbox: Inbox, desk: DeviceDesk, jackpot: JackpotDesk,
                 cards: CardDesk, bench: TestModeDesk, actions: Actions, applied: Applied,
                 tell: Tell, changed: Callable[[], None], notices: Callable[[], int],
                 kept: NoticeKeeper) -> None:
        self.table = table
        self.rules = desk.rules
        self.inbox = inbox
        self.desk = desk
        self.jackpot = jackpot
        self.cards = cards
        self.bench = bench
        self._actions = actions
        self._applied = applied
        self._tell_3 = tell
        self._changed = changed
        self._notices = notices
        """How many notices the controller has told (one told during a step replaces ours)."""
        self._warn = kept.warn
        """A warning about the round's evidence: told, and kept in the log."""
        self.buttons_pressed = 0
        """Keypad buttons acted on since the controller started (for observers and tests)."""
        self.storage_failure: StorageError | None = None
        """The disk's refusal of the last device event, until one is saved again."""
        self._told_stalled: DeviceEvent | None = None

    def _handle(self, cmd: c.Command, device: str | None = None,
                fact: Hashable | None = None) -> list[Event]:
        return self._applied(lambda: self.table.handle(cmd, device=device, fact=fact))

    def _tell(self, level: Level, what: str, todo: str = "",
              code: RefusalCode | None = None) -> None:
        self._tell_3(level, what, todo, code)

    def apply(self, event: DeviceEvent, more: int = 0) -> int:
        """Apply one event (owner thread): health first, then the round's step, or the
        bench's in test mode; a refusal is told, never raised, and so is a step the disk
        would not take (:meth:`_not_saved`). Up to ``more`` of the events waiting behind it
        may go with it (a deal's hands: :meth:`_deal_hands`); returns how many were taken,
        this one included."""
        if self.desk.apply_health(event):
            self._changed()
        told = self._notices()
        taken = 1  # this one alone, whatever the step raised
        try:
            taken = self._step(event, more)
            if self._told_stalled is event and self._notices() == told:
                # the alarm would stay on the dealer's screen after a technician freed space
                self._tell(Level.INFO, f"{_kept_words(event)[1]}: saved now, the disk works "
                           "again", "nothing to do again")
            self.storage_failure = self._told_stalled = None
        except Refusal as exc:
            self._tell(Level.REFUSED, exc.why, code=exc.code)
        except StorageError as exc:
            self.storage_failure = exc
            self._not_saved(event, exc)
        return taken

    def _not_saved(self, event: DeviceEvent, exc: StorageError) -> None:
        """The disk refused the step's transaction (nothing of it was written). A device's
        report it will not send again (a hand, the sensors' lock, the link's answer) waits at
        the head of the inbox and is tried again at the next pump, so the round goes on once
        the disk takes writes; a person's press or swipe is theirs to do again. An outside
        review found the error raised out of the pump: the report lost, the dealer told
        nothing, and the round waiting for good after space was freed."""
        what = TITLES.get(event.device, event.device)
        # a few words: the notice has three short lines in the phase bar on the smallest screen
        cause = exc.cause if isinstance(exc, WriteFailed) else "the database cannot be written"
        if isinstance(event, SAVED_WHEN_IT_CAN):
            self.inbox.stall(event)
            if event is not self._told_stalled:  # told once, not at every try
                self._told_stalled = event
                self._tell(Level.REFUSED, f"{_kept_words(event)[0]}, {cause}",
                           "call a technician: it saves by itself", RefusalCode.NOT_SAVED)
        else:
            again = ("swipe again" if isinstance(event, CardSwiped) else
                     "press again" if isinstance(event, ButtonPressed) else "do it again")
            self._tell(Level.REFUSED, f"{what}: nothing done, {cause}",
                       f"call a technician, then {again}", RefusalCode.NOT_SAVED)

    def while_stalled(self) -> None:
        """While a report waits for the disk: what the dealer sees of the devices still
        follows the reports queued behind it (their round steps wait, in order), and a
        person's press or swipe behind it is told not taken, not acted on minutes later.
        An outside review found the screen showing an unplugged device still connected."""
        behind, dropped = self.inbox.behind_stall(
            lambda e: isinstance(e, (ButtonPressed, CardSwiped, BadRead)))
        changed = False
        for event in behind:
            changed = self.desk.apply_health(event) or changed
        if dropped:
            self._tell(Level.REFUSED, "the keypad: not taken while the disk refuses to save",
                       "call a technician, then do it again", RefusalCode.NOT_SAVED)
        elif changed:
            self._changed()

    def _step(self, event: DeviceEvent, more: int) -> int:
        """The event's step; returns how many events it took (a deal's hands: up to
        ``more`` waiting behind it too)."""
        if isinstance(event, LinkAnswered):  # money the server has paid: never the bench's
            self.jackpot.link_answered(event.answer)
            return 1
        if self.bench.active:
            self.bench.event(event)  # never the round's
            return 1
        if isinstance(event, KeypadEvent) and event.kept:
            self._kept_press(event)
            return 1
        if isinstance(event, (FirstPositionDrawn, HandDelivered, CardsLeft, CardCountError)):
            return self._deal_fact(event, more)
        elif isinstance(event, DeckChecked):
            return self._deck_checked(event, more)
        elif isinstance(event, DealReportChanged):
            self._deal_not_as_said(event.deal_id, event.device, event.key,
                                   f"the shuffler reported {event.what} of this deal again, "
                                   "saying something else")
        elif isinstance(event, ShufflerStatus):
            self._shuffler_status(event)
        elif isinstance(event, BetsLocked):
            self._bets_locked(event)
        elif isinstance(event, (LateBet, BetRemoved)):
            self._bet_moved(event)
        elif isinstance(event, ButtonPressed):
            self._button(event.button)
        elif isinstance(event, CardSwiped):
            self.swiped(event.track)
        elif isinstance(event, LinkHealthChanged):
            self._changed()
        elif isinstance(event, BadRead):
            self._tell(Level.WARNING, "the card was not read", "swipe it again, steadily")
        return 1

    def _deal_fact(self, event: DealFact, more: int) -> int:
        desk = self.desk
        if event.deal_id != desk.deal_id:
            return 1  # an earlier deal's report (a void deal, or before a restart)
        desk.deal_seen = True
        ends = isinstance(event, (CardsLeft, CardCountError))
        if ends:
            desk.deal_open = False
        if desk.deal_wanted:
            # the round has moved on (a misdeal, a redeal): this deal's reports are void, and
            # the next deal is asked for once the machine has finished this one
            if ends:
                desk.request_deal(self.table.state)
            return 1
        cmd = deal_command(event, self.table.state, self.rules, desk.first_seat)
        if (cmd is None and isinstance(event, HandDelivered)
                and event.index > len(self.table.state.delivered)
                and self.table.state.phase not in (Phase.DEALING, Phase.MISDEAL)):
            self._deal_not_as_said(event.deal_id, event.device, event.key,
                                   f"the shuffler delivered hand {event.index} after the deal's "
                                   f"{len(self.table.state.delivered)} hands")
            return 1
        if cmd is HOLD:
            self.inbox.hold(event)
        elif isinstance(cmd, c.DealHand) and isinstance(event, HandDelivered) and more:
            return self._deal_hands(event, cmd, more)
        elif cmd is not None:
            self._handle(cmd, device=event.device, fact=event.key)
        return 1

    def _deal_not_as_said(self, deal_id: int, device: str, fact: Hashable, said: str) -> None:
        """The machine said more of the deal than a deal holds, or changed what it said (an
        outside review's shuffler sent an eighth hand and another hand 3 after the deal was
        checked, and nothing was said): before the deal is checked, a card-count misdeal (the
        deck is counted); after, the dealer is told, the round keeping the first report."""
        if deal_id != self.desk.deal_id:
            return
        if self.table.state.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK):
            self._handle(c.ShufflerCountError(said), device=device, fact=fact)
        elif self.table.state.phase not in (Phase.MISDEAL, Phase.BETTING, Phase.BANKER):
            self._warn(NoticeAbout.DEAL_NOT_AS_REPORTED, f"{said}, after the deal was checked: "
                       "the round keeps the deal as first reported", "call a supervisor before "
                       "paying, and a technician to see to the shuffler", device=device,
                       fact=fact)

    def _deal_hands(self, first: HandDelivered, cmd: c.DealHand, more: int) -> int:
        """A hand, and the hands of its deal already waiting behind it, in one transaction
        (``Table.handle_run``): one commit for a burst of the shuffler's hands rather than one
        each. The hands not taken (the run stopped) go back first in line, and so do all of
        them when the disk refused the transaction (the first is stalled in front of them)."""
        deal, device = first.deal_id, first.device
        behind = self.inbox.take_following(
            lambda e: isinstance(e, HandDelivered) and e.deal_id == deal and e.device == device,
            more)

        def hand(event: DeviceEvent) -> Callable[[RoundState], c.Command | None]:
            assert isinstance(event, HandDelivered)  # as take_following matched it

            def command_for(st: RoundState) -> c.Command | None:
                now = deal_command(event, st, self.rules, self.desk.first_seat)
                return now if isinstance(now, c.DealHand) else None
            return command_for

        steps = [(lambda _st: cmd, first.key), *((hand(e), e.key) for e in behind)]
        taken = 1

        def run() -> list[Event]:
            nonlocal taken
            written, taken = self.table.handle_run(steps, device)
            return written
        try:
            self._applied(run)
        except (Refusal, StorageError):
            self.inbox.put_back(behind)
            raise
        self.inbox.put_back(behind[taken - 1:])
        for event in behind[:taken - 1]:
            if self.desk.apply_health(event):
                self._changed()
        return taken

    def _kept_press(self, event: KeypadEvent) -> None:
        """A press or swipe the keypad kept while no console read it is not acted on: it may
        belong to an earlier round (a START GAME pressed then started the next round in an
        outside review) or to a step already done by touch. The dealer is told what it was."""
        if isinstance(event, ButtonPressed):
            what = f"{event.button.name.replace('_', ' ')} was pressed on the keypad"
        elif isinstance(event, CardSwiped):
            what = "a card was swiped on the keypad"
        else:
            return  # a release or an unread swipe asks nothing
        self._warn(NoticeAbout.KEPT_ON_KEYPAD, f"{what} while the console could not read it "
                   "(its cable out, or the console restarting): not used",
                   "press it again, or swipe again, if it is still wanted",
                   device=event.device, fact=event.key)

    def _shuffler_status(self, event: ShufflerStatus) -> None:
        """A deal the machine left without its end (a RESET after a jam, a power cycle: the
        protocol abandons it, and neither CARDS_LEFT nor COUNT_ERROR ever comes) is over: an
        outside review left a jammed deal open, so the redeal was never asked for and the
        round waited for good. Ready again, naming that deal (or any deal once this one had
        begun), the machine is done with it."""
        desk = self.desk
        if not desk.deal_open or event.state is not ShufflerState.READY:
            if desk.deal_open and event.deal_id == desk.deal_id:
                desk.deal_seen = True  # shuffling or dealing it
            return
        if event.deal_id != desk.deal_id and not desk.deal_seen:
            # ready, and the deal asked for not taken: a status sent before the request came,
            # or the answer to a request the machine refused while not ready (its door open,
            # a test deal still coming out). An outside review found the deal never asked for
            # again and the round stuck. Asked again: a machine that did take it remembers its
            # id and answers with a status only. Not for ever: one that refuses the number
            # (it dealt it before a restore) is told to the dealer.
            if desk.ask_again() or desk.deal_refused:
                return
            desk.deal_refused, desk.deal_open = True, False  # it delivers nothing
            self._warn(NoticeAbout.DEAL_REFUSED, f"the shuffler will not take deal "
                       f"{desk.deal_id}: it answers ready, each time, and deals nothing",
                       "declare a misdeal and deal again (the redeal has a new number); call "
                       "a technician if it refuses that too", device=event.device)
            self._changed()
            return
        desk.deal_open = False
        if desk.deal_wanted:
            desk.request_deal(self.table.state)
        elif deal_came_short(self.table.state, self.inbox.held):
            # an outside review: after a restart the shuffler, remembering the deal, answers
            # with a status only, and the hands the console had held for the dice were gone:
            # the round waited for them for good, the dealer not told why
            desk.deal_short = True
            self._warn(NoticeAbout.DEAL_SHORT, "the shuffler finished this deal, but not all "
                       "of it reached the console", "declare a misdeal and deal again",
                       device=event.device)
        self._changed()

    def _deck_checked(self, event: DeckChecked, more: int) -> int:
        desk = self.desk
        if event.deal_id and event.deal_id == desk.deal_id and not event.ok:
            # the machine's own count before this deal found no deck of 53: a card-count
            # error, whether or not its COUNT_ERROR follows (an outside review's shuffler
            # counted 54 and dealt on, and the round played)
            return self._deal_fact(CardCountError(device=event.device, seq=event.seq,
                                                  deal_id=event.deal_id,
                                                  counted=event.counted), more)
        if event.deal_id != 0 or not desk.counting:
            return 1  # the machine's own check before a deal, 53 cards: nothing to do
        desk.counting = False
        if self.table.state.phase is Phase.MISDEAL and self.table.state.deck_count_due:
            try:
                self._handle(c.DeckCounted(event.counted, shuffler=True), device=event.device,
                             fact=event.key)
            except StorageError:
                desk.counting = True  # tried again (an outside review found it dropped)
                raise
        else:
            self._changed()
        return 1

    def _bets_locked(self, event: BetsLocked) -> None:
        desk = self.desk
        if event.lock_id != desk.lock_id or self.table.state.phase is not Phase.BETTING:
            return
        desk.lock_id = None
        # asked before any chip becomes a wager: a START GAME refused after them would leave
        # the chips placed as wagers of a round that has not started
        link_down = self.jackpot.link_refuses(event)
        problem = link_down or self._actions.check(c.StartGame())
        if problem:  # nothing placed: the dealer returns the chips and starts the base game
            desk.release_sensors()
            raise Refused(problem, RefusalCode.LINK_DOWN if link_down else None)
        stale = stale_jackpot_wagers(event, self.table.state)
        steps: list[tuple[c.Command, Hashable]] = [
            *stale, *wager_commands(event, self.table.state, self.rules),
            (c.StartGame(), event.key)]
        left_out: list[tuple[c.Command, Refused]] = []

        def leave_out(cmd: c.Command, exc: Refused) -> bool:
            """A chip the round refuses is left out; a START GAME refused refuses them all."""
            if isinstance(cmd, c.PlaceWager):
                left_out.append((cmd, exc))
                return True
            return False

        try:
            # the chips' wagers and START GAME: one report, one transaction
            self._applied(lambda: self.table.handle_facts(steps, event.device, leave_out))
        except Refusal:
            desk.release_sensors()
            raise
        except StorageError:
            desk.lock_id = event.lock_id  # tried again: nothing of it was saved
            raise
        for cmd, exc in left_out:
            assert isinstance(cmd, c.PlaceWager)
            self._warn(NoticeAbout.CHIP_NOT_TAKEN, f"jackpot chip at seat {cmd.seat} not "
                       f"taken: {exc.why}", "give the chip back to the player",
                       device=event.device, fact=event.key)
        for gone, _fact in stale:
            self._warn(NoticeAbout.WAGER_TAKEN_BACK, f"seat {gone.seat}'s jackpot wager saved "
                       "before START GAME is taken back: no chip was on its sensor", "",
                       device=event.device, fact=event.key)

    def _bet_moved(self, event: LateBet | BetRemoved) -> None:
        st = self.table.state
        if not st.locked or event.lock_id != lock_id_for(st.round_id):
            return  # a finished round's lock, still being released: its chips are free
        if isinstance(event, LateBet):
            # not "put there after START GAME": a chip on a node off the bus at the lock is
            # seen when the node comes back (an outside review: the words then blamed the
            # player for a late bet)
            self._warn(NoticeAbout.LATE_CHIP, f"the chip on seat {event.spot.seat}'s jackpot "
                       "sensor was not taken at START GAME (put there after it, or its sensor "
                       "was off then): it is not a wager", "give the chip back to the player",
                       device=event.device, fact=event.key)
        else:
            self._warn(NoticeAbout.CHIP_REMOVED, f"the jackpot chip of seat {event.spot.seat} "
                       "was taken off its sensor: the wager stands",
                       "put the chip back on the sensor", device=event.device, fact=event.key)

    def _button(self, button: Button) -> None:
        self.buttons_pressed += 1  # each button's own step says what changed
        if button is Button.START_GAME:
            self._actions.start_game()
        elif button is Button.END_GAME:
            self._actions.end_game()
        elif button.seat is not None:
            self._actions.jackpot_seat(button.seat)
        elif button.hand_line is not None:
            self._actions.jackpot_hand(button.hand_line)
        elif button.game is not None:
            self._actions.select_jackpot_game(button.game)
        elif button is Button.CONFIRM:
            self._actions.arm_confirmation()
        elif button is Button.CANCEL:
            self.cards.wanted = None
            self.jackpot.cancel()
        elif button is Button.MONEY_BAG:
            self._actions.request_win_page()

    def swiped(self, track: str) -> None:
        if self.cards.swiped(track):
            return
        if not self.jackpot.armed:
            self._tell(Level.WARNING, "a card was swiped but nothing waits for a card",
                       "press CONFIRM first, then swipe")
            return
        self._actions.confirm_jackpot(track)


def _kept_words(event: DeviceEvent) -> tuple[str, str]:
    """A report kept for the disk in the dealer's few words: what could not be saved, and
    whose it is."""
    if isinstance(event, LinkAnswered):  # the server has paid or refused it
        verdict = "refused" if event.answer.hit is None else "paid"
        return f"Link {verdict} the hit, not saved", "Jackpot link"
    whose = TITLES.get(event.device, event.device)
    return f"{whose}: could not be saved", whose
