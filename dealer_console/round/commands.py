"""What a dealer's touch or a device asks of the round. Each is validated against the phase
by :func:`dealer_console.round.machine.decide`; a refused command changes nothing."""

from __future__ import annotations

from dataclasses import dataclass, replace

from dealer_console.cards import Card
from dealer_console.employees.registry import Employee
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.setting import Setting


class Command:
    """Base class; the machine dispatches on the concrete type."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class AcceptBank(Command):
    """The seat offered the bank takes it, with ``wager_cents`` as the banker's wager (the
    coverage ``B``); for the house, seat 0 and no wager."""

    seat: int
    wager_cents: int = 0


@dataclass(frozen=True, slots=True)
class DeclineBank(Command):
    seat: int


@dataclass(frozen=True, slots=True)
class PlaceWager(Command):
    seat: int
    kind: str
    cents: int


@dataclass(frozen=True, slots=True)
class RepeatWagers(Command):
    """The wagers placed last round placed again: at ``seat``, or with None at every seat that
    played last round, has no wager yet and is not this round's banker. Each wager is checked
    as if placed one by one; one refused refuses them all."""

    seat: int | None = None


@dataclass(frozen=True, slots=True)
class CopyWagers(Command):
    """Seat ``from_seat``'s wagers this round placed at ``seat`` too (the dealer's "same as
    the seat before"): each checked as if placed one by one, one refused refuses them all.
    Only the wagers "same wagers" would repeat are copied."""

    seat: int
    from_seat: int


@dataclass(frozen=True, slots=True)
class RemoveWager(Command):
    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class ChangeWager(Command):
    """A placed wager's amount typed again before START GAME: the old one taken back and the
    new one placed in one step, checked as a new wager (limits included) and leaving the
    seat's other wagers as they are."""

    seat: int
    kind: str
    cents: int


@dataclass(frozen=True, slots=True)
class StartGame(Command):
    """START GAME: wagers locked and counted, jackpot sensors locked, meters fed."""


@dataclass(frozen=True, slots=True)
class VoidRound(Command):
    """Abandon a round before START GAME; every wager and fee is returned."""

    reason: str
    who: str


@dataclass(frozen=True, slots=True)
class SetActionNumber(Command):
    """Dice total, RNG number or the shuffler's number."""

    number: int


@dataclass(frozen=True, slots=True)
class SetActionSeat(Command):
    """High card (Oxford Downs): the seat that takes the action button. After the first round
    the button moves one seat clockwise every hand; ``restart`` says a new high card was dealt
    with the floor's permission (or the button was put back in play) instead, and ``who``
    names the supervisor whose card gave it (Oxford Downs, "Action Button": the dealer calls
    the floor and gets permission). An outside review found the permission the dealer's own
    toggle, with nothing in the log."""

    seat: int
    restart: bool = False
    who: str = ""


@dataclass(frozen=True, slots=True)
class DealHand(Command):
    """One hand delivered (shuffler) or one pile handed out (hand-dealt). ``seat`` is where the
    dealer put it when the console is told; None means the next seat in the deal order.
    ``index`` is the shuffler's delivery index (1-7), when the hand came from the machine: an
    index past the next one means a position was missed."""

    cards: tuple[Card, ...]
    seat: int | None = None
    index: int | None = None


@dataclass(frozen=True, slots=True)
class CorrectFirstHand(Command):
    """The first hand went to the wrong seat: move every hand along to the right seats."""


@dataclass(frozen=True, slots=True)
class RemainingCards(Command):
    """The cards left after the deal, spread and counted (four expected). ``cards``: which
    they are, when the shuffler said (its CARDS_LEFT): with the hands they must make the whole
    deck, each of the 53 cards once."""

    count: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class ShufflerCountError(Command):
    """The shuffler signalled a card-count error."""

    detail: str = ""


@dataclass(frozen=True, slots=True)
class CardsExposed(Command):
    """Cards inadvertently exposed during the deal. Past three it is a misdeal the dealer
    declares, made only on a supervisor's card (``who``)."""

    count: int
    who: str = ""


