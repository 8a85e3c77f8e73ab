"""The jackpot system plugged into the round procedure (``dealer_console.round.jackpot``).

:class:`JackpotSystem` is both the round's hook (called inside the round's transactions) and
what the dealer's keypad and the supervisor's swipe talk to. Washington document, "Face Up Pai
Gow Poker Jackpot Rules of Play" items 6 and 9:

- START GAME takes the sensed wagers and feeds the meters in the round's START GAME
  transaction (``start_game``);
- the console marks each qualifying hand as soon as it knows the cards (:meth:`marks`), and
  the dealer's seat and hand buttons correct the marks (:meth:`select_seat`, :meth:`press_hand`);
- a swipe confirms the next hit in the rule's order (:meth:`confirm`). The swipe is
  authorised once, *before* the round's transaction, so a refusal is logged and committed on
  its own (a refused transition rolls back everything it wrote); an accepted one hands the
  round the employee (never the card's data), and the transaction writes the hit, the meter
  change, who confirmed it and the round's event together;
- END GAME is refused while a marked hand waits for its confirmation (``end_game``).

Marks live in memory (a crash loses a dealer's unconfirmed correction, never a confirmed
award): after a restart the cards are read again from the round and the marks rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlite_utils import Database

from dealer_console.cards import Card
from dealer_console.employees import pins
from dealer_console.employees.authorize import (
    RefusalReason,
    authorise,
    log_accepted,
    refuse,
    required_role,
)
from dealer_console.employees.authorize import Refused as SwipeRefused
from dealer_console.employees.registry import Employee, Role, find_by_card
from dealer_console.employees.registry import now as registry_now
from dealer_console.errors import RefusalCode
from dealer_console.jackpot import linked, store
from dealer_console.jackpot.marks import Mark, MarkError
from dealer_console.jackpot.meters import MICRO, MeterState
from dealer_console.jackpot.paytable import FixedPay
from dealer_console.jackpot.service import JackpotRound, Pending
from dealer_console.jackpot.store import HitRecord, JackpotError
from dealer_console.money import format_cents
from dealer_console.round.jackpot import Confirmed, JackpotRefused

if TYPE_CHECKING:
    from dealer_console.link.asker import HitAnswer, HitAsk
    from dealer_console.link.hook import LinkHook
    from dealer_console.link.records import LinkedHit
    from dealer_console.round.state import RoundState
    from dealer_console.round.table import Table

_HitKey = tuple[int, int, int, int]
"""(round, spot, seat, line) of a hit."""


@dataclass(slots=True)
class _PinWanted:
    """A confirmer whose card was accepted, waiting for their PIN."""

    key: _HitKey
    employee: Employee
    action: str
    wrong: int = 0


class LinkUnanswered(JackpotRefused):
    """The link's server did not answer a hit asked: it may have paid it (not a refusal)."""


@dataclass(slots=True)
class _Asking:
    """A linked hit sent to the link's server; its answer is awaited (the ask is in the
    database too: ``jackpot/linked.py``)."""

    key: _HitKey
    first: Employee
    second: Employee | None
    ask: HitAsk


ARTICLE = {Role.SUPERVISOR: "a supervisor's", Role.EXECUTIVE: "an executive's"}

_AFTER_START = ("action", "dealing", "deal_check", "misdeal", "banker_set", "players_set",
                "settlement", "end")


