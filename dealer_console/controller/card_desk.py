"""A card wanted at the table: the one path from a swipe on the keypad's reader to whatever
asked for it (opening the supervisor's screens, an action behind a card, the technician's test
mode). The jackpot's own confirmation keeps its path (CONFIRM, then the swipe): the Washington
document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 f, makes the swipe the
confirmation itself.

A request names the role it needs and what it is for; the swipe is authorised once (a refusal
is logged with the reason and the request stays open for the right card), and the requester is
handed the :class:`~dealer_console.employees.registry.Employee`, never the card's data. One
swipe accepted is one ``swipe_accepted`` row of the employee log, naming what it authorised:
the desk writes it, or, for a request whose step writes its own in the step's transaction (a
supervised command: ``controller.supervise``), leaves it to the step and writes it only when
the step is refused. An outside review found a supervisor's swipe at the table logged twice,
once here and once by the command, and the shift report counting two swipes.

Where the table's jackpot confirmations ask for a PIN (``pin_required``), an executive's card
asks for its holder's PIN too (``pins.executive_pin_needed``: once any executive has or had
one; an executive with none is then refused): a stolen card whose PIN the thief did not know (or had
locked by guessing, or whose holder never had one) opened the Staff screen and made a new
executive of the thief's, with a PIN of the thief's, who then confirmed any award. The PIN is
checked, counted towards the lock and logged as the jackpot's is (``confirm_rules.check_pin``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlite_utils import Database

from dealer_console.employees import pins
from dealer_console.employees.authorize import RefusalReason, authorise, log_accepted, refuse
from dealer_console.employees.authorize import Refused as SwipeRefused
from dealer_console.employees.registry import Employee, Role
from dealer_console.errors import ConsoleError, Refusal, RefusalCode
from dealer_console.jackpot import confirm_rules

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
    logs_swipe: bool = False
    """``on_card`` writes the swipe's ``swipe_accepted`` row itself, in the transaction of the
    step the card authorises; the desk writes none unless the step is refused."""

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


@dataclass(slots=True, kw_only=True)
class CardPin(confirm_rules.PinTry):
    """An executive's card accepted for a request, waiting for their PIN."""

    request: CardRequest


class CardDesk:
    """The card the table waits for, if any: a request to authorise or a new card to capture.
    ``tell`` shows a refusal to the dealer; ``changed`` redraws; ``pins_in_force`` says
    whether the table's jackpot confirmations ask for a PIN."""

    def __init__(self, db: Database, changed: Callable[[], None],
                 told: Callable[[str], None], pins_in_force: bool = False) -> None:
        self.db = db
        self._changed = changed
        self._told = told
        self.pins_in_force = pins_in_force
        self.wanted: CardRequest | CardCapture | None = None
        self.pin: CardPin | None = None
        """The accepted executive's card whose PIN is asked for (the prompt shows a pad)."""

    @property
    def prompt(self) -> str | None:
        if self.pin is not None:
            return f"Type {self.pin.employee.name}'s PIN to {self.pin.request.purpose}"
        return None if self.wanted is None else self.wanted.prompt

    def want(self, role: Role, purpose: str, on_card: Callable[[Employee], object], *,
             logs_swipe: bool = False) -> None:
        self.wanted = CardRequest(role, purpose, on_card, logs_swipe)
        self.pin = None  # a PIN asked for the request replaced must not run it
        self._changed()

    def capture(self, purpose: str, on_track: Callable[[str], object]) -> None:
        self.wanted = CardCapture(purpose, on_track)
        self.pin = None
        self._changed()

    def cancel(self) -> None:
        self.wanted = None
        self.pin = None
        self._changed()

    def swiped(self, track: str) -> bool:
        """Hand a swipe to the card wanted; False when none is (the jackpot's CONFIRM path
        then decides)."""
        wanted = self.wanted
        if isinstance(wanted, CardCapture):
            self.wanted = None
            self._changed()
            try:
                wanted.on_track(track)
            except ConsoleError as exc:
                self._told(str(exc))
            return True
        if wanted is not None:
            self.pin = None  # a card swiped while a PIN is asked replaces the one accepted
            self._authorise(wanted, track)
            return True
        return False

    def _authorise(self, request: CardRequest, track: str) -> None:
        """Authorise once, log who, then hand the employee to the requester (after their PIN
        where it is asked); a refusal is logged and raised, and the request stays open for
        the right card."""
        employee = authorise(self.db, track, request.role, request.purpose)
        if pins.locked(self.db, employee.employee_id):
            # wrong PINs locked it: whoever guessed may hold the card, so it opens nothing,
            # the supervisor's screens included (an outside review's card, refused at the
            # jackpot, at once opened them), until an executive sets a new PIN
            refuse(self.db, employee.employee_id, SwipeRefused(
                RefusalReason.PIN_LOCKED, pins.lock_words(employee)), request.purpose)
        if (request.role is Role.EXECUTIVE
                and pins.executive_pin_needed(self.db, employee, self.pins_in_force)):
            # refused (and logged) when none is on file or it is locked
            confirm_rules.pin_may_follow(self.db, employee, request.purpose)
            self.pin = CardPin(employee, request.purpose, request=request)
            self._changed()
            return
        self._hand_over(request, employee)

    def _hand_over(self, request: CardRequest, employee: Employee) -> None:
        """The accepted swipe logged once (module doc), and the employee handed over."""
        if not request.logs_swipe:
            with self.db.atomic():
                log_accepted(self.db, employee, request.purpose)
        self.wanted = None
        self.pin = None
        self._changed()
        if not request.logs_swipe:
            request.on_card(employee)
            return
        try:
            request.on_card(employee)
        except Refusal as exc:  # nothing done: the swipe was accepted all the same
            with self.db.atomic():
                log_accepted(self.db, employee, f"{request.purpose}: not done ({exc.why})")
            raise

    def enter_pin(self, pin: str) -> None:
        """The PIN of the executive whose card was accepted: right, the request goes on; wrong,
        logged (towards the lock) and raised; the third wrong PIN, or the one that locks it,
        calls the card off (swipe again)."""
        asked = self.pin
        if asked is None:
            raise Refusal("no PIN is asked for now", RefusalCode.NOT_NOW)
        try:
            confirm_rules.check_pin(self.db, asked, pin, "the card")
        except SwipeRefused:
            if asked.called_off:
                self.pin = None
                self._changed()
            raise
        self._hand_over(asked.request, asked.employee)
