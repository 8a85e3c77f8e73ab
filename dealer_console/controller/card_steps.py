"""The controller's steps for a card wanted for something other than a jackpot hit (opening
the staff areas, a staff change, a back-out, test mode), as a screen takes them: ask for the
card, capture a new one, cancel, and type the PIN the prompt asks for. Each is one turn handed
to the card desk (:mod:`.card_desk`); the controller has them from here, so the façade stays
small."""

from __future__ import annotations

from collections.abc import Callable

from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.jackpot_desk import JackpotDesk
from dealer_console.controller.turns import Turns, one_turn
from dealer_console.employees.registry import Employee, Role


class CardSteps:
    """The card prompt's public steps of the controller (see the module doc)."""

    turns: Turns
    jackpot: JackpotDesk
    cards: CardDesk

    @one_turn
    def want_card(self, role: Role, purpose: str,
                  on_card: Callable[[Employee], object]) -> None:
        """The next swipe authorises ``purpose`` for ``role``; it replaces a request still
        open, and an armed jackpot confirmation is disarmed (one prompt at a time: the swipe
        goes to the prompt shown; CONFIRM arms it again)."""
        self._one_prompt()
        self.cards.want(role, purpose, on_card)

    def _one_prompt(self) -> None:
        if self.jackpot.armed:
            self.jackpot.armed = False

    @one_turn
    def capture_card(self, purpose: str, on_track: Callable[[str], object]) -> None:
        """The next swipe is a new card to register: its track goes to ``on_track`` without
        being authorised (no one holds it yet), shown or logged; the staff change that
        ``on_track`` makes hashes it and logs who authorised the change."""
        self._one_prompt()
        self.cards.capture(purpose, on_track)

    @one_turn
    def cancel_card(self) -> None:
        self.cards.cancel()

    @one_turn
    def enter_card_pin(self, pin: str) -> None:
        """The PIN of the executive whose card the prompt accepted (``card_desk.py``)."""
        self.cards.enter_pin(pin)
