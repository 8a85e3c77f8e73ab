"""The controller's steps for a card wanted for something other than a jackpot hit (opening
the staff areas, a staff change, a back-out, test mode), as a screen takes them: ask for the
card, capture a new one, cancel, and type the PIN the prompt asks for. Each is one turn handed
to the card desk (:mod:`.card_desk`); the controller has them from here, so the façade stays
small."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.jackpot_desk import JackpotDesk
from dealer_console.controller.offers import SUPERVISOR
from dealer_console.controller.turns import Turns, one_turn
from dealer_console.employees.registry import Employee, Role
from dealer_console.round import commands as c

if TYPE_CHECKING:
    from dealer_console.storage.eventlog import Event


class CardSteps:
    """The card prompt's public steps of the controller (see the module doc)."""

    turns: Turns
    jackpot: JackpotDesk
    cards: CardDesk

    if TYPE_CHECKING:  # the controller's own (controller.py)
        def check(self, cmd: c.Command) -> str | None: ...
        def do(self, cmd: c.Command) -> list[Event]: ...
        def supervise(self, cmd: c.Command, by: Employee, where: str = ...) -> list[Event]: ...

    def check_on_card(self, cmd: c.Command) -> str | None:
        """Why the round would refuse ``cmd`` made on a supervisor's card, or None (the name
        the round asks for is the card's; any name does for the check)."""
        return self.check(c.naming(cmd, SUPERVISOR))

    def on_card_only(self, cmd: c.Command) -> bool:
        """Whether the round takes ``cmd`` only on a supervisor's card: refused as the dealer's
        alone, taken naming a supervisor (a misdeal the dealer declares, a deck counted by
        hand, a new high card); the round says which, never a screen."""
        return self.check(cmd) is not None and self.check_on_card(cmd) is None

    @one_turn
    def do_or_card(self, cmd: c.Command, purpose: str) -> bool:
        """The dealer's ``cmd``: made now when the round takes it from the dealer (True);
        where it takes it only on a supervisor's card, that card is asked for ``purpose``
        and the command made on the swipe, naming the supervisor (False); otherwise refused
        with the round's reason. The swipe's one ``swipe_accepted`` row is the command's,
        written with it and naming it, the round and ``purpose``."""
        if c.names_a_supervisor(cmd) or not isinstance(cmd, c.SUPERVISED) or (
                not self.on_card_only(cmd)):
            self.do(cmd)
            return True
        self._one_prompt()
        self.cards.want(Role.SUPERVISOR, purpose, lambda by: self.supervise(
            cmd, by, f"on a supervisor's card at the table, to {purpose}"), logs_swipe=True)
        return False

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
