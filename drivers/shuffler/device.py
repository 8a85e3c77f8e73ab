"""The shuffler driver: packets in, round events out (docs/protocols/shuffler.md).

Runs on its own I/O thread (``drivers.base``). The link is stop-and-wait (``drivers.arq``):
every hand is acknowledged before the machine sends the next one, which is the protocol's
"acknowledge a hand". On top of the link's duplicate detection the driver remembers which
facts of each deal it has already reported (``(deal_id, what, index)``), so a machine that
restarted and resent an old hand still yields one event per hand.
"""

from __future__ import annotations

import collections
import itertools
import random
from collections.abc import Hashable
from typing import Any

from dealer_console.devices.config import ShufflerConfig
from dealer_console.devices.shuffler import (
    CardCountError,
    CardsLeft,
    DealReportChanged,
    DeckChecked,
    FirstPositionDrawn,
    HandDelivered,
    ShufflerStatus,
)
from drivers.arq import Out, StopAndWait
from drivers.backoff import Backoff
from drivers.base import DeviceThread, TransportFactory
from drivers.clock import REAL_CLOCK, Clock
from drivers.shuffler import framer as f
from drivers.transport import SerialTransport

CONSOLE_ID = "dealer-console"
MAX_HANDS = 8
REPORTED = {"deck": "the deck count", "random": "the number", "left": "the cards left",
            "count-error": "the card-count error"}
"""A deal's facts as the dealer reads them when the machine reports one changed."""