@dataclass(frozen=True, slots=True)
class DeclareMisdeal(Command):
    """A misdeal the devices cannot see (``reason`` one of MisdealReason's values), declared
    by the dealer on a supervisor's card (``who``). An outside review found the dealer alone
    could throw away a deal after seeing the hands, as often as they liked."""

    reason: str
    detail: str = ""
    who: str = ""


@dataclass(frozen=True, slots=True)
class DeckCounted(Command):
    """The whole deck counted after a misdeal (53 expected): by the shuffler (``shuffler``, its
    own count, a device's fact), or by hand, entered on a supervisor's card (``who``)."""

    count: int
    who: str = ""
    shuffler: bool = False


@dataclass(frozen=True, slots=True)
class Redeal(Command):
    """Play resumes after a misdeal: a new deal with the same wagers."""


@dataclass(frozen=True, slots=True)
class SetBankerHand(Command):
    """The banker's hand: ``None`` sets it the House Way; a player-dealer may give their own
    (never foul)."""

    setting: Setting | None = None


@dataclass(frozen=True, slots=True)
class SetPlayerHand(Command):
    """``None`` asks for the House Way."""

    seat: int
    setting: Setting | None = None


@dataclass(frozen=True, slots=True)
class SetHandsHouseWay(Command):
    """Every player's hand not set yet set the House Way: the players who asked for it, in
    one touch (a player who sets their own is set first, by touch)."""


@dataclass(frozen=True, slots=True)
class ReconstructBankerHand(Command):
    """A supervisor resets a banker hand that was set wrongly (Catfish Bend, Irregularities),
    once a round and saying why (``reason``)."""

    setting: Setting
    who: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SettleNext(Command):
    """Settle the next seat in the settlement order."""


@dataclass(frozen=True, slots=True)
class SettleAll(Command):
    """Every seat not settled yet settled as its shown lines say, in the settlement order
    (one ``seat_settled`` each, as seat-by-seat settlement records them); with ``end_game``
    END GAME follows in the same step, at a table with no jackpot (where END GAME has
    nothing left to wait for once every seat is paid and taken)."""

    end_game: bool = False


@dataclass(frozen=True, slots=True)
class JackpotHit(Command):
    """The dealer selected a seat and a hand button (line ``hand_line`` of the paytable of the
    jackpot game on sensor ``spot``) and ``confirmer`` swiped their card for it. The swipe was
    authorised once, before this command was made (the jackpot system does it and logs a
    refusal); the card's data never reaches the round."""

    seat: int
    hand_line: int
    confirmer: Employee
    spot: int = 1
    second: Employee | None = None
    """The second person where the award needs two (a supervisor and an executive)."""
    paid: LinkedHit | None = None
    """A linked game's hit as its link's server paid it: the award is the server's."""
    tray_report: bool = False
    """A linked game's tray pay paid at the table while its link is down, owed to the link as a
    report."""


@dataclass(frozen=True, slots=True)
class EndGame(Command):
    """END GAME: the round is complete and the banker rotates."""


def cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


def names_a_supervisor(cmd: Command) -> bool:
    """Whether ``cmd`` is a supervisor's, naming them (through the controller's ``supervise``,
    which checks who that is): a void, a reconstruction, or a misdeal, a deck count by hand or
    a new high card that names someone (the round refuses those without a name where they
    need one; the shuffler's count names no one)."""
    if isinstance(cmd, DeckCounted | CardsExposed | DeclareMisdeal | SetActionSeat):
        return bool(cmd.who)
    return isinstance(cmd, VoidRound | ReconstructBankerHand)


SUPERVISED = (VoidRound, ReconstructBankerHand, DeckCounted, CardsExposed, DeclareMisdeal,
              SetActionSeat)
"""The commands a supervisor's card may name (:func:`naming`)."""


def naming(cmd: Command, who: str) -> Command:
    """A supervisor's command (a void, a reconstruction, a deck count, a misdeal the dealer
    declares, a new high card) naming ``who``."""
    if isinstance(cmd, SUPERVISED):
        return replace(cmd, who=who)
    raise ValueError(f"{type(cmd).__name__} is not a supervisor's command")
