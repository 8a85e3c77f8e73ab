"""The controller's inbox: device events from any thread in, one at a time out on the thread
that owns the database.

A fact that arrived before its phase (hands delivered while the dealer still enters the dice)
is held back, not raised: :meth:`Inbox.hold` keeps it and :meth:`Inbox.release_held` puts it
back in line after the next transition, to be tried again one by one.
"""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Callable

from dealer_console.devices.events import DeviceEvent


class Inbox:
    def __init__(self, wake: Callable[[], None] | None = None) -> None:
        self._queue: queue.SimpleQueue[DeviceEvent] = queue.SimpleQueue()
        self._ready: deque[DeviceEvent] = deque()
        self._held: list[DeviceEvent] = []
        self._wake = wake
        self._stalled = False

    @property
    def wake(self) -> Callable[[], None] | None:
        """Called after an event is queued (the console's Qt bridge emits a queued signal; a
        headless owner pumps)."""
        return self._wake

    @wake.setter
    def wake(self, wake: Callable[[], None] | None) -> None:
        # The drivers run before their owner is ready: their first events (a device
        # connected) can be queued before the console's bridge sets its wake, and nothing
        # woke the owner for them until the next event, which a quiet device never sends
        # (CI, stop 29: a console never saw its devices connect). A wake set over waiting
        # events is called at once. Set first, checked after: an event queued in between is
        # seen by one of the two.
        self._wake = wake
        if wake is not None and (self._ready or not self._queue.empty()):
            wake()

    @property
    def waiting(self) -> bool:
        """Events wait for the owner (the ones held back until a transition not counted)."""
        return bool(self._ready) or not self._queue.empty()

    def put(self, event: DeviceEvent) -> None:
        """Any thread: queue ``event`` and wake the owner."""
        self._queue.put(event)
        wake = self._wake
        if wake is not None:
            wake()

    def next(self, timeout: float) -> DeviceEvent | None:
        """Owner thread: the next event (held ones put back first), waiting up to ``timeout``
        for a new one; None when there is none."""
        self._stalled = False
        if self._ready:
            return self._ready.popleft()
        try:
            return self._queue.get(timeout=timeout) if timeout > 0 else self._queue.get_nowait()
        except queue.Empty:
            return None

    def take_following(self, match: Callable[[DeviceEvent], bool], most: int
                       ) -> list[DeviceEvent]:
        """Owner thread: up to ``most`` events that wait now, in order, while each matches
        (none waited for): the rest of a run of reports that came together, such as a deal's
        hands (:meth:`put_back` returns the ones not used)."""
        taken: list[DeviceEvent] = []
        while len(taken) < most:
            if self._ready:
                event = self._ready.popleft()
            else:
                try:
                    event = self._queue.get_nowait()
                except queue.Empty:
                    break
            if not match(event):
                self._ready.appendleft(event)
                break
            taken.append(event)
        return taken

    def put_back(self, events: list[DeviceEvent]) -> None:
        """Owner thread: ``events`` first in line again, in their order."""
        self._ready.extendleft(reversed(events))

    def stall(self, event: DeviceEvent) -> None:
        """``event`` could not be saved: first in line again, tried at the next pump (the
        pump stops for this turn, so a disk that stays full is not asked in a loop)."""
        self._ready.appendleft(event)
        self._stalled = True

    @property
    def stalled(self) -> bool:
        """The first event waits for the disk to take it (see :meth:`stall`)."""
        return self._stalled

    def behind_stall(self, drop: Callable[[DeviceEvent], bool]) -> tuple[list[DeviceEvent],
                                                                         list[DeviceEvent]]:
        """Owner thread, while the first event waits for the disk: the events queued behind
        it, in order (those ``drop`` picks are taken out of line), and the ones dropped."""
        while True:
            try:
                self._ready.append(self._queue.get_nowait())
            except queue.Empty:
                break
        first, *behind = self._ready
        kept: list[DeviceEvent] = []
        dropped: list[DeviceEvent] = []
        for event in behind:
            (dropped if drop(event) else kept).append(event)
        self._ready = deque([first, *kept])
        return kept, dropped

    def hold(self, event: DeviceEvent) -> None:
        """Keep ``event`` until the next transition."""
        self._held.append(event)

    def release_held(self) -> None:
        """After a transition: the held events are tried again, one by one, by the next pump."""
        if self._held:
            self._ready.extend(self._held)
            self._held.clear()
            wake = self._wake
            if wake is not None:
                wake()

    @property
    def held(self) -> tuple[DeviceEvent, ...]:
        """The facts held back until the next transition."""
        return tuple(self._held)

    def drop_held(self) -> None:
        """A new deal or a new round: the facts held for the old one are void."""
        self._held.clear()