class ShufflerDriver(DeviceThread):
    """Talks to one shuffler. Public methods are safe from any thread and return at once."""

    def __init__(
        self,
        port: str | TransportFactory,
        *,
        name: str = "shuffler",
        baudrate: int = 115200,
        ack_timeout: float = 0.2,
        heartbeat: float = 1.0,
        silence_timeout: float = 3.0,
        backoff: Backoff | None = None,
        clock: Clock = REAL_CLOCK,
        first_deal_id: int | None = None,
    ) -> None:
        opener: TransportFactory = (
            (lambda: SerialTransport(port, baudrate)) if isinstance(port, str) else port
        )
        super().__init__(name, opener, backoff=backoff, silence_timeout=silence_timeout,
                         clock=clock,
                         describe=f.describe)
        self._framer = f.ShufflerFramer()
        self._arq = StopAndWait(ack_timeout)
        self._heartbeat = heartbeat
        self._hello_sent = False
        start = first_deal_id if first_deal_id is not None else random.randint(1, 0xFFFF)
        self._deal_ids = itertools.count(start)
        self._seen: collections.OrderedDict[int, dict[Hashable, f.Message]] = (
            collections.OrderedDict())
        self._last_status: f.Status | None = None
        self._status_asked = False

    @classmethod
    def from_config(cls, config: ShufflerConfig, **kwargs: Any) -> ShufflerDriver:
        """The driver a devices file describes (``dealer_console.devices.config``)."""
        return cls(
            config.port,
            baudrate=config.baudrate,
            ack_timeout=config.ack_timeout,
            heartbeat=config.heartbeat,
            silence_timeout=config.silence_timeout,
            **kwargs,
        )

    # ------------------------------------------------------------------ commands
    def request_status(self) -> None:
        """Ask for the machine's status: the answer is reported even if nothing changed."""

        def ask() -> None:
            self._status_asked = True
            self._arq.send(f.Kind.STATUS_REQUEST)

        self.submit(ask)

    def start_deal(self, hands: int, deal_id: int | None = None) -> int:
        """Ask for ``hands`` hands (1-8); returns the deal id every event of the deal carries.

        The round may pass its own id (1-65535) so that ids stay unique across restarts.
        """
        if not 1 <= hands <= MAX_HANDS:
            raise ValueError(f"a deal is 1-{MAX_HANDS} hands, not {hands}")
        if deal_id is None:
            deal_id = (next(self._deal_ids) - 1) % 0xFFFF + 1
        if not 1 <= deal_id <= 0xFFFF:
            raise ValueError(f"deal id {deal_id} is outside 1-65535")
        request = f.StartDeal(deal_id, hands)

        def ask() -> None:
            # a refused request is answered by a status alone, maybe the same as the last
            # (a deal it remembers): that answer is news, or the round never hears it
            self._status_asked = True
            self._arq.send(request.KIND, request.payload())

        self.submit(ask)
        return deal_id

    def reset(self) -> None:
        self._send(f.Reset())

    def count_deck(self) -> None:
        """Technician action: the machine counts the deck (answered by a DeckChecked, deal 0)."""
        self._send(f.DeckCount())

    def test_actions(self) -> tuple[str, ...]:
        return ("status", "deck count")

    def run_test_action(self, action: str) -> None:
        if action == "status":
            self.request_status()
        elif action == "deck count":
            self.count_deck()
        else:
            raise ValueError(f"the shuffler has no test action {action!r}")

    def _send(self, message: f.Message) -> None:
        self.submit(lambda: self._arq.send(message.KIND, message.payload()))

    # ------------------------------------------------------------------ I/O thread
    def _on_open(self) -> None:
        now = self._now()
        if not self._hello_sent:
            self._hello_sent = True
            hello = f.Hello(CONSOLE_ID, "")
            self._arq.send(hello.KIND, hello.payload())
            self._arq.send(f.Kind.STATUS_REQUEST)
        self._flush(self._arq.reopened(now))

    def _on_close(self) -> None:
        self._framer.reset()

    def _on_tick(self, now: float) -> None:
        if self._arq.idle and now - self._last_heard > self._heartbeat:
            self._arq.send(f.Kind.STATUS_REQUEST)
        self._flush(self._arq.poll(now))

    def _on_data(self, data: bytes) -> None:
        now = self._now()
        for frame in self._framer.feed(data):
            if frame.packet is None:
                self.diag.rx_frame(frame.raw, good=False)
                self.diag.update(last_error=frame.error)
                if not frame.checked:  # damaged on the wire: a NAK has it sent again at once
                    self._flush(self._arq.damaged())
                # a well-framed packet that does not read is not acknowledged either: the
                # sender resends it on its ACK timeout (docs/protocols/shuffler.md), where a
                # NAK made it resend at line rate (an outside review: 13,076 in one second)
                continue
            self.diag.rx_frame(frame.raw, good=True)
            self._mark_alive()
            duplicates = self._arq.duplicates
            delivered, out = self._arq.receive(frame.packet, now)
            if self._arq.duplicates != duplicates:
                self.diag.count("duplicates_dropped")
            self._flush(out)
            if delivered is not None and frame.message is not None:
                self._handle(frame.message)

    def _flush(self, out: list[Out]) -> None:
        for item in out:
            self._write(item.frame, item.retransmission)

    def _first_time(self, deal_id: int, fact: Hashable, said: f.Message) -> bool:
        """Whether ``said`` is the deal's first report of ``fact``. A report of it again is
        dropped; one that says something else is reported as changed (an outside review's
        machine sent hand 3 again with other cards, and it was counted as a retransmission)."""
        seen = self._seen.get(deal_id)
        if seen is None:
            seen = self._seen[deal_id] = {}
            while len(self._seen) > f.DEALS_REMEMBERED:
                self._seen.popitem(last=False)
        first = seen.get(fact)
        if first is None:
            seen[fact] = said
            return True
        self.diag.count("duplicates_dropped")
        if first != said:
            what = (f"hand {fact[1]}" if isinstance(fact, tuple)
                    else REPORTED.get(str(fact), str(fact)))
            self._emit(DealReportChanged, deal_id=deal_id, what=what)
        return False

    def _handle(self, m: f.Message) -> None:
        if isinstance(m, f.Hello):
            self.diag.update(firmware=m.firmware, serial_number=m.serial_number)
            self._mark_alive(m.firmware, m.serial_number)
            self._last_status = None  # it restarted: its next status is news
        elif isinstance(m, f.Status):
            self._mark_alive(m.firmware, m.serial_number)
            # The heartbeat asks every second while all is quiet; an answer that says the
            # same as the last one is no event (the queue would grow all day for nothing).
            if m == self._last_status and not self._status_asked:
                return
            self._last_status, self._status_asked = m, False
            self._emit(
                ShufflerStatus,
                state=m.state,
                firmware=m.firmware,
                serial_number=m.serial_number,
                deal_id=m.deal_id or None,
            )
        elif isinstance(m, f.DeckCheck):
            if m.deal_id == 0 or self._first_time(m.deal_id, "deck", m):
                self._emit(DeckChecked, deal_id=m.deal_id, counted=m.counted)
        elif isinstance(m, f.RandomDrawn):
            if self._first_time(m.deal_id, "random", m):
                self._emit(FirstPositionDrawn, deal_id=m.deal_id, number=m.number)
        elif isinstance(m, f.Hand):
            if self._first_time(m.deal_id, ("hand", m.index), m):
                self._emit(HandDelivered, deal_id=m.deal_id, index=m.index, cards=m.cards)
        elif isinstance(m, f.Left):
            if self._first_time(m.deal_id, "left", m):
                self._emit(CardsLeft, deal_id=m.deal_id, cards=m.cards)
        elif isinstance(m, f.CountError) and self._first_time(m.deal_id, "count-error", m):
            self._emit(CardCountError, deal_id=m.deal_id, counted=m.counted)
        # Commands (StartDeal, Reset, ...) are the console's own words: a device that sends
        # them is confused; they are acknowledged by the link and otherwise ignored.
