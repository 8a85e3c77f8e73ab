"""The table's devices as the controller drives them: which driver fills each slot, each one's
health, and the device steps of a round (the sensors' lock, the shuffler's deal and deck
count). The desk acts on devices and keeps what it asked for; it never touches the round.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from dealer_console.controller.facts import HANDS, deal_id_for, lock_id_for
from dealer_console.controller.health import TITLES, DeviceHealth
from dealer_console.controller.inbox import Inbox
from dealer_console.controller.view import DeviceView
from dealer_console.devices.bet_sensors import BetSensorControl
from dealer_console.devices.diagnostics import DeviceDriver, DiagnosticsSnapshot, RawFrame
from dealer_console.devices.events import DeviceEvent
from dealer_console.devices.keypad import KeypadControl, KeypadEvent
from dealer_console.devices.kinds import kind_named, kinds
from dealer_console.devices.shuffler import ShufflerControl
from dealer_console.errors import RefusalCode
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.machine import Refused
from dealer_console.round.rules import ActionSeatMethod, DealMethod, RoundRules
from dealer_console.round.state import Phase, RoundState


@dataclass
class TableDevices:
    """The table's devices, through the control interfaces the drivers fulfil; any may be
    absent (a table without a jackpot has no sensors or keypad). A kind registered beyond the
    three (``devices/kinds.py``) has its driver in ``more``, by the kind's name."""

    shuffler: ShufflerControl | None = None
    bet_sensors: BetSensorControl | None = None
    keypad: KeypadControl | None = None
    more: dict[str, DeviceDriver] = field(default_factory=dict)

    def all(self) -> list[DeviceDriver]:
        """Every device the table has, in the registry's order."""
        found = [self.named(k.name) for k in kinds()]
        return [d for d in found if d is not None]

    def named(self, name: str) -> DeviceDriver | None:
        kind = kind_named(name)
        if kind is None:
            return None
        if kind.attr in _SLOTS:
            driver: DeviceDriver | None = getattr(self, kind.attr)
            return driver
        return self.more.get(kind.name)

    def put(self, driver: DeviceDriver) -> None:
        """Make ``driver`` the table's device of its kind (its name: ``shuffler``,
        ``bet-sensors``, ``keypad`` or a registered kind's)."""
        kind = kind_named(driver.name)
        if kind is None:
            raise ValueError(f"no device slot for a driver named {driver.name!r}")
        if kind.attr in _SLOTS:
            setattr(self, kind.attr, driver)
        else:
            self.more[kind.name] = driver


_SLOTS = ("shuffler", "bet_sensors", "keypad")

SHORT_DEAL = ("a misdeal: the shuffler has finished this deal, but not all of it reached the "
              "console (a restart while it dealt, or a jam); declare a misdeal and deal again")
SHORT_DEAL_IN_ACTION = ("a misdeal: the shuffler has finished this deal, but its hands did not "
                        "reach the console (a restart while they waited); enter the action, "
                        "then declare a misdeal and deal again")
REFUSED_DEAL = ("a misdeal: the shuffler will not take this deal's number (it dealt it before: "
                "the table's database put back from a backup, or another console); declare a "
                "misdeal and deal again, under a new number")
REFUSED_DEAL_IN_ACTION = ("a misdeal: the shuffler will not take this deal's number (it dealt it "
                          "before: the table's database put back from a backup, or another "
                          "console); enter the action, then declare a misdeal and deal again, "
                          "under a new number")
ASKS_AGAIN = 3
"""Times a deal is asked for again while the shuffler, ready, does not take it: enough for a
status that crossed the request or a door closed after it; beyond that it refuses the number.
An outside review's restored table asked 2,200 times a second for good, the dealer not told."""


