"""The jackpot system plugged into the round procedure (``dealer_console.round.jackpot``).

:class:`JackpotSystem` is both the round's hook (called inside the round's transactions) and
what decides on the dealer's keypad and the supervisor's swipe. Washington document, "Face Up
Pai Gow Poker Jackpot Rules of Play" items 6 and 9:

- START GAME takes the sensed wagers and feeds the meters in the round's START GAME
  transaction (``start_game``);
- the console marks each qualifying hand as soon as it knows the cards (:meth:`marks`), and
  the dealer's seat and hand buttons correct the marks (:meth:`select_seat`, :meth:`press_hand`);
- a swipe confirms the next hit in the rule's order (:meth:`confirm`). The swipe is
  authorised once, *before* the round's transaction (``confirm_rules.py``), so a refusal is
  logged and committed on its own; an accepted one comes to an outcome (``outcomes.py``):
  held (the first of two), a PIN asked, the link asked, or pay. The controller's jackpot desk
  carries a :class:`~dealer_console.jackpot.outcomes.Pay` out by handing its command to the
  round, whose transaction writes the hit, the meter change, who confirmed it and the round's
  event together (:meth:`award`); the system never calls the round itself;
- END GAME is refused while a marked hand waits for its confirmation (``end_game``).

Marks live in memory (a crash loses a dealer's unconfirmed correction, never a confirmed
award): after a restart the cards are read again from the round and the marks rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.cards import Card
from dealer_console.employees.authorize import Refused as SwipeRefused
from dealer_console.employees.authorize import log_accepted
from dealer_console.employees.registry import Employee
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.jackpot import confirm_rules, games, linked
from dealer_console.jackpot.confirm_rules import HitKey, PinWanted
from dealer_console.jackpot.hits import HitRecord, hit_detail, hit_for
from dealer_console.jackpot.link_port import LinkDown, LinkPort
from dealer_console.jackpot.marks import Mark, mark_refusal
from dealer_console.jackpot.outcomes import AskingLink, Held, Outcome, Pay, PinAsked
from dealer_console.jackpot.service import JackpotRound, Pending
from dealer_console.jackpot_values.link_records import HitAnswer, HitAsk, LinkedHit
from dealer_console.jackpot_values.meters import MeterState
from dealer_console.jackpot_values.paytable import FixedPay
from dealer_console.money import format_cents
from dealer_console.round.commands import JackpotHit
from dealer_console.round.jackpot import Confirmed
from dealer_console.round.phases import not_accepted

if TYPE_CHECKING:
    from dealer_console.round.state import RoundState


@dataclass(slots=True)
class _Asking:
    """A linked hit sent to the link's server; its answer is awaited (the ask is in the
    database too: ``jackpot/linked.py``)."""

    key: HitKey
    first: Employee
    second: Employee | None
    ask: HitAsk


_AFTER_START = ("action", "dealing", "deal_check", "misdeal", "banker_set", "players_set",
                "settlement", "end")


class JackpotSystem:
    """One table's jackpot games behind the round (see the module doc)."""

    owns_awards = True

    def __init__(self, db: Database, link: LinkPort | None = None,
                 pin_spots: frozenset[int] = frozenset()) -> None:
        self.db = db
        self.link = link
        """The port to the linked games' links (the link's hook implements it), None when
        nothing is linked."""
        self._round: JackpotRound | None = None
        self._held: tuple[HitKey, Employee, str] | None = None
        """The first of two confirmations: ((round, spot, seat, line), who, their card for a
        link that reads it itself: in memory only), nothing paid."""
        self.pin_spots = pin_spots
        """The games whose confirmations ask for the confirmer's PIN (``pin_required``)."""
        self._pin: PinWanted | None = None
        self._asking: _Asking | None = None

    # -- linked games (``jackpot/linked.py``) -------------------------------------------------

    def _tray_while_down(self, spot: int, line_no: int) -> bool:
        """A linked game's hand paid from the tray while its link is down: paid at the table
        and reported to the link when it answers again. Washington, Rules of Play item 9 b:
        such hands are paid from the tray and do not come off the meter, so the shared meter
        has nothing to decide; an outage mid-round must not stop the table's base game
        (issue 25). A pay that comes off the meter still waits for the link."""
        if self.link is None or self.linked_to(spot) is None or self.link.is_up():
            return False
        game = games.game_config(self.db, spot)
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
        return games.meter_states(self.db, spot)

    def _quote_states(self, spot: int) -> dict[str, MeterState] | None:
        """What a swipe's card is checked against: None (the table's meters) or the shared
        meters, refused before the server has told them."""
        if self.linked_to(spot) is None:
            return None
        assert self.link is not None
        shared = self.link.meters(spot)
        if shared is None:
            raise Refusal(f"the jackpot link {self.linked_to(spot)} has not told this "
                          "table its meters yet: wait a moment and swipe again")
        return shared

    def asking(self) -> str | None:
        """The hit the link's server is being asked to pay, in words, or None."""
        if self._asking is None:
            return None
        _, spot, seat, _ = self._asking.key
        return f"seat {seat}'s hit on the jackpot link {self.linked_to(spot)}"

    def answered(self, answer: HitAnswer) -> Pay | None:
        """The server's answer to the hit asked (owner thread). Paid: the hit to pay with the
        server's amounts (the desk hands it to the round). Refused: nothing was paid, the mark
        is free again; not answered (``RefusalCode.LINK_UNANSWERED``): the server may have
        paid it, the mark stays until a swipe asks again. Both are raised in plain words. An
        answer to nothing asked is ignored (None)."""
        asking = self._asking
        if asking is None or asking.ask != answer.ask:
            return None
        round_id, spot, seat, line_no = asking.key
        if answer.hit is None:
            if answer.refused is not None:
                # written before the ask is forgotten: a disk that refuses the write keeps
                # the ask, and the answer applied again records the refusal then
                linked.refuse_ask(self.db, round_id=round_id, spot=spot, seat=seat,
                                  why=answer.refused)
                self._asking = None
                raise Refusal(f"the jackpot link refused seat {seat}'s hit, nothing "
                              f"was paid: {answer.refused}")
            self._asking = None
            raise Refusal(
                f"the jackpot link did not answer ({answer.failed}): it may have paid seat "
                f"{seat}'s hit; swipe again once the link is back (it is paid once, never "
                "twice)", RefusalCode.LINK_UNANSWERED)
        paid = answer.hit
        if (paid.round_id, paid.spot, paid.seat, paid.line_no) != (round_id, spot, seat,
                                                                   line_no):
            self._asking = None
            raise Refusal(f"the jackpot link answered for another hit (round "
                          f"{paid.round_id} seat {paid.seat} line {paid.line_no}): "
                          "call the link's operator")
        # the ask stays until the round has recorded the pay (:meth:`paid`, or
        # :meth:`pay_refused`): an answer the disk would not take is applied again, and the
        # same answer pays then
        return Pay(round_id, spot, seat, line_no, asking.first, asking.second, paid)

    def pay_refused(self) -> None:
        """The round refused the pay the link answered: the ask is done with (told)."""
        self._asking = None

    def _ask(self, key: HitKey, first: Employee, second: Employee | None,
             cards: tuple[str, ...]) -> AskingLink:
        """Send a linked hit to the server (the ask written first, committed), with the cards
        swiped (``cards``, the first confirmer's first), which a link that reads the cards
        itself reads again; they are never written down."""
        round_id, spot, seat, line_no = key
        link = self.linked_to(spot)
        assert link is not None and self.link is not None
        ask = HitAsk(link, round_id, spot, seat, line_no, first.employee_id,
                     linked.most_cents(games.game_config(self.db, spot), first, second),
                     None if second is None else second.employee_id, cards=cards)
        linked.record_ask(self.db, round_id=round_id, spot=spot, seat=seat, line_no=line_no,
                          link=link, employee_id=first.employee_id)
        self._asking = _Asking(key, first, second, ask)
        try:
            self.link.ask(ask)
        except LinkDown as exc:
            self._asking = None
            raise Refusal(str(exc), RefusalCode.LINK_DOWN) from None
        what = self.asking()
        assert what is not None
        return AskingLink(what)

    # -- the round's hook (inside the round's transaction) ------------------------------------

    def start_game(self, db: Database, round_id: int,
                   wagers: Mapping[int, Mapping[int, int]]) -> None:
        installed = set(games.spots(db))
        for spot, seats in wagers.items():
            if spot not in installed:
                raise Refusal(f"jackpot wagers on sensor spot {spot}, but no jackpot "
                              "game is installed there")
            game = games.game_config(db, spot)
            for seat, cents in seats.items():
                if cents != game.wager_cents:
                    raise Refusal(
                        f"seat {seat}: jackpot game {spot} takes a fixed "
                        f"{format_cents(game.wager_cents)}, not {format_cents(cents)}")
        taken = {spot: list(seats) for spot, seats in wagers.items() if seats}
        if self.link is not None:  # linked games: refused while the link is down
            self._link_check(taken)
        self._round = JackpotRound.start(db, round_id, taken)
        if self.link is not None:  # ... and owed to the link in this same transaction
            self.link.record(db, round_id, taken,
                             {s: games.game_config(db, s).wager_cents for s in taken},
                             clock.stamp())

    def _link_check(self, taken: Mapping[int, list[int]], confirming: bool = False) -> None:
        assert self.link is not None
        try:
            self.link.check_start(taken, confirming=confirming)
        except LinkDown as exc:
            raise Refusal(str(exc), RefusalCode.LINK_DOWN) from None

    def award(self, db: Database, round_id: int, spot: int, seat: int, hand_line: int,
              cards: tuple[Card, ...], employee_id: str, second_id: str | None = None,
              paid: LinkedHit | None = None, tray_report: bool = False) -> Confirmed:
        jr = self._for(round_id)
        if self.linked_to(spot) is not None and not tray_report and (
                paid is None or (paid.round_id, paid.spot, paid.seat) != (round_id, spot, seat)):
            raise Refusal("a linked jackpot's hit is paid only by the link's server: "
                          "press CONFIRM and swipe the card")
        if seat not in jr.hands:
            jr.show_hands({seat: cards})
        mark = jr.game(spot).marks.get(seat)
        if mark is None or jr.game(spot).paytable.number_of(mark.line) != hand_line:
            raise mark_refusal(f"seat {seat}'s hand button on game {spot} is not line "
                               f"{hand_line}: select the seat and press the hand button")
        try:
            hit = jr.confirm_as(spot, seat, employee_id, second_id, paid)
        except SwipeRefused as exc:  # a card's refusal: the round refuses with the one Refusal
            raise Refusal(str(exc)) from None
        if tray_report:  # owed to the link as a report, in this same transaction
            assert self.link is not None
            self.link.record_tray(db, hit)
        return Confirmed(hit.amount_cents, hit.confirmers, hit_detail(hit))

    def end_game(self, db: Database, round_id: int) -> None:
        self._for(round_id).end()
        self._round = None

    def end_problem(self, db: Database, round_id: int) -> str | None:
        return self._for(round_id).end_problem()

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
        """The hand button: mark the selected seat, or (pressed again) clear the dealer's own
        mark."""
        return self._need(state).press_hand(spot, line_no)

    def _need(self, state: RoundState) -> JackpotRound:
        jr = self.current(state)
        if jr is None:
            raise mark_refusal("no jackpot round: the hand buttons work after START GAME")
        return jr

    def required(self, pending: Pending) -> str:
        """Whose card confirms ``pending`` on the meters now: ``supervisor``, ``executive``
        or ``two people`` (the game's two-person level passed). The dealer's panel shows the
        figure after the hits before it instead (``projection.py``)."""
        game = games.game_config(self.db, pending.spot)
        amount = games.quote(self.db, pending.spot, game.paytable.number_of(pending.mark.line),
                             self.meter_states(pending.spot)).amount_cents
        return confirm_rules.needed(game, amount)

    def _key_of_next(self, state: RoundState) -> HitKey | None:
        pending = self.marks(state)
        if not pending:
            return None
        first = pending[0]
        line_no = self._need(state).game(first.spot).paytable.number_of(first.mark.line)
        return (state.round_id, first.spot, first.mark.seat, line_no)

    def held(self, state: RoundState) -> Employee | None:
        """Who gave the first of two confirmations of the next hit, or None."""
        if self._held is None:
            return None
        return self._held[1] if self._held[0] == self._key_of_next(state) else None

    def drop_held(self) -> None:
        """CANCEL, or a new round: a held first confirmation, and a PIN still wanted, are
        forgotten (they paid nothing)."""
        self._held = None
        self._pin = None

    def confirm(self, state: RoundState, track: str) -> Outcome:
        """A swipe confirms the next hit in order. The card is authorised here, once: a
        refusal is logged (committed on its own) and raised, nothing else changes; an accepted
        swipe comes to an outcome, which names the employee, never the card's data.

        Where the award needs two people (the game's ``two_person_above``), the first accepted
        swipe is :class:`Held` (logged, nothing paid) and the second, a different person of
        the other role, pays it with both names. Where the game asks for a PIN
        (``pin_required``), an accepted swipe is :class:`PinAsked`: it pays or is held only
        after the confirmer's PIN (:meth:`enter_pin`)."""
        key, amount, action = self._next(state)
        game = games.game_config(self.db, key[1])
        self._pin = None  # a new swipe replaces a PIN still wanted
        held = self.held(state) if game.needs_two(amount) else None
        employee = (confirm_rules.first_card(self.db, track, game, amount, action)
                    if held is None else confirm_rules.second_card(self.db, track, held, action))
        if key[1] in self.pin_spots:
            confirm_rules.pin_may_follow(self.db, employee, action)
            self._pin = PinWanted(key, employee, action, track)
            return PinAsked(employee)
        return self._accepted(state, key, employee, action, track)

    def enter_pin(self, state: RoundState, pin: str) -> Outcome:
        """The confirmer's PIN after their swipe. Right: the swipe counts (pay, or the first
        of two held). Wrong: logged as a refused swipe with the reason "wrong PIN" and raised,
        nothing paid; the third wrong PIN calls the confirmation off (the card must be swiped
        again)."""
        wanted = self._pin
        if wanted is None or wanted.key != self._next(state)[0]:
            self._pin = None
            raise mark_refusal("no card is waiting for its PIN: swipe the card first")
        try:
            confirm_rules.check_pin(self.db, wanted, pin)
        except SwipeRefused:
            if wanted.called_off:
                self._pin = None
            raise
        self._pin = None
        return self._accepted(state, wanted.key, wanted.employee, wanted.action,
                              wanted.track)

    def pin_wanted(self, state: RoundState) -> Employee | None:
        """Whose PIN the next hit waits for (their card accepted), or None."""
        wanted = self._pin
        if wanted is None:
            return None
        return wanted.employee if wanted.key == self._key_of_next(state) else None

    def _next(self, state: RoundState) -> tuple[HitKey, int, str]:
        """The next hit to confirm: its key, amount and what the swipe log calls it."""
        pending = self.marks(state)
        if not pending:
            raise mark_refusal("no jackpot hand is waiting to be confirmed")
        not_yet = not_accepted(state.phase, JackpotHit)
        if not_yet:  # before any card is read or a link asked (it would pay at once)
            raise mark_refusal(f"{not_yet}: swipe once the hands are settled")
        first = pending[0]
        if self._asking is not None:
            raise Refusal(f"the jackpot link is paying {self.asking()}: wait for its "
                          "answer on this screen")
        jr = self._need(state)
        line_no = jr.game(first.spot).paytable.number_of(first.mark.line)
        if self.link is not None and not self._tray_while_down(first.spot, line_no):
            # a linked hit is confirmed only while the link answers (but a tray pay)
            self._link_check({first.spot: [first.mark.seat]}, confirming=True)
        round_id = state.round_id
        states = self._quote_states(first.spot)
        _role, action = confirm_rules.hit_action(self.db, round_id, first.spot,
                                                 first.mark.seat, line_no, states)
        amount = games.quote(self.db, first.spot, line_no, states).amount_cents
        return (round_id, first.spot, first.mark.seat, line_no), amount, action

    def _accepted(self, state: RoundState, key: HitKey, employee: Employee,
                  action: str, track: str) -> Outcome:
        """A confirmer accepted (card, and PIN where asked): pay, or hold the first of two;
        a linked hit is sent to its server with the cards swiped (the answer comes to
        :meth:`answered`)."""
        _round_id, spot, _seat, line_no = key
        amount = games.quote(self.db, spot, line_no, self._quote_states(spot)).amount_cents
        first: Employee = employee
        second: Employee | None = None
        cards: tuple[str, ...] = (track,)
        if games.game_config(self.db, spot).needs_two(amount):
            held = self.held(state)
            if held is None:
                with self.db.atomic():
                    log_accepted(self.db, employee, f"{action}: the first of two, held")
                self._held = (key, employee, track)
                return Held(employee)
            assert self._held is not None
            first, second, cards = held, employee, (self._held[2], track)
        if self.linked_to(spot) is not None and not self._tray_while_down(spot, line_no):
            return self._ask(key, first, second, cards)
        return Pay(*key, first, second, tray_report=self.linked_to(spot) is not None)

    def paid(self, pay: Pay) -> HitRecord:
        """The round recorded ``pay``: a held first confirmation is done with; the hit as
        stored."""
        self._held = None
        if self._asking is not None and self._asking.key == (pay.round_id, pay.spot, pay.seat,
                                                             pay.line_no):
            self._asking = None  # the link's pay, recorded
        hit = hit_for(self.db, pay.round_id, pay.spot, pay.seat)
        assert hit is not None
        return hit
