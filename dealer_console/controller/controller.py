"""The table controller (see the package doc): the small façade over its desks. Device events
and dealer commands come in; the round's transitions, each phase's device actions and one
frozen view per turn go out.

- :mod:`.inbox` queues device events from any thread and holds back a fact that came early;
- :mod:`.facts` maps a device's fact to the round's command (pure);
- :mod:`.device_desk` drives the devices and keeps their health;
- :mod:`.jackpot_desk` (its steps: :mod:`.jackpot_steps`), :mod:`.card_desk`,
  :mod:`.test_desk` and :mod:`.staff` are the jackpot, the card wanted, the technician's test
  mode and the staff list;
- :mod:`.build_view` builds the view, with no side effect; :mod:`.turns` hands it to the
  listeners once per turn.

Threads: a driver's I/O thread only calls :meth:`TableController.deliver`, which queues the
event and calls ``wake`` (the console's Qt bridge emits a queued signal there; a headless owner
just calls :meth:`pump`). Everything else runs on the thread that owns the database. Each
public step is one turn: whatever it changed, listeners get one new view at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from sqlite_utils import Database

from dealer_console.cards import Card
from dealer_console.controller.build_view import ViewParts, build_view
from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.card_steps import CardSteps
from dealer_console.controller.device_desk import DeviceDesk, TableDevices
from dealer_console.controller.device_events import DeviceEvents
from dealer_console.controller.facts import (
    HANDS,
    deal_id_for,
    lock_id_for,
)
from dealer_console.controller.inbox import Inbox
from dealer_console.controller.jackpot_desk import JackpotDesk
from dealer_console.controller.jackpot_steps import JackpotSteps
from dealer_console.controller.link_device import LINK_DEVICE as LINK_DEVICE
from dealer_console.controller.link_device import (
    LinkAnswered,
    LinkHealthChanged,
    link_device,
    staff_list_device,
)
from dealer_console.controller.notice_keeper import NoticeKeeper
from dealer_console.controller.offers import answered, supervisor_problems
from dealer_console.controller.questions import SettingPreview, preview, sets_own_hand, wager_hint
from dealer_console.controller.staff import StaffDesk
from dealer_console.controller.table_root import OpenTable
from dealer_console.controller.test_desk import TestModeDesk
from dealer_console.controller.test_mode import IN_TEST_MODE
from dealer_console.controller.turns import Listener, Turns, one_turn
from dealer_console.controller.view import Level, Notice, TableAbout, TableSnapshot
from dealer_console.devices.diagnostics import DeviceDriver, DiagnosticsSnapshot, RawFrame
from dealer_console.devices.events import DeviceEvent
from dealer_console.employees.authorize import log_accepted
from dealer_console.employees.registry import Employee, Role
from dealer_console.errors import RefusalCode
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused, decide
from dealer_console.round.phases import ACCEPTS, WHAT, not_accepted
from dealer_console.round.state import Phase, RoundState
from dealer_console.setting import Setting
from dealer_console.storage.anchor import JournalRefused
from dealer_console.storage.connection import TableDatabase
from dealer_console.storage.eventlog import Event
from dealer_console.storage.identity import StorageError

__all__ = ["HANDS", "TableController", "TableDevices", "deal_id_for", "lock_id_for"]

class TableController(JackpotSteps, CardSteps):
    """The façade (see the module doc); the jackpot's steps come from :class:`JackpotSteps`,
    the card prompt's from :class:`CardSteps`."""

    def __init__(self, opened: OpenTable, devices: TableDevices | None = None,
                 wake: Callable[[], None] | None = None) -> None:
        self.opened = opened
        self.table = opened.table
        self.rules = opened.rules
        self.turns = Turns(self._build_view)
        self._notice: Notice | None = None
        self._notices = 0
        self.inbox = Inbox(wake)
        self.device_desk = DeviceDesk(devices or TableDevices(), self.rules, self.inbox)
        self._link = opened.link
        if self._link is not None:  # the link's health redraws the device area when it turns
            self._link.health.watch(
                lambda: self.deliver(LinkHealthChanged(device=LINK_DEVICE, seq=0)))
            self._link.answers_to(  # a linked hit's award, from the asker's thread
                lambda answer: self.deliver(LinkAnswered(device=LINK_DEVICE, seq=0,
                                                         answer=answer)))
        self.cards = CardDesk(self.table.db, self._changed,
                              lambda why: self._tell(Level.REFUSED, why, code=RefusalCode.NOT_NOW),
                              opened.jackpot is not None and bool(opened.jackpot.pin_spots))
        self.jackpot = JackpotDesk(opened.jackpot, self.table, self.rules, self.cards,
                                   self._tell, self._changed, self._after)
        self.bench = TestModeDesk(self.table, self.rules, self.device_desk, self.cards,
                                  self._changed, self._disarm)
        hook = self._link
        self.about = TableAbout(
            opened.profile, opened.db_path, dict(hook.links) if hook is not None else {},
            hook.table_id if hook is not None else "",
            opened.link_senders[0].dsn if opened.link_senders else None,
            self.table.db.file if isinstance(self.table.db, TableDatabase) else None)
        """What the screens' titles and their own readers need of the open table."""
        self.staff = StaffDesk(self.table.db, self._changed, self.cards.pins_in_force)
        """The staff list, changed for an executive authorised by :meth:`want_card`."""
        self.kept = NoticeKeeper(self.table.db, self._tell, lambda: self.state.round_id)
        """The warnings about the round's evidence, kept in the log as they are told."""
        self.turns.before = self.kept.save  # one the disk refused: written at the next turn
        self.events = DeviceEvents(self.table, self.inbox, self.device_desk, self.jackpot,
                                   self.cards, self.bench, self, self._applied, self._tell,
                                   self._changed, lambda: self._notices, self.kept)

    @property
    def buttons_pressed(self) -> int:
        """Keypad buttons acted on since the controller started (for observers and tests)."""
        return self.events.buttons_pressed

    @property
    def devices(self) -> TableDevices:
        return self.device_desk.devices

    @property
    def wake(self) -> Callable[[], None] | None:
        return self.inbox.wake

    @wake.setter
    def wake(self, wake: Callable[[], None] | None) -> None:
        self.inbox.wake = wake

    # -- what screens read ------------------------------------------------------------------

    @property
    def state(self) -> RoundState:
        """The round as it stands (the table's own object: screens use :meth:`snapshot`)."""
        return self.table.state

    def snapshot(self) -> TableSnapshot:
        return self.turns.view()

    @property
    def notice(self) -> Notice | None:
        """The latest notice, as the next view shows it, without building that view (the
        simulated dealer reads it after every step)."""
        return self._notice

    def add_listener(self, listener: Listener) -> None:
        """``listener`` is called on the owner thread with the new view after every turn that
        changed something."""
        self.turns.listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self.turns.listeners.remove(listener)

    @property
    def listeners(self) -> tuple[Listener, ...]:
        return tuple(self.turns.listeners)

    def accepts(self, kind: type[c.Command]) -> bool:
        return kind in ACCEPTS[self.state.phase]

    def check(self, cmd: c.Command) -> str | None:
        """Why the round would refuse ``cmd`` now, or None: the machine is asked and nothing
        changes (python-chess's ``is_legal``), so a screen enables what the rules allow."""
        if self.bench.active:
            return IN_TEST_MODE
        problem = not_accepted(self.state.phase, type(cmd))
        if problem:
            return problem
        try:
            decide(self.state, self.rules, cmd, self.table.services)
        except Refused as exc:
            return exc.why
        if isinstance(cmd, c.EndGame):  # the jackpot's part of the step (Table._hook)
            return self.table.jackpot.end_problem(self.table.db, self.state.round_id)
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
        waiting = self.device_desk.waiting_for(st)
        if waiting is None and self.jackpot.asking() is not None:
            waiting = "the jackpot link to pay the hit"
        return waiting or self.device_desk.dealing(st)

    # -- device events (any thread in, owner thread applies) ---------------------------------

    def deliver(self, event: DeviceEvent) -> None:
        """A driver's event, from its I/O thread (or a test standing in for one): queued for
        the owner thread; never touches the database here."""
        self.inbox.put(event)

    @property
    def events_waiting(self) -> bool:
        """Device events are queued for :meth:`pump`."""
        return self.inbox.waiting

    @property
    def events_stalled(self) -> bool:
        """The first device event waits for the disk to take it: pump again later."""
        return self.inbox.stalled

    @property
    def storage_failure(self) -> StorageError | None:
        """Why the disk refused the last device event, until one is saved."""
        return self.events.storage_failure

    @one_turn
    def pump(self, timeout: float = 0.0, max_events: int | None = None) -> int:
        """Apply queued device events on the owner thread; wait up to ``timeout`` for the
        first. Returns how many were applied."""
        done = 0
        while max_events is None or done < max_events:
            event = self.inbox.next(timeout if done == 0 else 0.0)
            if event is None:
                break
            more = HANDS if max_events is None else max_events - done - 1
            done += self.events.apply(event, more)  # a deal's waiting hands may go with it
            if self.inbox.stalled:  # the disk refused it: tried again at the next pump
                self.events.while_stalled()
                break
        return done

    # -- dealer commands (owner thread) -----------------------------------------------------

    @one_turn
    def do(self, cmd: c.Command) -> list[Event]:
        """Apply a dealer's command; raises :class:`~dealer_console.errors.Refusal` with the
        reason (nothing changed). A supervisor's command goes through :meth:`supervise`."""
        self.bench.refuse_in_test_mode()
        if c.names_a_supervisor(cmd):
            raise Refused(f"{WHAT[type(cmd)]} is a supervisor's: open the supervisor's screens "
                          "with a supervisor's card", RefusalCode.STAFF)
        if isinstance(cmd, c.DeckCounted) and cmd.shuffler:
            raise Refused("the shuffler's count comes from the shuffler: count the deck in it")
        if isinstance(cmd, c.JackpotHit):  # its confirmers come from cards, never a command
            raise Refused("a jackpot hit is paid only on the cards swiped for it (and their "
                          "PINs), at the keypad: mark the hand, then swipe",
                          RefusalCode.JACKPOT_MARK)
        return self._handle(cmd)

    @one_turn
    def supervise(self, cmd: c.Command, by: Employee,
                  where: str = "on the supervisor's screens") -> list[Event]:
        """A supervisor's command (a void, a deck count, a banker hand reconstructed, a misdeal
        the dealer declares, a new high card) from the screens ``by`` opened with their card,
        or on their card swiped at the table (``where``): ``by`` is read again from the staff
        list (still enabled, of the role, the same card), the round's log names them as the
        list does, and the employee log keeps the authorisation in the transition's own
        transaction. An outside review found the name a free text the command took from
        anyone, with nothing in the employee log."""
        self.bench.refuse_in_test_mode()
        now = self.staff.on_file(by, Role.SUPERVISOR)
        named = c.naming(cmd, f"{now.name} ({now.employee_id})")
        what = f"{WHAT[type(cmd)]} in round {self.state.round_id}, {where}"
        return self._handle(named, also=lambda db: log_accepted(db, now, what))

    def start_game_problem(self) -> str | None:
        """Why START GAME cannot be taken now (the round's rules, or a device the step needs
        that is not there), or None."""
        if self.bench.active:
            return IN_TEST_MODE
        problem = self.check(c.StartGame())
        if problem:
            return problem
        desk = self.device_desk
        if desk.lock_id is not None:
            return "START GAME is under way: waiting for the bet sensors"
        if desk.shuffler_deals():
            problem = desk.missing(self.devices.shuffler, "the deal")
        return problem or desk.missing(desk.jackpot_sensors(), "START GAME")

    @one_turn
    def start_game(self) -> None:
        """START GAME: on a jackpot table the sensors are locked first and the round starts
        when they answer with the chips they hold; elsewhere at once."""
        self.bench.refuse_in_test_mode()
        problem = self.check(c.StartGame())
        if problem:
            raise Refused(problem)
        desk = self.device_desk
        if desk.shuffler_deals():
            desk.need(self.devices.shuffler, "the deal")
        desk.need(desk.jackpot_sensors(), "START GAME")  # raised with what to do
        problem = self.start_game_problem()
        if problem:
            raise Refused(problem)
        if desk.jackpot_sensors() is None:
            self._handle(c.StartGame())
            return
        desk.lock(self.state.round_id)
        self._changed()

    @one_turn
    def end_game(self) -> None:
        self.bench.refuse_in_test_mode()
        self._handle(c.EndGame())

    @one_turn
    def count_deck(self) -> None:
        """After a misdeal that needs it: the shuffler counts the deck (53 expected)."""
        st = self.state
        if st.phase is not Phase.MISDEAL or not st.deck_count_due:
            raise Refused("no deck count is due now")
        shuffler = self.devices.shuffler
        if shuffler is None:
            raise Refused("no shuffler here: count the deck by hand and enter the count")
        self.device_desk.need(shuffler, "the deck count")
        self.device_desk.count_deck()
        self._changed()

    def first_hand_went_to(self, seat: int) -> None:
        """The dealer put the coming first hand at ``seat`` (``DeviceDesk.first_hand_at``)."""
        self.device_desk.first_hand_at(self.state, seat)

    # a card wanted for something other than a jackpot hit: :class:`.card_steps.CardSteps`

    @one_turn
    def swipe(self, track: str) -> None:
        """A swipe from a reader other than the keypad's (a test, a USB reader): the same
        path as the keypad's."""
        self.events.swiped(track)

    # the technician's test mode (see :mod:`.test_desk`)

    @property
    def in_test_mode(self) -> bool:
        return self.bench.active

    def test_mode_problem(self) -> str | None:
        """Why test mode cannot be entered now, or None."""
        return self.bench.problem()

    @one_turn
    def ask_test_mode(self, on_entered: Callable[[Employee], object]) -> None:
        """A technician's card enters test mode (refused at once when it cannot start);
        ``on_entered`` then opens the technician's screens."""
        self.bench.ask(on_entered)

    @one_turn
    def enter_test_mode(self, employee: Employee) -> None:
        """Enter test mode for ``employee`` (a technician whose card was accepted)."""
        self.bench.enter(employee)

    @one_turn
    def leave_test_mode(self) -> int:
        """Leave test mode (a candidate device not kept is put back); returns the seconds
        spent, as logged."""
        return self.bench.leave()

    @one_turn
    def run_test(self, device: str, action: str) -> None:
        """Start a technician's test on ``device``: the shuffler's ``test deal`` (seven hands
        that never reach a round), or one of the driver's own test actions."""
        self.bench.run(device, action)

    def device_names(self) -> tuple[str, ...]:
        """The table's devices (``shuffler``, ``bet-sensors``, ``keypad``), those it has."""
        return tuple(d.name for d in self.devices.all())

    def diagnostics(self, device: str) -> DiagnosticsSnapshot | None:
        return self.device_desk.diagnostics(device)

    def frames(self, device: str, after: int = 0) -> tuple[RawFrame, ...]:
        """The device's raw frames since number ``after`` (any thread's driver, read here)."""
        return self.device_desk.frames(device, after)

    @one_turn
    def try_device(self, candidate: DeviceDriver) -> None:
        """Device set-up (test mode only): stop the table's device of the candidate's name
        and run the candidate in its place, subscribed like the first; kept with
        :meth:`keep_device`, or the old one put back with :meth:`restore_device`."""
        self.bench.try_device(candidate)

    def keep_device(self, name: str, old: object | None = None,
                    new: object | None = None) -> None:
        """The technician saved ``name``'s tested settings (``old`` before, ``new`` now):
        kept in use, and the change logged in the table's chain with who made it."""
        self.bench.keep_device(name, old, new)

    @one_turn
    def restore_device(self, name: str) -> None:
        self.bench.restore_device(name)

    # -- the handling step -------------------------------------------------------------------

    def _handle(self, cmd: c.Command, device: str | None = None,
                fact: Hashable | None = None,
                also: Callable[[Database], object] | None = None) -> list[Event]:
        return self._applied(lambda: self.table.handle(cmd, device=device, fact=fact,
                                                       also=also))

    def _applied(self, step: Callable[[], list[Event]]) -> list[Event]:
        """The events of ``step`` (the table's transaction), then what follows them."""
        before = self.table.state
        events = step()
        if events:
            self._after(before)
        return events

    def _after(self, before: RoundState) -> None:
        """After a transition: each phase's device actions, the jackpot's marks of the cards
        now known, the facts held back tried again."""
        st = self.state
        if st.round_id != before.round_id:
            self._new_round()
            # the round's last transaction is committed: anchor the chain outside the file
            self._write_checkpoint(before.round_id)
        elif st.phase is Phase.ACTION and (before.phase is not Phase.ACTION
                                           or st.deal_no != before.deal_no):
            self.device_desk.request_deal(st)
        self.jackpot.show_cards(st)
        self.inbox.release_held()
        self._changed()

    @one_turn
    def start(self) -> None:
        """Bring the devices in line with the round as it was resumed (after a restart): a
        deal in progress is asked for again (the facts already applied are recognised), the
        sensors locked again for a round in play or released between rounds; the marks of
        the cards already known are shown."""
        self.jackpot.show_cards(self.state)  # first: the deal is asked for last, as before
        self.device_desk.resume(self.state)
        self._changed()

    def _write_checkpoint(self, round_id: int) -> None:
        """The round is committed whatever happens here: a journal the disk refuses is told
        (it was raised past the new round's set-up), and the next round's end writes it."""
        try:
            self.opened.journal.write(self.table.db)
        except OSError as exc:
            fix = ("to see to the journal" if isinstance(exc, JournalRefused)
                   else "to free space")
            self._tell(Level.WARNING, f"round {round_id} is saved, but its checkpoint could not "
                       f"be written beside the database ({exc.strerror or exc})", "call a "
                       f"technician {fix}: the next round's end writes it again")

    def _new_round(self) -> None:
        self.jackpot.new_round()
        self.inbox.drop_held()
        self.device_desk.new_round()

    def _disarm(self) -> None:
        self.jackpot.armed = False

    def _tell(self, level: Level, what: str, todo: str = "",
              code: RefusalCode | None = None) -> None:
        self._notices += 1
        self._notice = Notice(level, what, todo, self._notices, code)
        self._changed()

    # -- one view per turn -------------------------------------------------------------------

    def _changed(self) -> None:
        self.turns.changed()

    def _build_view(self) -> TableSnapshot:
        jackpot = self.jackpot
        void_problem, deck_count_problem = supervisor_problems(self.check)
        return build_view(self.rules, self.state, ViewParts(
            title=self.opened.profile.title, waiting_for=self.waiting_for,
            devices=(self.device_desk.views() + link_device(self._link)
                     + staff_list_device(self.staff.trouble())),
            jackpot=jackpot.view(self.state), jackpot_game=jackpot.game,
            jackpot_armed=jackpot.armed, notice=self._notice, card_wanted=self.cards.prompt,
            card_pin=self.cards.pin is not None, win_page=jackpot.win_page, bench=self.bench.view(),
            has_jackpot=jackpot.system is not None,
            offers=answered(self.state, self.check, self.rules),
            start_game_problem=self.start_game_problem(), void_problem=void_problem,
            deck_count_problem=deck_count_problem))
