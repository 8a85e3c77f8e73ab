"""The rules that say who may confirm a jackpot hit, in one place (Washington document, "Face Up
Pai Gow Poker Jackpot Rules of Play" item 9 d and the game's profile):

- the role: a supervisor's card, an executive's above the game's executive threshold;
- two people: above the game's ``two_person_above`` a supervisor and an executive, each their
  own card, the first held (nothing paid) until the second, a different person of the other
  role;
- the PIN: where the game asks for one (``pin_required``), a swipe counts only after the
  confirmer's PIN, a wrong one logged as a refused swipe, the third calling it off.

Each check logs a refused swipe with its reason (committed on its own) and raises it; the
accepted hit is recorded by :func:`confirm_hit`, which checks the person again against the
award (never their card a second time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.cards import Card, format_cards
from dealer_console.employees import pins, registry
from dealer_console.employees.authorize import (
    RefusalReason,
    authorise,
    log_accepted,
    permits,
    refuse,
    required_role,
)
from dealer_console.employees.authorize import Refused as SwipeRefused
from dealer_console.employees.registry import Employee, Role, find_by_card
from dealer_console.jackpot import games
from dealer_console.jackpot.games import JackpotError
from dealer_console.jackpot.hits import (
    Confirmation,
    HitRecord,
    get_hit,
    hit_for,
    linked_award,
    write_hit,
)
from dealer_console.jackpot_values import meters
from dealer_console.jackpot_values.config import GameConfig
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.jackpot_values.meters import MeterState
from dealer_console.money import format_cents

ARTICLE = {Role.SUPERVISOR: "a supervisor's", Role.EXECUTIVE: "an executive's"}

HitKey = tuple[int, int, int, int]
"""(round, spot, seat, line) of a hit."""


def role_for(game: GameConfig, amount_cents: int) -> Role:
    """Whose card an award of ``amount_cents`` needs: a supervisor's, an executive's above the
    game's threshold; where two people are needed the first may be either (a supervisor's
    card or better)."""
    if game.needs_two(amount_cents):
        return Role.SUPERVISOR
    return required_role(amount_cents, game.executive_threshold_cents)


def needed(game: GameConfig, amount_cents: int) -> str:
    """``supervisor``, ``executive`` or ``two people``: what the dealer's panel says."""
    if game.needs_two(amount_cents):
        return "two people"
    return required_role(amount_cents, game.executive_threshold_cents).value


def who_falls_short(game: GameConfig, amount_cents: int, roles: Sequence[Role | None]
                    ) -> str | None:
    """Why one or two different people of ``roles`` (None: unknown or not in service then)
    could not confirm an award of ``amount_cents`` under ``game``'s thresholds; None when
    they could. The rule the swipes apply, for a record read back (``link audit``)."""
    if any(role is None for role in roles) or not 1 <= len(roles) <= 2:
        return "a confirmer who could not confirm then (unknown, or not in service)"
    if game.needs_two(amount_cents):
        if len(roles) != 2 or roles[0] is roles[1]:
            return (f"above the two-person level, "
                    f"{format_cents(game.two_person_above_cents or 0)}, it needs a "
                    "supervisor and an executive")
        return None
    if (required_role(amount_cents, game.executive_threshold_cents) is Role.EXECUTIVE
            and Role.EXECUTIVE not in roles):
        return (f"above the executive threshold, "
                f"{format_cents(game.executive_threshold_cents)}, it needs an executive")
    return None


def hit_action(db: Database, round_id: int, spot: int, seat: int, line_no: int,
               states: dict[str, MeterState] | None = None) -> tuple[Role, str]:
    """Whose card a hit needs now and how the swipe log names the action; refuses a hit that
    cannot be confirmed (no wager, already confirmed). ``states`` as for :func:`quote`."""
    game = games.game_config(db, spot)
    line = game.paytable.line(line_no)
    if seat not in games.wagered_seats(db, round_id, spot):
        raise JackpotError(f"round {round_id}: seat {seat} placed no wager on jackpot game {spot}")
    if hit_for(db, round_id, spot, seat) is not None:
        raise JackpotError(f"round {round_id}: seat {seat}'s jackpot hit is already confirmed")
    quoted = meters.award(game, line, games.meter_states(db, spot) if states is None else states)
    action = (f"confirm jackpot game {spot} round {round_id} seat {seat}: {line.label} "
              f"{format_cents(quoted.amount_cents)}")
    return required_role(quoted.amount_cents, game.executive_threshold_cents), action


