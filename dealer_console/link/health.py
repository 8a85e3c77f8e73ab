"""The link's health as the table knows it: a lock-guarded value the sender's thread sets and
the controller reads (never the network), so the core reads it without the PostgreSQL client."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from dealer_console import clock
from dealer_console.jackpot_values.meters import MeterState


@dataclass(frozen=True, slots=True)
class HealthView:
    up: bool
    reason: str
    last_contact: str | None
    owed: int
    warning: str = ""
    """Something the supervisor and the link administrator must know even while the link
    answers (the server gone back in time, wagers it lost sent again), in plain words."""


class LinkHealth:
    """Whether the link answered the last time it was asked, and why not if it did not."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._view = HealthView(False, "the link has not answered yet", None, 0)
        self._watchers: list[Callable[[], object]] = []
        self._meters: dict[str, dict[str, MeterState]] = {}

    def view(self) -> HealthView:
        with self._lock:
            return self._view

    def meters(self, link: str) -> dict[str, MeterState] | None:
        """The link's shared meters as the server last told them (the sender reads them on
        every pass), or None before it first answered: what a linked hit is quoted on."""
        with self._lock:
            found = self._meters.get(link)
            return None if found is None else dict(found)

    def set_meters(self, link: str, states: dict[str, MeterState]) -> None:
        """The link's meters as just read; the watchers are told when they moved (another
        table's wager or hit), so the dealer's panel quotes a marked hit on them anew."""
        with self._lock:
            moved = self._meters.get(link) != states
            self._meters[link] = dict(states)
            watchers = list(self._watchers) if moved else []
        for changed in watchers:
            changed()

    def watch(self, changed: Callable[[], object]) -> None:
        """Call ``changed`` (on the sender's thread) whenever the link goes up or down, the
        reason it is down changes, or its meters move: the controller then redraws."""
        with self._lock:
            self._watchers.append(changed)

    def up(self, owed: int) -> None:
        self._set(lambda old: HealthView(True, "", now(), owed, old.warning))

    def down(self, reason: str, owed: int) -> None:
        self._set(lambda old: HealthView(False, reason, old.last_contact, owed, old.warning))

    def warn(self, warning: str) -> None:
        """Say ``warning`` (kept until replaced; empty: none)."""
        self._set(lambda old: HealthView(old.up, old.reason, old.last_contact, old.owed,
                                         warning))

    def _set(self, make: Callable[[HealthView], HealthView]) -> None:
        with self._lock:
            old = self._view
            self._view = make(old)
            turned = ((old.up, old.reason, old.warning)
                      != (self._view.up, self._view.reason, self._view.warning))
            watchers = list(self._watchers) if turned else []
        for changed in watchers:  # outside the lock: a watcher may read the view
            changed()


def now() -> str:
    return clock.now().strftime("%Y-%m-%dT%H:%M:%S.%fZ")