class DeviceDesk:
    def __init__(self, devices: TableDevices, rules: RoundRules, inbox: Inbox) -> None:
        self.devices = devices
        self.rules = rules
        self._inbox = inbox
        self._subscribed: set[int] = set()
        for driver in devices.all():
            self.subscribe(driver)  # before reading the state: no change is missed
        self.health = {d.name: DeviceHealth(d.name, d.state) for d in devices.all()}
        self.deal_id: int | None = None
        """The deal the shuffler was last asked for."""
        self.deal_open = False
        """The shuffler is still delivering deal :attr:`deal_id`."""
        self.deal_seen = False
        """The shuffler has said it took deal :attr:`deal_id` (a status or a fact of it)."""
        self.deal_wanted = False
        """A new deal waits for the shuffler to finish the last."""
        self.deal_short = False
        """The shuffler is done with the deal asked for, but facts of it never reached the
        round (a restart while they waited, a jam): only a misdeal moves the round on."""
        self.deal_refused = False
        """The shuffler would not take the deal's number (:data:`ASKS_AGAIN`): only a misdeal,
        whose redeal has a new number, moves the round on."""
        self.asked_again = 0
        """Times the open deal was asked for again (``ask_again``)."""
        self.lock_id: int | None = None
        """START GAME is under way: the sensors' lock asked for, not yet answered."""
        self.counting = False
        """The shuffler is counting the deck after a misdeal."""
        self.first_seat: int | None = None
        """Where the dealer said the coming first hand went (None: the first position)."""
        self.tried: dict[str, DeviceDriver] = {}
        """The device a technician's candidate replaced, until it is kept or put back."""

    # -- health -------------------------------------------------------------------------------

    def apply_health(self, event: DeviceEvent) -> bool:
        """True when ``event`` changed what the dealer sees of its device."""
        health = self.health.get(event.device)
        return health is not None and health.apply(event)

    def views(self) -> tuple[DeviceView, ...]:
        return tuple(h.view() for h in self.health.values())

    def missing(self, driver: DeviceDriver | None, what: str) -> str | None:
        """Why ``what`` waits for ``driver``'s device (not connected), or None."""
        if driver is None:
            return None
        health = self.health[driver.name]
        if health.connected:
            return None
        return f"{health.view().fault or TITLES.get(driver.name, driver.name)}: {what} waits"

    def need(self, driver: DeviceDriver | None, what: str) -> None:
        problem = self.missing(driver, what)
        if problem and driver is not None:
            raise Refused(f"{problem}; {self.health[driver.name].view().todo}",
                          RefusalCode.DEVICE_MISSING)

    # -- what the round's steps ask of the devices --------------------------------------------

    def shuffler_deals(self) -> bool:
        return self.rules.deal_method is DealMethod.SHUFFLER

    def jackpot_sensors(self) -> BetSensorControl | None:
        """The bet sensors, on a table with a jackpot game; else None."""
        if not any(k in self.rules.wager_kinds for k in JACKPOT_KINDS.values()):
            return None
        return self.devices.bet_sensors

    def lock(self, round_id: int) -> None:
        sensors = self.jackpot_sensors()
        assert sensors is not None
        self.lock_id = lock_id_for(round_id)
        sensors.lock(self.lock_id)

    def release_sensors(self) -> None:
        self.lock_id = None
        sensors = self.jackpot_sensors()
        if sensors is not None:
            sensors.unlock()

    def request_deal(self, st: RoundState) -> None:
        """Ask the shuffler for the round's current deal; while it still delivers an earlier
        deal, the request waits for that deal's end (a real machine finishes a deal). Facts
        held back for the old deal are void."""
        self._inbox.drop_held()
        self.first_seat = None
        if not self.shuffler_deals() or self.devices.shuffler is None:
            return
        deal_id = deal_id_for(st.round_id, st.deal_no)
        if self.deal_open and self.deal_id != deal_id:
            self.deal_wanted = True
            return
        self.deal_id, self.deal_open, self.deal_wanted = deal_id, True, False
        self.deal_seen = self.deal_short = self.deal_refused = False
        self.asked_again = 0
        self.devices.shuffler.start_deal(HANDS, deal_id)

    def ask_again(self) -> bool:
        """The open deal asked for again (the shuffler, ready, has not taken it); False, and
        nothing asked, once it has been :data:`ASKS_AGAIN` times: the machine refuses it."""
        if self.asked_again >= ASKS_AGAIN:
            return False
        if self.deal_open and self.deal_id is not None and self.devices.shuffler is not None:
            self.asked_again += 1
            self.devices.shuffler.start_deal(HANDS, self.deal_id)
        return True

    def first_hand_at(self, st: RoundState, seat: int) -> None:
        """The dealer put the coming first hand at ``seat`` (not the first position): the deal
        goes on from there and the hands are moved afterwards (CorrectFirstHand)."""
        if st.phase not in (Phase.ACTION, Phase.DEALING) or st.delivered:
            raise Refused("the first hand's seat is told before the first hand is dealt")
        if seat not in self.rules.seats:
            raise Refused(f"seat {seat} is not at this table")
        self.first_seat = seat

    def count_deck(self) -> None:
        shuffler = self.devices.shuffler
        assert shuffler is not None
        self.counting = True
        shuffler.count_deck()

    def new_round(self) -> None:
        self.counting, self.deal_wanted, self.first_seat = False, False, None
        self.release_sensors()

    def resume(self, st: RoundState) -> None:
        """After a restart: the sensors locked again for a round in play or released between
        rounds, and a deal in progress asked for again (facts already applied are known)."""
        sensors = self.jackpot_sensors()
        if sensors is not None:
            if st.phase in (Phase.BANKER, Phase.BETTING):
                sensors.unlock()
            else:
                sensors.lock(lock_id_for(st.round_id))
        if st.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK):
            self.request_deal(st)

    def waiting_for(self, st: RoundState) -> str | None:
        """The device step the table waits on, before the jackpot link's (see the
        controller), or None."""
        if self.lock_id is not None:
            return "the bet sensors to lock the wagers"
        if self.counting:
            return "the shuffler to count the deck"
        if self.deal_wanted:
            return "the shuffler to finish its last deal"
        return None

    def dealing(self, st: RoundState) -> str | None:
        """"the shuffler's hands" while the round waits for them, else None."""
        dealing = st.phase is Phase.DEALING or (
            st.phase is Phase.ACTION and self.rules.action_method is ActionSeatMethod.SHUFFLER
        ) or (st.phase is Phase.DEAL_CHECK and st.wrong_start is None)
        stuck = st.phase in (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK)
        if self.deal_refused and stuck:
            return REFUSED_DEAL_IN_ACTION if st.phase is Phase.ACTION else REFUSED_DEAL
        if self.deal_short and stuck:
            return (SHORT_DEAL_IN_ACTION if st.phase is Phase.ACTION else SHORT_DEAL)
        if dealing and self.shuffler_deals() and self.deal_id is not None:
            return "the shuffler's hands"
        return None

    # -- the technician's reads and device set-up ---------------------------------------------

    def diagnostics(self, device: str) -> DiagnosticsSnapshot | None:
        driver = self.devices.named(device)
        return None if driver is None else driver.diagnostics()

    def frames(self, device: str, after: int = 0) -> tuple[RawFrame, ...]:
        """The device's raw frames since number ``after`` (any thread's driver, read here)."""
        driver = self.devices.named(device)
        return () if driver is None else driver.frames(after)

    def try_device(self, candidate: DeviceDriver) -> None:
        """Stop the table's device of the candidate's name and run the candidate in its place,
        subscribed like the first; kept with :meth:`keep`, or the old one put back with
        :meth:`restore`."""
        name = candidate.name
        current = self.devices.named(name)
        if current is not None:
            current.stop()
            self.tried.setdefault(name, current)
        self._install(candidate)

    def keep(self, name: str) -> None:
        self.tried.pop(name, None)

    def restore(self, name: str) -> None:
        old = self.tried.pop(name, None)
        if old is None:
            return
        current = self.devices.named(name)
        if current is not None:
            current.stop()
        self._install(old)

    def _install(self, driver: DeviceDriver) -> None:
        self.subscribe(driver)
        self.devices.put(driver)
        self.health[driver.name] = DeviceHealth(driver.name)
        driver.start()

    def subscribe(self, driver: DeviceDriver) -> None:
        if id(driver) not in self._subscribed:
            self._subscribed.add(id(driver))
            driver.subscribe(self._inbox.put, only_reader=True, unread=self._from_before)

    def _from_before(self, event: DeviceEvent) -> None:
        """An event the driver had before this console read it: a keypad's press or swipe
        then was made while no console read it (a restart: an outside review's START GAME,
        pressed while the console was down, started the round when it came back), so it is
        told, not acted on, like one kept while the cable was out."""
        if isinstance(event, KeypadEvent) and not event.kept:
            event = dataclasses.replace(event, kept=True)
        self._inbox.put(event)
