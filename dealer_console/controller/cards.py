"""A card wanted at the table: the one path from a swipe on the keypad's reader to whatever
asked for it (opening the supervisor's screens, an action behind a card, the technician's test
mode). The jackpot's own confirmation keeps its path (CONFIRM, then the swipe): the Washington
document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 f, makes the swipe the
confirmation itself.

A request names the role it needs and what it is for; the swipe is authorised once (a refusal
is logged with the reason and the request stays open for the right card), and the requester is
handed the :class:`~dealer_console.employees.registry.Employee`, never the card's data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dealer_console.employees.registry import Employee, Role

ARTICLE = {Role.SUPERVISOR: "a supervisor's", Role.EXECUTIVE: "an executive's",
           Role.TECHNICIAN: "a technician's", Role.DEALER: "a dealer's"}


@dataclass(frozen=True, slots=True)
class CardRequest:
    role: Role
    """Whose card: a supervisor (an executive's card does too), an executive, a technician."""
    purpose: str
    """What the card is for, as the prompt and the swipe log say it: "void the round"."""
    on_card: Callable[[Employee], object]
    """Run on the owner thread with the authorised employee; a Refusal it raises is shown."""

    @property
    def prompt(self) -> str:
        return f"Swipe {ARTICLE[self.role]} card to {self.purpose}"


@dataclass(frozen=True, slots=True)
class CardCapture:
    """The next swipe is a new card being registered (a new employee's, or a new card for one
    on file): its track goes to ``on_track`` unauthorised, for the staff change that hashes it.
    The card's data is never shown, logged or kept here."""

    purpose: str
    """What the new card is for, as the prompt says it: "register Ann Lee's card"."""
    on_track: Callable[[str], object]

    @property
    def prompt(self) -> str:
        return f"Swipe the new card to {self.purpose}"
