"""How the simulated dealer waits for the table: device events taken one at a time until what
it waits for has happened, and the screen's notices read as a dealer reads them (by their
codes and numbers)."""

from __future__ import annotations

import time
from collections.abc import Callable

from dealer_console.controller import TableController
from dealer_console.controller.view import Level
from dealer_console.errors import RefusalCode
from dealer_console.round.state import RoundState

DEVICE_TIMEOUT = 20.0


class SimError(RuntimeError):
    """The simulated table could not go on (a device stopped answering)."""


class Waiting:
    def __init__(self, controller: TableController) -> None:
        self.ctl = controller
        self._last_refusal = 0

    @property
    def state(self) -> RoundState:
        return self.ctl.state

    def wait(self, done: Callable[[], bool], what: str, timeout: float = DEVICE_TIMEOUT,
             max_events: int = 1) -> None:
        """Take device events until ``done``: one at a time, or up to ``max_events`` a turn
        (a deal's hands waiting together as one run)."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise SimError(f"round {self.state.round_id}: no {what} within "
                               f"{timeout:.0f} s")
            self.ctl.pump(timeout=0.05, max_events=max_events)
            failure = self.ctl.storage_failure
            if failure is not None:  # no technician frees the disk here: the run stops
                raise failure

    def next_device_step(self, what: str, max_events: int = 1) -> None:
        """Wait for the device's next event that changes the round (see :meth:`wait`)."""
        seq = self.state.last_seq
        self.wait(lambda: self.state.last_seq != seq, what, max_events=max_events)

    def link_down(self) -> bool:
        """True when the last refusal was the table's jackpot link being down (the link may
        already be back: the refusal is what the dealer read), by its code, not its words."""
        notice = self.ctl.notice
        return notice is not None and notice.code is RefusalCode.LINK_DOWN

    def notice_number(self) -> int:
        notice = self.ctl.notice
        return notice.number if notice else 0

    def refusals(self) -> int:
        """The number of the latest refusal notice (other notices do not count)."""
        notice = self.ctl.notice
        if notice is not None and notice.level is Level.REFUSED:
            self._last_refusal = notice.number
        return self._last_refusal

    def notice_text(self) -> str:
        notice = self.ctl.notice
        return notice.what if notice else ""
