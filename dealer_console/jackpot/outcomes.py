"""What a confirming swipe (or PIN, or the link's answer) comes to: the jackpot system decides,
the controller's jackpot desk carries it out. Only :class:`Pay` changes the round: the desk
hands its command to the round's table, the one caller of the round."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_console.employees.registry import Employee
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.round.commands import JackpotHit


@dataclass(frozen=True, slots=True)
class Held:
    """The first of two people confirmed: held, nothing paid; the second card is awaited."""

    first: Employee


@dataclass(frozen=True, slots=True)
class PinAsked:
    """The confirmer's card was accepted; nothing counts until their PIN."""

    employee: Employee


@dataclass(frozen=True, slots=True)
class AskingLink:
    """A linked hit sent to its link's server; the answer comes back as its own event."""

    what: str
    """The hit asked, in words (``seat 3's hit on the jackpot link north``)."""


@dataclass(frozen=True, slots=True)
class Pay:
    """Pay the hit: the round records it (award, meters, who) in one transaction."""

    round_id: int
    spot: int
    seat: int
    line_no: int
    first: Employee
    second: Employee | None = None
    paid: LinkedHit | None = None
    """The link server's payment of a linked hit: its amounts are the award."""
    tray_report: bool = False
    """A linked game's tray pay paid here while its link is down: reported to it later."""

    def command(self) -> JackpotHit:
        return JackpotHit(self.seat, self.line_no, self.first, self.spot, self.second,
                          self.paid, self.tray_report)


Outcome = Held | PinAsked | AskingLink | Pay