class JackpotSystem:
    """One table's jackpot games behind the round (see the module doc)."""

    owns_awards = True

    def __init__(self, db: Database, link: LinkHook | None = None,
                 pin_spots: frozenset[int] = frozenset()) -> None:
        self.db = db
        self.link = link
        """Linked games' hook (``dealer_console/link/hook.py``), None when nothing is linked."""
        self._round: JackpotRound | None = None
        self._held: tuple[_HitKey, Employee] | None = None
        """The first of two confirmations: ((round, spot, seat, line), who), nothing paid."""
        self.pin_spots = pin_spots
        """The games whose confirmations ask for the confirmer's PIN (``pin_required``)."""
        self._pin: _PinWanted | None = None
        self._asking: _Asking | None = None
        self._paid: LinkedHit | None = None
        """The link server's answer being recorded (read by :meth:`award`)."""
        self._tray_here: _HitKey | None = None
        """A linked game's tray pay being paid at the table while its link is down."""

    # -- linked games (``jackpot/linked.py``) -------------------------------------------------

    def _tray_while_down(self, spot: int, line_no: int) -> bool:
        """A linked game's hand paid from the tray while its link is down: paid at the table
        and reported to the link when it answers again. Washington, Rules of Play item 9 b:
        such hands are paid from the tray and do not come off the meter, so the shared meter
        has nothing to decide; an outage mid-round must not stop the table's base game
        (issue 25). A pay that comes off the meter still waits for the link."""
        if self.link is None or self.linked_to(spot) is None or self.link.health.view().up:
            return False
        game = store.game_config(self.db, spot)
        return isinstance(game.paytable.line(line_no).pay, FixedPay) and not game.fixed_from_meter

    def linked_to(self, spot: int) -> str | None:
        """The link whose shared meter pays spot ``spot``'s hits, or None."""
        return None if self.link is None else self.link.links.get(spot)

    def meter_states(self, spot: int) -> dict[str, MeterState]:
        """The meters spot ``spot``'s hits are paid from: a linked game's shared meters as
        its server last told them (the table's own until the server first answers: a quote
        only; the server decides the award), else the table's."""
        if self.linked_to(spot) is not None:
            assert self.link is not None
            shared = self.link.meters(spot)
            if shared is not None:
                return shared
        return store.meter_states(self.db, spot)

    def _quote_states(self, spot: int) -> dict[str, MeterState] | None:
        """What a swipe's card is checked against: None (the table's meters) or the shared
        meters, refused before the server has told them."""
        if self.linked_to(spot) is None:
            return None
        assert self.link is not None
        shared = self.link.meters(spot)
        if shared is None:
            raise JackpotRefused(f"the jackpot link {self.linked_to(spot)} has not told this "
                                 "table its meters yet: wait a moment and swipe again")
        return shared

    def asking(self) -> str | None:
        """The hit the link's server is being asked to pay, in words, or None."""
        if self._asking is None:
            return None
        _, spot, seat, _ = self._asking.key
        return f"seat {seat}'s hit on the jackpot link {self.linked_to(spot)}"

    def answered(self, table: Table, answer: HitAnswer) -> HitRecord | None:
        """The server's answer to the hit asked (owner thread). Paid: the hit is recorded
        with the server's amounts and returned. Refused: nothing was paid, the mark is free
        again; not answered: the server may have paid it, the mark stays until a swipe asks
        again. Both are raised in plain words. An answer to nothing asked is ignored."""
        from dealer_console.round.commands import JackpotHit

        asking = self._asking
        if asking is None or asking.ask != answer.ask:
            return None
        self._asking = None
        round_id, spot, seat, line_no = asking.key
        if answer.hit is None:
            if answer.refused is not None:
                linked.refuse_ask(self.db, round_id=round_id, spot=spot, seat=seat,
                                  why=answer.refused)
                raise JackpotRefused(f"the jackpot link refused seat {seat}'s hit, nothing "
                                     f"was paid: {answer.refused}")
            raise LinkUnanswered(
                f"the jackpot link did not answer ({answer.failed}): it may have paid seat "
                f"{seat}'s hit; swipe again once the link is back (it is paid once, never "
                "twice)")
        paid = answer.hit
        if (paid.round_id, paid.spot, paid.seat, paid.line_no) != (round_id, spot, seat,
                                                                   line_no):
            raise JackpotRefused(f"the jackpot link answered for another hit (round "
                                 f"{paid.round_id} seat {paid.seat} line {paid.line_no}): "
                                 "call the link's operator")
        self._paid = paid
        try:
            table.handle(JackpotHit(seat, line_no, asking.first, spot, asking.second))
        finally:
            self._paid = None
        self._held = None
        return store.hit_for(self.db, round_id, spot, seat)

    def _ask(self, key: _HitKey, first: Employee, second: Employee | None) -> None:
        """Send a linked hit to the server (the ask written first, committed)."""
        from dealer_console.link.asker import HitAsk
        from dealer_console.link.hook import LinkDown

        round_id, spot, seat, line_no = key
        link = self.linked_to(spot)
        assert link is not None and self.link is not None
        ask = HitAsk(link, round_id, spot, seat, line_no, first.employee_id,
                     linked.most_cents(store.game_config(self.db, spot), first, second),
                     None if second is None else second.employee_id)
        linked.record_ask(self.db, round_id=round_id, spot=spot, seat=seat, line_no=line_no,
                          link=link, employee_id=first.employee_id)
        self._asking = _Asking(key, first, second, ask)
        try:
            self.link.ask(ask)
        except LinkDown as exc:
            self._asking = None
            raise JackpotRefused(str(exc), RefusalCode.LINK_DOWN) from None

    # -- the round's hook (inside the round's transaction) ------------------------------------

    def start_game(self, db: Database, round_id: int,
                   wagers: Mapping[int, Mapping[int, int]]) -> None:
        installed = set(store.spots(db))
        try:
            for spot, seats in wagers.items():
                if spot not in installed:
                    raise JackpotRefused(f"jackpot wagers on sensor spot {spot}, but no jackpot "
                                         "game is installed there")
                game = store.game_config(db, spot)
                for seat, cents in seats.items():
                    if cents != game.wager_cents:
                        raise JackpotRefused(
                            f"seat {seat}: jackpot game {spot} takes a fixed "
                            f"{format_cents(game.wager_cents)}, not {format_cents(cents)}")
            taken = {spot: list(seats) for spot, seats in wagers.items() if seats}
            if self.link is not None:  # linked games: refused while the link is down
                self._link_check(taken)
            self._round = JackpotRound.start(db, round_id, taken)
            if self.link is not None:  # ... and owed to the link in this same transaction
                self.link.record(db, round_id, taken,
                                 {s: store.game_config(db, s).wager_cents for s in taken},
                                 registry_now())
        except JackpotError as exc:
            raise JackpotRefused(str(exc)) from None

    def _link_check(self, taken: Mapping[int, list[int]], confirming: bool = False) -> None:
        from dealer_console.link.hook import LinkDown

        assert self.link is not None
        try:
            self.link.check_start(taken, confirming=confirming)
        except LinkDown as exc:
            raise JackpotRefused(str(exc), RefusalCode.LINK_DOWN) from None

    def award(self, db: Database, round_id: int, spot: int, seat: int, hand_line: int,
              cards: tuple[Card, ...], employee_id: str,
              second_id: str | None = None) -> Confirmed:
        jr = self._for(round_id)
        paid = self._paid
        here = self._tray_here == (round_id, spot, seat, hand_line)
        if self.linked_to(spot) is not None and not here and (
                paid is None or (paid.round_id, paid.spot, paid.seat) != (round_id, spot, seat)):
            raise JackpotRefused("a linked jackpot's hit is paid only by the link's server: "
                                 "press CONFIRM and swipe the card")
        try:
            if seat not in jr.hands:
                jr.show_hands({seat: cards})
            mark = jr.game(spot).marks.get(seat)
            if mark is None or jr.game(spot).paytable.number_of(mark.line) != hand_line:
                raise MarkError(f"seat {seat}'s hand button on game {spot} is not line "
                                f"{hand_line}: select the seat and press the hand button")
            hit = jr.confirm_as(spot, seat, employee_id, second_id, paid)
        except (JackpotError, MarkError, SwipeRefused) as exc:
            raise JackpotRefused(str(exc)) from None
        if here:  # owed to the link as a report, in this same transaction
            assert self.link is not None
            self.link.record_tray(db, hit)
        who = f"{hit.employee_name} ({hit.employee_id}, {hit.employee_role})"
        if hit.second_employee_id is not None:
            who += (f" and {hit.second_employee_name} ({hit.second_employee_id}, "
                    f"{hit.second_employee_role})")
        return Confirmed(hit.amount_cents, who, hit_detail(hit))

    def end_game(self, db: Database, round_id: int) -> None:
        jr = self._for(round_id)
        try:
            jr.end()
        except MarkError as exc:
            raise JackpotRefused(str(exc)) from None
        self._round = None

    def _for(self, round_id: int) -> JackpotRound:
        if self._round is None or self._round.round_id != round_id:
            self._round = JackpotRound.resume(self.db, round_id)
        return self._round

    # -- the dealer's keypad and the supervisor's swipe ---------------------------------------

    def current(self, state: RoundState) -> JackpotRound | None:
        """This round's jackpot (cards shown, hits marked), or None before START GAME."""
        if state.phase.value not in _AFTER_START or not state.locked:
            return None
        jr = self._for(state.round_id)
        if state.phase.value in ("banker_set", "players_set", "settlement", "end"):
            # each hand is read once: a mark the dealer cleared stays cleared
            jr.show_hands({seat: cards for seat, cards in state.hands.items()
                           if seat > 0 and seat not in jr.hands})
        return jr

    def marks(self, state: RoundState) -> list[Pending]:
        """The hits waiting for a swipe, in the order they must be confirmed."""
        jr = self.current(state)
        return [] if jr is None else jr.pending()

    def select_seat(self, state: RoundState, spot: int, seat: int) -> None:
        self._need(state).select_seat(spot, seat)

    def press_hand(self, state: RoundState, spot: int, line_no: int) -> Mark | None:
        """The hand button: set, move or (pressed again) clear the selected seat's mark."""
        return self._need(state).press_hand(spot, line_no)

    def _need(self, state: RoundState) -> JackpotRound:
        jr = self.current(state)
        if jr is None:
            raise MarkError("no jackpot round: the hand buttons work after START GAME")
        return jr

    def required(self, pending: Pending) -> str:
        """Whose card confirms ``pending`` on the meters now: ``supervisor``, ``executive``
        or ``two people`` (the game's two-person level passed). The dealer's panel shows the
        figure after the hits before it instead (``projection.py``)."""
        game = store.game_config(self.db, pending.spot)
        amount = store.quote(self.db, pending.spot, game.paytable.number_of(pending.mark.line),
                             self.meter_states(pending.spot)).amount_cents
        if game.needs_two(amount):
            return "two people"
        return required_role(amount, game.executive_threshold_cents).value

    def held(self, state: RoundState) -> Employee | None:
        """Who gave the first of two confirmations of the next hit, or None."""
        pending = self.marks(state)
        if self._held is None or not pending:
            return None
        first = pending[0]
        line_no = self._need(state).game(first.spot).paytable.number_of(first.mark.line)
        key = (state.round_id, first.spot, first.mark.seat, line_no)
        return self._held[1] if self._held[0] == key else None

    def drop_held(self) -> None:
        """CANCEL, or a new round: a held first confirmation, and a PIN still wanted, are
        forgotten (they paid nothing)."""
        self._held = None
        self._pin = None

    def confirm(self, table: Table, track: str) -> HitRecord | None:
        """A swipe confirms the next hit in order. The card is authorised here, once: a
        refusal is logged (committed on its own) and raised, nothing else changes; an accepted
        swipe hands the round the employee, never the card's data.

        Where the award needs two people (the game's ``two_person_above``), the first accepted
        swipe is held (logged, nothing paid; None is returned) and the second, a different
        person of the other role, pays it with both names. Where the game asks for a PIN
        (``pin_required``), an accepted swipe pays or is held only after the confirmer's PIN
        (:meth:`enter_pin`); until then None is returned and :meth:`pin_wanted` names them."""
        key, amount, role, action = self._next(table)
        game = store.game_config(self.db, key[1])
        self._pin = None  # a new swipe replaces a PIN still wanted
        if not game.needs_two(amount):
            because = "" if role is not Role.EXECUTIVE else (
                f"the award, {format_cents(amount)}, is above the "
                f"{format_cents(game.executive_threshold_cents)} a supervisor may confirm")
            employee = authorise(self.db, track, role, action, because)
        else:
            held = self.held(table.state)
            employee = (authorise(self.db, track, Role.SUPERVISOR, action) if held is None
                        else self._second(track, held, action))
        if key[1] in self.pin_spots:
            if not pins.has_pin(self.db, employee.employee_id):
                refuse(self.db, employee.employee_id, SwipeRefused(
                    RefusalReason.NO_PIN, f"{employee.name} has no PIN on file: an executive "
                    "sets one on the Staff screen"), action)
            if pins.locked(self.db, employee.employee_id):
                refuse(self.db, employee.employee_id, SwipeRefused(
                    RefusalReason.PIN_LOCKED, pins.lock_words(employee)), action)
            self._pin = _PinWanted(key, employee, action)
            return None
        return self._accepted(table, key, employee, action)

    def enter_pin(self, table: Table, pin: str) -> HitRecord | None:
        """The confirmer's PIN after their swipe. Right: the swipe counts (the award paid, or
        the first of two held; None then). Wrong: logged as a refused swipe with the reason
        "wrong PIN" and raised, nothing paid; the third wrong PIN calls the confirmation off
        (the card must be swiped again)."""
        wanted = self._pin
        if wanted is None or wanted.key != self._next(table)[0]:
            self._pin = None
            raise MarkError("no card is waiting for its PIN: swipe the card first")
        check = pins.verify(self.db, wanted.employee, pin)
        if check is not pins.PinCheck.RIGHT:
            wanted.wrong += 1
            left = pins.WRONG_PINS_ALLOWED - wanted.wrong
            to_lock = (pins.wrong_until_lock(self.db, wanted.employee.employee_id,
                                             datetime.now(UTC)) - 1
                       if check is pins.PinCheck.WRONG else left)
            if to_lock <= 0:  # this wrong PIN locks it
                self._pin = None
                told = f"wrong PIN: {pins.lock_words(wanted.employee)}"
            elif check is pins.PinCheck.NONE_ON_FILE or left <= 0:
                self._pin = None
                told = (f"{wanted.employee.name} has no PIN on file: an executive sets one on "
                        "the Staff screen" if check is pins.PinCheck.NONE_ON_FILE else
                        f"wrong PIN {pins.WRONG_PINS_ALLOWED} times: the confirmation is "
                        "called off; swipe the card again")
            elif to_lock < left:  # the PIN locks before this swipe's tries run out
                told = (f"wrong PIN for {wanted.employee.name}: {to_lock} "
                        f"{'try' if to_lock == 1 else 'tries'} left before the PIN locks")
            else:
                told = (f"wrong PIN for {wanted.employee.name}: {left} "
                        f"{'try' if left == 1 else 'tries'} left")
            reason = (RefusalReason.NO_PIN if check is pins.PinCheck.NONE_ON_FILE
                      else RefusalReason.WRONG_PIN)
            refuse(self.db, wanted.employee.employee_id, SwipeRefused(reason, told),
                   wanted.action)
        self._pin = None
        return self._accepted(table, wanted.key, wanted.employee, wanted.action)

    def pin_wanted(self, state: RoundState) -> Employee | None:
        """Whose PIN the next hit waits for (their card accepted), or None."""
        wanted = self._pin
        pending = self.marks(state)
        if wanted is None or not pending:
            return None
        first = pending[0]
        line_no = self._need(state).game(first.spot).paytable.number_of(first.mark.line)
        here = (state.round_id, first.spot, first.mark.seat, line_no)
        return wanted.employee if wanted.key == here else None

    def _next(self, table: Table) -> tuple[_HitKey, int, Role, str]:
        """The next hit to confirm: its key, amount, the role its card needs and what the
        swipe log calls it."""
        pending = self.marks(table.state)
        if not pending:
            raise MarkError("no jackpot hand is waiting to be confirmed")
        first = pending[0]
        if self._asking is not None:
            raise JackpotRefused(f"the jackpot link is paying {self.asking()}: wait for its "
                                 "answer on this screen")
        jr = self._need(table.state)
        line_no = jr.game(first.spot).paytable.number_of(first.mark.line)
        if self.link is not None and not self._tray_while_down(first.spot, line_no):
            # a linked hit is confirmed only while the link answers (but a tray pay)
            self._link_check({first.spot: [first.mark.seat]}, confirming=True)
        round_id = table.state.round_id
        states = self._quote_states(first.spot)
        try:
            role, action = store.hit_action(self.db, round_id, first.spot, first.mark.seat,
                                            line_no, states)
        except JackpotError as exc:
            raise JackpotRefused(str(exc)) from None
        amount = store.quote(self.db, first.spot, line_no, states).amount_cents
        return (round_id, first.spot, first.mark.seat, line_no), amount, role, action

    def _accepted(self, table: Table, key: _HitKey, employee: Employee,
                  action: str) -> HitRecord | None:
        """A confirmer accepted (card, and PIN where asked): pay, or hold the first of two;
        a linked hit is sent to its server (None: the answer comes to :meth:`answered`)."""
        from dealer_console.round.commands import JackpotHit

        round_id, spot, seat, line_no = key
        amount = store.quote(self.db, spot, line_no, self._quote_states(spot)).amount_cents
        first, second = employee, None
        if store.game_config(self.db, spot).needs_two(amount):
            held = self.held(table.state)
            if held is None:
                with self.db.atomic():
                    log_accepted(self.db, employee, f"{action}: the first of two, held")
                self._held = (key, employee)
                return None
            first, second = held, employee
        if self.linked_to(spot) is not None and not self._tray_while_down(spot, line_no):
            self._ask(key, first, second)
            return None
        self._tray_here = key if self.linked_to(spot) is not None else None
        try:
            table.handle(JackpotHit(seat, line_no, first, spot, second))
        finally:
            self._tray_here = None
        self._held = None
        hit = store.hit_for(self.db, round_id, spot, seat)
        assert hit is not None
        return hit

    def _second(self, track: str, first: Employee, action: str) -> Employee:
        """The second card of two: authorised as a supervisor's, then a different person of
        the other role; each refusal logged with its reason."""
        want = Role.EXECUTIVE if first.role is Role.SUPERVISOR else Role.SUPERVISOR
        after = f"the award needs two people, and {first.name} ({first.role.value}) was first"
        same = find_by_card(self.db, track)
        if same is None or same.employee_id != first.employee_id:
            # the second card must be the other role's: say so to a dealer's card as well
            employee = authorise(self.db, track, want, action, after)
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
            refuse(self.db, employee.employee_id, SwipeRefused(*why), action)
        return employee


