"""The dealer's warnings about the round's evidence, told and kept in the table's log
(:mod:`dealer_console.round.notices` says which and why).

Runs on the owner thread, as every write of the controller does: a device's I/O thread only
queues its event, and the warning is told and written while the event is applied. Each is
written in a transaction of its own as it is told. One the disk refuses is not lost: it stays
in line, shown as it was, and is written before the next one and at the start of every later
turn of the controller (:attr:`Turns.before`), so it reaches the log once the disk takes writes,
in the order the dealer read them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.controller.jackpot_desk import Tell
from dealer_console.controller.view import Level
from dealer_console.round.notices import KeptNotice, NoticeAbout, record
from dealer_console.round.table import fact_text
from dealer_console.storage.identity import StorageError


class NoticeKeeper:
    """Tells a warning about the round's evidence and keeps it in the log (module doc)."""

    def __init__(self, db: Database, tell: Tell, round_in_play: Callable[[], int]) -> None:
        self._db = db
        self._tell = tell
        self._round = round_in_play
        self._unsaved: list[KeptNotice] = []
        self.failure: StorageError | None = None
        """Why the disk refused the oldest notice still unsaved, or None."""

    @property
    def unsaved(self) -> tuple[KeptNotice, ...]:
        """Notices told but not yet in the log (the disk refused them), oldest first."""
        return tuple(self._unsaved)

    def warn(self, about: NoticeAbout, what: str, todo: str, *, device: str | None,
             fact: Hashable | None = None) -> None:
        """Tell the dealer ``what`` and ``todo`` as a warning, and keep it with the device's
        report it is about (``fact``, its key)."""
        self._tell(Level.WARNING, what, todo)
        self._unsaved.append(KeptNotice(
            self._round(), about, Level.WARNING.value, what, todo, clock.stamp(), device,
            None if fact is None else fact_text(fact)))
        self.save()

    def save(self) -> None:
        """Write the notices not yet saved, oldest first; the first one the disk refuses stays
        in line with every one after it (tried again at the next turn)."""
        while self._unsaved:
            try:
                record(self._db, self._unsaved[0], self._round())
            except StorageError as exc:
                self.failure = exc
                return
            self._unsaved.pop(0)
        self.failure = None
