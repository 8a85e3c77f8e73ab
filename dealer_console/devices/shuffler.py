"""What the shuffler tells the round, and what the round can ask of it.

The deal follows the shuffle-machine procedure of the rules: the machine counts the deck,
draws the number that picks the first position, delivers one seven-card hand per position and
leaves four cards (../shared/rules/README.md, "Round procedure"; catfish-bend-fortune-pai-gow.txt,
"Dealing Procedures" and the misdeal list under "Card Placement"). The events report what the
machine saw; deciding that a short hand, a missed index or a card-count error is a misdeal is
the round's job, so nothing is filtered here.

Every deal has a ``deal_id`` chosen by the console when it asks for the deal; the shuffler
echoes it. ``(deal_id, index)`` names a delivered hand for good, which makes a hand safe to
apply twice after a crash.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final, Protocol

from dealer_console.cards import Card
from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.devices.events import DeviceEvent

DECK_SIZE: Final = 53
HAND_SIZE: Final = 7


class ShufflerState(enum.IntEnum):
    """The machine's state; the value is its code on the wire (docs/protocols/shuffler.md)."""

    READY = 0
    SHUFFLING = 1
    DEALING = 2
    DOOR_OPEN = 3
    JAM = 4
    FAULT = 5

    @property
    def is_fault(self) -> bool:
        """A state that needs a person (close the door, clear the jam) and then a reset."""
        return self in (ShufflerState.DOOR_OPEN, ShufflerState.JAM, ShufflerState.FAULT)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShufflerStatus(DeviceEvent):
    """The machine's state, firmware and serial number (answer to a status request, or sent on
    its own when the state changes)."""

    state: ShufflerState
    firmware: str
    serial_number: str
    deal_id: int | None = None
    """The deal in progress or last dealt, if any."""

    @property
    def key(self) -> Hashable:
        return ("status", self.device, self.seq)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckChecked(DeviceEvent):
    """The machine counted the deck before the deal; ``counted`` should be 53. Deal id 0 is
    a count the technician asked for outside any deal."""

    deal_id: int
    counted: int

    @property
    def ok(self) -> bool:
        return self.counted == DECK_SIZE

    @property
    def key(self) -> Hashable:
        if self.deal_id == 0:
            # A technician's deck count (DECK_COUNT) belongs to no deal: each one is its own
            # fact, or a second count would look like a repeat of the first.
            return ("deck", self.device, 0, self.seq)
        return ("deck", self.device, self.deal_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class FirstPositionDrawn(DeviceEvent):
    """The random number the machine drew; the round maps it to the first position."""

    deal_id: int
    number: int

    @property
    def key(self) -> Hashable:
        return ("random", self.device, self.deal_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDelivered(DeviceEvent):
    """One hand left the machine: ``index`` counts deliveries from 1; ``cards`` are the cards
    it recognised (seven in a good deal; fewer or more is the round's misdeal to call)."""

    deal_id: int
    index: int
    cards: tuple[Card, ...]

    @property
    def complete(self) -> bool:
        return len(self.cards) == HAND_SIZE

    @property
    def key(self) -> Hashable:
        return ("hand", self.device, self.deal_id, self.index)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsLeft(DeviceEvent):
    """After the last hand: the cards still in the machine (four in a good deal)."""

    deal_id: int
    cards: tuple[Card, ...]

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def key(self) -> Hashable:
        return ("left", self.device, self.deal_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealReportChanged(DeviceEvent):
    """The machine reported a fact of a deal again with other contents (``what``: "hand 3",
    "the cards left", "the number", "the deck count"): never a retransmission, which says the
    same, but a faulty or tampered machine. Only the first report reached the round."""

    deal_id: int
    what: str

    @property
    def key(self) -> Hashable:
        return ("changed", self.device, self.deal_id, self.what, self.seq)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardCountError(DeviceEvent):
    """The machine signals a card-count error (a misdeal: the deck must be counted for 53)."""

    deal_id: int
    counted: int

    @property
    def key(self) -> Hashable:
        return ("count-error", self.device, self.deal_id)


class ShufflerControl(DeviceDriver, Protocol):
    """What the table controller asks of a shuffler driver (``drivers.shuffler`` fulfils it);
    calls are safe from any thread and return at once: the answers arrive as events."""

    def request_status(self) -> None: ...

    def start_deal(self, hands: int, deal_id: int | None = None) -> int:
        """Ask for ``hands`` hands; returns the deal id the events will carry. The round passes
        its own id so that a deal asked for again after a restart is the same fact."""

    def reset(self) -> None:
        """Clear a fault (after the door is closed or the jam removed)."""

    def count_deck(self) -> None:
        """Count the deck in the machine (answered by ``DeckChecked`` with deal id 0)."""