def confirm_hit(
    db: Database, *, round_id: int, spot: int, seat: int, line_no: int, employee_id: str,
    cards: Sequence[Card] | None = None, detected_line_no: int | None = None,
    second_employee_id: str | None = None, linked: LinkedHit | None = None,
) -> HitRecord:
    """Record a hit confirmed by ``employee_id``, whose swipe was already authorised.

    The award, the meter change (and a 100% award's reset) and who confirmed it are written in
    one transaction. The employee is checked again against the amount (a withdrawn card or a
    role too low is refused, nothing written), never by their card a second time.

    ``linked``: the link's server paid this hit from the shared meter (``jackpot/linked.py``);
    its answer is the award, and the table's own meter does not move.
    """
    role, action = hit_action(db, round_id, spot, seat, line_no)
    game = games.game_config(db, spot)
    line = game.paytable.line(line_no)
    quoted = (meters.award(game, line, games.meter_states(db, spot)) if linked is None
              else linked_award(line, linked))
    if linked is not None or game.needs_two(quoted.amount_cents):
        role = role_for(game, quoted.amount_cents)  # a pair holds an executive: either first
    allowed = permits(registry.get(db, employee_id), role)
    if isinstance(allowed, SwipeRefused):
        raise allowed
    employee = allowed
    second = None
    if game.needs_two(quoted.amount_cents):
        if second_employee_id is None:
            raise JackpotError(
                f"{format_cents(quoted.amount_cents)} needs two people: a supervisor's "
                "and an executive's card")
        second = second_person(db, employee, second_employee_id)
    with db.atomic():
        result = quoted
        if linked is None:
            result = meters.award(game, line, games.meter_states(db, spot))
            if result != quoted:
                raise JackpotError("the meter changed while the swipe was checked; swipe again")
        hit_id = write_hit(db, game, Confirmation(
            round_id=round_id, spot=spot, seat=seat, line_no=line_no,
            cards=format_cards(cards) if cards is not None else None,
            detected_line_no=detected_line_no, employee_id=employee.employee_id,
            employee_name=employee.name, employee_role=employee.role.value,
            confirmed_at=clock.stamp(),
            second=None if second is None else (second.employee_id, second.name,
                                                second.role.value)), result, linked)
        if second is None:
            log_accepted(db, employee, f"{action} (hit {hit_id})")
        else:  # the first's swipe was logged when it was held, at its own time (issue 23:
            # logging it again here gave one swipe two entries, the second at the second's time)
            log_accepted(db, second, f"{action} (hit {hit_id}, the second of two, after "
                                     f"{employee.name} ({employee.employee_id}))")
    return get_hit(db, hit_id)



def second_person(db: Database, first: Employee, second_id: str) -> Employee:
    """The second of two confirmers: a different person, in service, of the other role (a
    supervisor and an executive); a refusal says which card is wanted instead."""
    if second_id == first.employee_id:
        raise JackpotError("the same person cannot confirm twice: this award needs a "
                           "second person's card")
    second = registry.get(db, second_id)
    allowed = permits(second, Role.SUPERVISOR)
    if isinstance(allowed, SwipeRefused):
        raise JackpotError(str(allowed))
    if second.role is first.role:
        other = "a supervisor's" if first.role is Role.EXECUTIVE else "an executive's"
        raise JackpotError(f"this award needs {other} card after the {first.role.value}'s")
    return second



# -- the swipes -------------------------------------------------------------------------------


def first_card(db: Database, track: str, game: GameConfig, amount_cents: int,
               action: str) -> Employee:
    """The card that confirms an award alone, or the first of two: authorised for the role
    the award needs (an executive's told why: the amount above the threshold)."""
    if game.needs_two(amount_cents):
        return authorise(db, track, Role.SUPERVISOR, action)
    role = role_for(game, amount_cents)
    because = "" if role is not Role.EXECUTIVE else (
        f"the award, {format_cents(amount_cents)}, is above the "
        f"{format_cents(game.executive_threshold_cents)} a supervisor may confirm")
    return authorise(db, track, role, action, because)