def hit_detail(hit: HitRecord) -> dict[str, object]:
    """What the round's event records of a confirmed hit (never the card's data): enough for
    the audit to rebuild the hit's row and recompute its award from the log."""
    return {
        "hit_id": hit.hit_id, "paytable": hit.paytable, "line": hit.line_label,
        "pay": hit.pay, "level": hit.level, "employee_id": hit.employee_id,
        "employee_name": hit.employee_name, "employee_role": hit.employee_role,
        "confirmed_at": hit.confirmed_at, "detected_line_no": hit.detected_line_no,
        "from_meter_cents": hit.from_meter_cents,
        "from_tray_cents": hit.from_tray_cents,
        "meter_before_cents": None if hit.meter_before_micro is None
        else hit.meter_before_micro // MICRO,
        "meter_after_cents": None if hit.meter_after_micro is None
        else hit.meter_after_micro // MICRO,
    } | ({} if hit.second_employee_id is None else {
        "second_employee_id": hit.second_employee_id,
        "second_employee_name": hit.second_employee_name,
        "second_employee_role": hit.second_employee_role}) | ({} if hit.link is None else {
        "link": hit.link, "link_hit_id": hit.link_hit_id,
        "meter_before_micro": hit.meter_before_micro,
        "meter_after_micro": hit.meter_after_micro})
