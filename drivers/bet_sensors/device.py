"""The bet-sensor driver: polls the seat nodes, turns their states into round events.

Every request is idempotent (a poll reads, a light or a lock is set to a value, and a lock
with the same id twice latches once), so the master simply asks again when an answer is
late or damaged; after ``tries`` silent attempts the node is reported offline and polled
slowly until it answers. A node reports its whole state each time, with sticky late and
removed bits per lock, so a chip placed and taken away between two polls is still reported,
and a lost answer loses nothing: the next one carries the same facts. The driver reports
each fact once per lock (see ``dealer_console.devices.bet_sensors``).
"""

from __future__ import annotations

import collections
import random
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dealer_console.devices.bet_sensors import (
    SEATS,
    BetRemoved,
    BetsLocked,
    BetSpotChanged,
    BetsUnlocked,
    LateBet,
    LightColour,
    LightMode,
    NodeLightTest,
    SensorNodeChanged,
    Spot,
)
from dealer_console.devices.config import BetSensorsConfig
from drivers.backoff import Backoff
from drivers.base import DeviceThread, TransportFactory
from drivers.bet_sensors import framer as f
from drivers.clock import REAL_CLOCK, Clock
from drivers.transport import SerialTransport


@dataclass
class _Node:
    seat: int
    online: bool | None = None
    """None until the node first answers or first fails."""
    state: f.State | None = None
    firmware: str = ""
    serial_number: str = ""
    queue: collections.deque[f.Request] = field(default_factory=collections.deque)
    next_poll: float = 0.0
    identified: bool = False
    reported_present: int = 0
    """The chips the round was last told of (bitmap)."""
    needs_poll: bool = False
    spots: int = 2
    """Spots fitted, as the node says; lights of spots it lacks are never asked for."""


@dataclass
class _Transaction:
    seat: int
    seq: int
    request: f.Request
    sent_at: float
    tries: int = 1