def second_card(db: Database, track: str, first: Employee, action: str) -> Employee:
    """The second card of two: authorised as a supervisor's, then a different person of
    the other role; each refusal logged with its reason."""
    want = Role.EXECUTIVE if first.role is Role.SUPERVISOR else Role.SUPERVISOR
    after = f"the award needs two people, and {first.name} ({first.role.value}) was first"
    same = find_by_card(db, track)
    if same is None or same.employee_id != first.employee_id:
        # the second card must be the other role's: say so to a dealer's card as well
        employee = authorise(db, track, want, action, after)
    else:
        employee = same
    why = None
    if employee.employee_id == first.employee_id:
        why = (RefusalReason.SAME_PERSON, "the same person cannot confirm twice: this "
               f"award needs {ARTICLE[want]} card as well")
    elif employee.role is not want:
        why = (RefusalReason.NOT_AUTHORISED, f"this award needs {ARTICLE[want]} card "
               f"after the {first.role.value}'s ({first.name})")
    if why is not None:
        refuse(db, employee.employee_id, SwipeRefused(*why), action)
    return employee


# -- the PIN ----------------------------------------------------------------------------------


@dataclass(slots=True)
class PinWanted:
    """A confirmer whose card was accepted, waiting for their PIN."""

    key: HitKey
    employee: Employee
    action: str
    track: str = field(default="", repr=False)
    """The card swiped, for a link that reads it again itself (memory only, never stored)."""
    wrong: int = 0
    called_off: bool = False
    """A wrong PIN called the confirmation off: the card must be swiped again."""


def pin_may_follow(db: Database, employee: Employee, action: str) -> None:
    """A card accepted for a game that asks for the PIN: refused (and logged) when the
    confirmer has no PIN on file or their PIN is locked."""
    if not pins.has_pin(db, employee.employee_id):
        refuse(db, employee.employee_id, SwipeRefused(
            RefusalReason.NO_PIN, f"{employee.name} has no PIN on file: an executive "
            f"sets one {pins.where_set()}"), action)
    if pins.locked(db, employee.employee_id):
        refuse(db, employee.employee_id, SwipeRefused(
            RefusalReason.PIN_LOCKED, pins.lock_words(employee)), action)


class PinAsked(Protocol):
    """A card accepted and its holder's PIN asked for: a confirmer's (:class:`PinWanted`) or
    an executive's for a staff change or a back-out (``controller/card_desk.py``)."""

    employee: Employee
    action: str
    wrong: int
    called_off: bool


@dataclass(slots=True)
class PinTry:
    """An executive's card accepted and their PIN asked for (a :class:`PinAsked` of no more:
    the command line's; the console's card desk adds the request it is for)."""

    employee: Employee
    action: str
    wrong: int = 0
    called_off: bool = False
    """Wrong PINs called the card off: it must be swiped again."""


def check_pin(db: Database, wanted: PinAsked, pin: str,
              what: str = "the confirmation") -> None:
    """The confirmer's PIN. Wrong: logged as a refused swipe with the reason "wrong PIN" and
    raised (``wanted.wrong`` counted); the third wrong PIN, a PIN this one locks, or none on
    file sets ``wanted.called_off`` (the card must be swiped again; ``what`` is called off)."""
    check = pins.verify(db, wanted.employee, pin)
    if check is pins.PinCheck.RIGHT:
        return
    wanted.wrong += 1
    left = pins.WRONG_PINS_ALLOWED - wanted.wrong
    to_lock = (pins.wrong_until_lock(db, wanted.employee.employee_id, clock.now()) - 1
               if check is pins.PinCheck.WRONG else left)
    off = True
    if to_lock <= 0:  # this wrong PIN locks it
        told = f"wrong PIN: {pins.lock_words(wanted.employee)}"
    elif check is pins.PinCheck.NONE_ON_FILE or left <= 0:
        told = (f"{wanted.employee.name} has no PIN on file: an executive sets one "
                f"{pins.where_set()}" if check is pins.PinCheck.NONE_ON_FILE else
                f"wrong PIN {pins.WRONG_PINS_ALLOWED} times: {what} is "
                "called off; swipe the card again")
    elif to_lock < left:  # the PIN locks before this swipe's tries run out
        off = False
        told = (f"wrong PIN for {wanted.employee.name}: {to_lock} "
                f"{'try' if to_lock == 1 else 'tries'} left before the PIN locks")
    else:
        off = False
        told = (f"wrong PIN for {wanted.employee.name}: {left} "
                f"{'try' if left == 1 else 'tries'} left")
    wanted.called_off = off
    reason = (RefusalReason.NO_PIN if check is pins.PinCheck.NONE_ON_FILE
              else RefusalReason.WRONG_PIN)
    refuse(db, wanted.employee.employee_id, SwipeRefused(reason, told), wanted.action)
