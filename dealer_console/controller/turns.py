"""One view per turn: the controller's listeners are told at the end of each turn of its
event loop (a ``pump``, or a public step taken from a screen) that changed something, with a
view built once, however many changes the turn made."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from dealer_console.controller.view import TableSnapshot

Listener = Callable[[TableSnapshot], None]


class Turns:
    def __init__(self, build: Callable[[], TableSnapshot]) -> None:
        self._build = build
        self.listeners: list[Listener] = []
        self._view: TableSnapshot | None = None
        self._depth = 0
        self._dirty = False
        self.before: Callable[[], None] | None = None
        """Run at the start of every outermost turn (the notices the disk refused, written
        again: ``notice_keeper.py``)."""

    def view(self) -> TableSnapshot:
        """The view as it stands: built once after a change, then kept until the next."""
        if self._view is None:
            self._view = self._build()
        return self._view

    @contextmanager
    def turn(self) -> Iterator[None]:
        if self._depth == 0 and self.before is not None:
            self.before()
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._publish()

    def changed(self) -> None:
        """Something a screen draws changed: told at the end of the turn (at once outside one:
        a staff change made straight on the controller's staff desk)."""
        self._view = None
        self._dirty = True
        if self._depth == 0:
            self._publish()

    def _publish(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        if self.listeners:
            view = self.view()
            for listener in list(self.listeners):
                listener(view)


class HasTurns(Protocol):
    turns: Turns


P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T", bound=HasTurns)


def one_turn(method: Callable[Concatenate[T, P], R]) -> Callable[Concatenate[T, P], R]:
    """A public step: the listeners see one view at its end, however much it changed."""

    @wraps(method)
    def turn(self: T, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.turns.turn():
            return method(self, *args, **kwargs)

    return turn