class BetSensorDriver(DeviceThread):
    """Master of the bet-sensor bus. Public methods are safe from any thread."""

    def __init__(
        self,
        port: str | TransportFactory,
        *,
        name: str = "bet-sensors",
        seats: Iterable[int] = range(1, SEATS + 1),
        baudrate: int = 115200,
        reply_timeout: float = 0.03,
        tries: int = 3,
        poll_interval: float = 0.02,
        offline_poll_interval: float = 0.5,
        silence_timeout: float = 3.0,
        backoff: Backoff | None = None,
        clock: Clock = REAL_CLOCK,
        first_lock_id: int | None = None,
        light_test_seconds: float = 2.0,
        offline_tries: int | None = None,
    ) -> None:
        """``offline_tries``: attempts per probe of a node already off the bus (``tries`` when
        not given). Each probe holds the bus from the nodes that answer for up to
        ``offline_tries * reply_timeout``; the simulated table, patient with a loaded machine
        (0.5 s a reply), asks once, or a silent node held its bus 2.5 s of every 2.6."""
        opener: TransportFactory = (
            (lambda: SerialTransport(port, baudrate)) if isinstance(port, str) else port
        )
        super().__init__(name, opener, backoff=backoff, silence_timeout=silence_timeout,
                         clock=clock,
                         describe=f.describe)
        self._nodes = {seat: _Node(seat) for seat in sorted(set(seats))}
        bad = [s for s in self._nodes if not 1 <= s <= SEATS]
        if bad or not self._nodes:
            raise ValueError(f"bet-sensor seats must be among 1-{SEATS}, got {sorted(self._nodes)}")
        self._framer = f.BetSensorFramer()
        self._reply_timeout = reply_timeout
        self._tries = tries
        self._offline_tries = tries if offline_tries is None else offline_tries
        self._poll_interval = poll_interval
        self._offline_poll_interval = offline_poll_interval
        self._bus_seq = 0
        self._txn: _Transaction | None = None
        self._turn = 0
        self._lock_ids = iter(range(first_lock_id or random.randint(1, 0xFFFF), 1 << 62))
        self._lock_id = 0
        """The lock in force (0: unlocked), as the console asked it."""
        self._locking: set[int] = set()
        self._latched_early: set[int] = set()
        """Seats not in the lock that latched it before :class:`BetsLocked` went out."""
        self._unlocking: set[int] = set()
        self._unlock_id = 0
        self._wagered: frozenset[Spot] = frozenset()
        self._lights: dict[Spot, tuple[LightMode, LightColour]] = {}
        """The lights as the round set them, shown again when a light test ends."""
        self._light_test_seconds = light_test_seconds
        self._light_test_until: float | None = None
        self._light_testing: set[int] = set()
        """Seats whose light test waits for their node's answer (reported once)."""
        self._reported: dict[int, set[Hashable]] = {}
        """The facts already reported, per lock id; only the lock in force and the one being
        released are kept, so the memory stays bounded round after round and a lock id used
        again (they wrap at 65535, or the round chooses them) starts afresh."""

    @classmethod
    def from_config(cls, config: BetSensorsConfig, **kwargs: Any) -> BetSensorDriver:
        """The driver a devices file describes (``dealer_console.devices.config``)."""
        return cls(
            config.port,
            seats=config.seats,
            baudrate=config.baudrate,
            reply_timeout=config.reply_timeout,
            tries=config.tries,
            poll_interval=config.poll_interval,
            offline_poll_interval=config.offline_poll_interval,
            silence_timeout=config.silence_timeout,
            **kwargs,
        )

    # ------------------------------------------------------------------ commands
    def set_light(
        self, spot: Spot, mode: LightMode, colour: LightColour = LightColour.WHITE
    ) -> None:
        self._check_seat(spot.seat)
        self.submit(lambda: self._want_light(spot, mode, colour))

    def lock(self, lock_id: int | None = None) -> int:
        """Lock every spot (START GAME); returns the lock id. A :class:`BetsLocked` follows
        once every answering node has latched its wagers."""
        if lock_id is None:
            lock_id = (next(self._lock_ids) - 1) % 0xFFFF + 1
        if not 1 <= lock_id <= 0xFFFF:
            raise ValueError(f"lock id {lock_id} is outside 1-65535")
        self.submit(lambda: self._start_lock(lock_id))
        return lock_id

    def unlock(self) -> None:
        """Release the lock (END GAME); a :class:`BetsUnlocked` follows."""
        self.submit(self._start_unlock)

    def test_actions(self) -> tuple[str, ...]:
        return ("light test", "lights off", *(f"light seat {seat}" for seat in self._nodes))

    def run_test_action(self, action: str) -> None:
        """``light test``: every light blinks white for ``light_test_seconds``, then shows
        what the round had set again; ``light seat N``: the same for one seat's node, so a
        technician sees each node answer in turn. ``lights off``: every light off (the round's
        settings are forgotten)."""
        seat = action.removeprefix("light seat ")
        if action == "light test":
            self.submit(self._start_light_test)
        elif seat != action and seat.isdigit() and int(seat) in self._nodes:
            self.submit(lambda: self._start_light_test(int(seat)))
        elif action == "lights off":
            self.submit(self._lights_off)
        else:
            raise ValueError(f"the bet sensors have no test action {action!r}")

    def _every_spot(self, seat: int | None = None) -> list[Spot]:
        seats = self._nodes if seat is None else (seat,)
        return [Spot(s, spot) for s in seats for spot in (1, 2)]

    def _want_light(self, spot: Spot, mode: LightMode, colour: LightColour) -> None:
        self._lights[spot] = (mode, colour)
        if self._light_test_until is None:
            self._queue(spot.seat, f.SetLight(spot.spot, mode, colour))

    def _start_light_test(self, seat: int | None = None) -> None:
        self._light_test_until = self._now() + self._light_test_seconds
        self.diag.set_extra("light test", "on" if seat is None else f"seat {seat}")
        if seat is not None:
            self._light_testing.add(seat)
        for spot in self._every_spot(seat):
            self._queue(spot.seat, f.SetLight(spot.spot, LightMode.BLINK, LightColour.WHITE))

    def _end_light_test(self) -> None:
        self._light_test_until = None
        self.diag.set_extra("light test", "off")
        for spot in self._every_spot():
            mode, colour = self._lights.get(spot, (LightMode.OFF, LightColour.WHITE))
            self._queue(spot.seat, f.SetLight(spot.spot, mode, colour))

    def _lights_off(self) -> None:
        self._lights.clear()
        self._end_light_test()

    def _check_seat(self, seat: int) -> None:
        if seat not in self._nodes:
            raise ValueError(f"seat {seat} has no bet-sensor node on this table")

    # ------------------------------------------------------------------ I/O thread
    def _queue(self, seat: int, request: f.Request) -> None:
        node = self._nodes[seat]
        if isinstance(request, f.SetLight):  # only the latest setting of a light matters
            node.queue = collections.deque(
                r for r in node.queue if not (isinstance(r, f.SetLight) and r.spot == request.spot)
            )
        elif isinstance(request, f.Lock | f.Unlock):
            # Only the latest lock command matters: a node away for many rounds must not
            # collect a LOCK and an UNLOCK per round. Whatever its lock turns out to be when
            # it answers again, :meth:`_reconcile` sends what brings it in line.
            node.queue = collections.deque(
                r for r in node.queue if not isinstance(r, f.Lock | f.Unlock)
            )
        node.queue.append(request)

    def _facts(self, lock_id: int) -> set[Hashable]:
        return self._reported.setdefault(lock_id, set())

    def _forget_facts(self) -> None:
        keep = {self._lock_id, self._unlock_id} - {0}
        for lock_id in [k for k in self._reported if k not in keep]:
            del self._reported[lock_id]

    def _start_lock(self, lock_id: int) -> None:
        if lock_id != self._lock_id:
            self._reported.pop(lock_id, None)  # a new lock, even if its id was used before
        self._lock_id = lock_id
        self._forget_facts()
        self._wagered = frozenset()
        self._latched_early = set()
        self._locking = {s for s, n in self._nodes.items() if n.online is not False}
        for seat in self._nodes:
            self._queue(seat, f.Lock(lock_id))
        self._check_locked()

    def _start_unlock(self) -> None:
        if not self._lock_id:
            return
        self._unlock_id, self._lock_id = self._lock_id, 0
        self._forget_facts()
        self._locking = set()
        self._unlocking = {s for s, n in self._nodes.items() if n.online is not False}
        for seat in self._nodes:
            self._queue(seat, f.Unlock(self._unlock_id))
        self._check_unlocked()

    def _on_open(self) -> None:
        self._txn = None
        for node in self._nodes.values():
            node.next_poll = 0.0

    def _on_close(self) -> None:
        self._framer.reset()
        self._txn = None

    def _on_tick(self, now: float) -> None:
        if self._light_test_until is not None and now >= self._light_test_until:
            self._end_light_test()
        txn = self._txn
        if txn is not None:
            if now - txn.sent_at < self._reply_timeout:
                return
            tries = self._offline_tries if self._nodes[txn.seat].online is False else self._tries
            if txn.tries < tries:
                txn.tries += 1
                txn.sent_at = now
                self._write(self._frame(txn).wire(), retransmission=True)
                return
            self._txn = None
            self._node_failed(self._nodes[txn.seat], now)
        self._next_transaction(now)

    def _next_transaction(self, now: float) -> None:
        seats = list(self._nodes)
        for step in range(len(seats)):
            node = self._nodes[seats[(self._turn + step) % len(seats)]]
            request: f.Request | None = None
            while node.queue:
                head = node.queue[0]
                if not isinstance(head, f.SetLight) or head.spot <= node.spots:
                    break
                node.queue.popleft()  # a node stays silent about a spot it lacks
                self.diag.update(last_error=f"seat {node.seat} has no spot {head.spot}")
            if node.online is not False and node.identified and node.needs_poll:
                # Back on the bus: read its sticky late/removed bits before any command
                # (an UNLOCK would clear them unread).
                request = f.Poll()
            elif node.online is not False and node.queue:
                request = node.queue[0]
            elif node.next_poll <= now:
                request = f.Poll() if node.identified else f.Identify()
            if request is None:
                continue
            self._turn = (self._turn + step + 1) % len(seats)
            self._bus_seq = (self._bus_seq + 1) & 0xFF
            self._txn = _Transaction(node.seat, self._bus_seq, request, now)
            self._write(self._frame(self._txn).wire())
            return

    @staticmethod
    def _frame(txn: _Transaction) -> f.BusFrame:
        return f.BusFrame(txn.seat, False, txn.seq, txn.request)

    def _on_data(self, data: bytes) -> None:
        now = self._now()
        for item in self._framer.feed(data):
            frame = item.frame
            if frame is None:
                self.diag.rx_frame(item.raw, good=False)
                self.diag.update(last_error=item.error)
                continue
            self.diag.rx_frame(item.raw, good=True)
            txn = self._txn
            if txn is None or not frame.reply or frame.address != txn.seat or frame.seq != txn.seq:
                self.diag.count("duplicates_dropped")  # a late answer to an earlier try
                continue
            self._txn = None
            self._mark_alive()
            self._answered(self._nodes[txn.seat], txn.request, frame.message, now)

    def _node_failed(self, node: _Node, now: float) -> None:
        node.next_poll = now + self._offline_poll_interval
        if node.seat in self._light_testing:
            self._light_testing.discard(node.seat)
            self._emit(NodeLightTest, seat=node.seat, answered=False)
        if node.online is not False:
            node.online = False
            node.identified = False
            self._emit(SensorNodeChanged, seat=node.seat, online=False)
            self._set_node_extra(node)
        self._locking.discard(node.seat)
        self._unlocking.discard(node.seat)
        self._check_locked()
        self._check_unlocked()

    def _answered(self, node: _Node, request: f.Request, reply: f.Message, now: float) -> None:
        node.next_poll = now + self._poll_interval
        if node.queue and node.queue[0] is request:
            node.queue.popleft()
        if isinstance(request, f.Poll):
            node.needs_poll = False
        if isinstance(request, f.SetLight) and node.seat in self._light_testing:
            self._light_testing.discard(node.seat)
            self._emit(NodeLightTest, seat=node.seat, answered=True)
        if isinstance(reply, f.Identity | f.State):
            node.spots = reply.spots
        if isinstance(reply, f.Identity):
            node.identified = True
            node.needs_poll = True
            node.firmware, node.serial_number = reply.firmware, reply.serial_number
            if node.online is not True:
                node.online = True
                self._emit(SensorNodeChanged, seat=node.seat, online=True, firmware=node.firmware)
                self._set_node_extra(node)
                if self._lock_id:  # back during a round: it must latch like the others
                    self._queue(node.seat, f.Lock(self._lock_id))
            self.diag.update(firmware=reply.firmware)
        elif isinstance(reply, f.State):
            self._state(node, reply)
            self._reconcile(node, reply)

    def _reconcile(self, node: _Node, state: f.State) -> None:
        """Bring a node's lock in line with the console's when no lock command is on its way:
        a node that restarted between two polls lost its lock, one that was away at END GAME
        still holds the old one."""
        if any(isinstance(r, f.Lock | f.Unlock) for r in node.queue):
            return
        if self._lock_id and state.lock_id != self._lock_id:
            self._queue(node.seat, f.Lock(self._lock_id))
        elif not self._lock_id and state.lock_id:
            self._queue(node.seat, f.Unlock(state.lock_id))

    def _set_node_extra(self, node: _Node) -> None:
        shown = "online" if node.online else "offline"
        self.diag.set_extra(f"seat {node.seat}", f"{shown} {node.firmware} {node.serial_number}")

    def _state(self, node: _Node, new: f.State) -> None:
        node.state = new
        seat = node.seat
        if self._unlocking and new.lock_id != self._unlock_id:
            self._unlocking.discard(seat)
            self._check_unlocked()
        if new.lock_id == 0:
            if self._lock_id:
                return  # it has not latched the console's lock yet: its LOCK is on the way
            # Unlocked: report each spot whose chip differs from what the round was last told
            # (after END GAME that includes the chips the dealer took while locked).
            for spot in f.spots_of(seat, new.present ^ node.reported_present):
                self._emit(BetSpotChanged, spot=spot, present=bool(new.present & f.bit(spot.spot)))
            node.reported_present = new.present
            return
        if new.lock_id not in (self._lock_id, self._unlock_id):
            return  # an older lock still latched: its UNLOCK or the new LOCK is on the way
        lock_id = new.lock_id
        if lock_id == self._lock_id and seat in self._locking:
            self._locking.discard(seat)
            self._wagered |= f.spots_of(seat, new.wagered)
            self._check_locked()
        elif lock_id == self._lock_id and "locked" not in self._facts(lock_id):
            self._latched_early.add(seat)  # away at the lock, back before BetsLocked
        elif lock_id == self._lock_id and "locked" in self._facts(lock_id):
            # A node that latched after BetsLocked went out (it was away at the lock): its
            # chips came too late to be wagers.
            for spot in f.spots_of(seat, new.wagered) - self._wagered:
                self._once(lock_id, LateBet, spot)
        # BetsLocked told the round which chips are wagers: those count as reported.
        wagers = f.spots_of(seat, new.wagered) & self._wagered
        node.reported_present = sum(f.bit(s.spot) for s in wagers)
        for spot in f.spots_of(seat, new.late):
            self._once(lock_id, LateBet, spot)
        for spot in f.spots_of(seat, new.removed):
            self._once(lock_id, BetRemoved, spot)

    def _once(self, lock_id: int, kind: type[LateBet] | type[BetRemoved], spot: Spot) -> None:
        facts = self._facts(lock_id)
        key = (kind.__name__, spot)
        if key in facts:
            return
        facts.add(key)
        self._emit(kind, lock_id=lock_id, spot=spot)

    def _check_locked(self) -> None:
        if self._lock_id and not self._locking and "locked" not in self._facts(self._lock_id):
            self._facts(self._lock_id).add("locked")
            self._emit(BetsLocked, lock_id=self._lock_id, wagered=self._wagered)
            # A node away when the lock began that came back and latched it before the last
            # of the others answered: its chips are not wagers, so they are late bets, said
            # now (an END GAME before its next poll would have cleared them unsaid).
            for seat in sorted(self._latched_early):
                state = self._nodes[seat].state
                if state is not None and state.lock_id == self._lock_id:
                    for spot in f.spots_of(seat, state.wagered) - self._wagered:
                        self._once(self._lock_id, LateBet, spot)
            self._latched_early = set()

    def _check_unlocked(self) -> None:
        if (
            self._unlock_id
            and not self._unlocking
            and "unlocked" not in self._facts(self._unlock_id)
        ):
            self._facts(self._unlock_id).add("unlocked")
            self._emit(BetsUnlocked, lock_id=self._unlock_id)
