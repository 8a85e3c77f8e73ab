"""The jackpot desk: the keypad's jackpot buttons and the confirmation of a hit by a card,
the money bag's win page and the back-out of an award, and the jackpot panel's part of the
view (Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" items 6 and 9).

The marks of the qualifying hands are detected once, in the handling step, as the round's
cards become known (:meth:`JackpotDesk.show_cards`); building the view only reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.view import ConfirmedHit, Level, PendingHit, WinPageRequest
from dealer_console.devices.bet_sensors import BetsLocked
from dealer_console.employees.registry import Employee, Role
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.jackpot import back_outs, games, history, hits, win_prints
from dealer_console.jackpot.hits import HitRecord
from dealer_console.jackpot.link_port import LinkDown
from dealer_console.jackpot.outcomes import Outcome, Pay
from dealer_console.jackpot.projection import project
from dealer_console.jackpot.system import JackpotSystem
from dealer_console.jackpot_values.link_records import HitAnswer
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.machine import Refused
from dealer_console.round.rules import RoundRules
from dealer_console.round.state import RoundState
from dealer_console.round.table import Table


class Tell(Protocol):
    def __call__(self, level: Level, what: str, todo: str = "",
                 code: RefusalCode | None = None) -> None: ...


class JackpotDesk:
    def __init__(self, system: JackpotSystem | None, table: Table, rules: RoundRules,
                 cards: CardDesk, tell: Tell, changed: Callable[[], None],
                 after: Callable[[RoundState], None]) -> None:
        self.system = system
        self.table = table
        self.rules = rules
        self._cards = cards
        self._tell = tell
        self._changed = changed
        self._after = after
        spots = sorted(s for s, k in JACKPOT_KINDS.items() if k in rules.wager_kinds)
        self.game = spots[0] if spots else 1
        """The sensor spot whose game the seat and hand buttons act on."""
        self.armed = False
        """CONFIRM was pressed: the next swipe confirms the first pending hit."""
        self.last_hit: ConfirmedHit | None = None
        self.win_page: WinPageRequest | None = None
        self._lines: dict[int, tuple[str, ...]] = {} if system is None else {
            spot: tuple(line.label for line in games.game_config(table.db, spot).paytable.lines)
            for spot in games.spots(table.db)}
        """Each game's hand buttons, top line first (the games are fixed while the table is
        open)."""

    def _system(self) -> JackpotSystem:
        if self.system is None:
            raise Refused("this table has no jackpot")
        return self.system

    @property
    def _state(self) -> RoundState:
        return self.table.state

    # -- the handling step ----------------------------------------------------------------------

    def show_cards(self, st: RoundState) -> None:
        """The one place the qualifying hands are marked: after a transition (or a resume),
        once the round's cards are known (each hand is read once: a mark the dealer cleared
        stays cleared)."""
        if self.system is not None:
            self.system.current(st)

    def new_round(self) -> None:
        self.armed, self.last_hit = False, None
        if self.system is not None:
            self.system.drop_held()

    def asking(self) -> str | None:
        return None if self.system is None else self.system.asking()

    def link_refuses(self, event: BetsLocked) -> str | None:
        """Why a linked jackpot's chips cannot be taken now (its link is down), checked
        before any of them becomes a wager, or None."""
        system = self.system
        if system is None or system.link is None:
            return None
        sensed: dict[int, list[int]] = {}
        for spot in event.wagered:
            sensed.setdefault(spot.spot, []).append(spot.seat)
        try:
            system.link.check_start(sensed)
        except LinkDown as exc:
            return str(exc)
        return None

    # -- the keypad's buttons, or the same on screen ------------------------------------------

    def select_game(self, spot: int) -> None:
        if JACKPOT_KINDS.get(spot) not in self.rules.wager_kinds:
            raise Refused(f"this table has no jackpot game on sensor spot {spot}")
        self.game = spot
        self._changed()

    def seat(self, seat: int) -> None:
        self._system().select_seat(self._state, self.game, seat)
        self._changed()

    def hand(self, line_no: int) -> None:
        self._system().press_hand(self._state, self.game, line_no)
        self._changed()

    def arm(self) -> None:
        if not self._system().marks(self._state):
            raise Refused("no jackpot hand is waiting to be confirmed")
        self.armed = True
        self._changed()

    def cancel(self) -> None:
        """CANCEL: disarmed, and a held first confirmation or a PIN wanted forgotten."""
        self.armed = False
        if self.system is not None:
            self.system.drop_held()
        self._changed()

    def confirm(self, track: str) -> None:
        before = self.table.state
        try:
            hit = carry_out(self._system(), self.table,
                            self._system().confirm(self.table.state, track))
        finally:
            self._changed()  # a PIN wanted, or one no longer wanted, is drawn either way
        self._confirmed(before, hit)

    def enter_pin(self, pin: str) -> None:
        before = self.table.state
        try:
            hit = carry_out(self._system(), self.table,
                            self._system().enter_pin(self.table.state, pin))
        except Refusal as exc:
            self._tell(Level.REFUSED, exc.why, code=exc.code)  # drawn under the hit
            raise
        finally:
            self._changed()
        self._confirmed(before, hit)

    def link_answered(self, answer: HitAnswer) -> None:
        """The link's server answered the hit asked: recorded with its amounts, or the
        refusal told in plain words (nothing paid; or, unanswered, swipe again). An answer
        the disk would not take (a pay, or a refusal's record) is raised as it is: the
        controller applies it again once the disk takes writes (the ask is kept until then)."""
        before = self.table.state
        system = self._system()
        try:
            pay = system.answered(answer)
            try:
                hit = None if pay is None else carry_out(system, self.table, pay)
            except Refusal:
                system.pay_refused()
                raise
        except Refusal as exc:
            if exc.code is RefusalCode.LINK_UNANSWERED:  # not a refusal: it may have paid it
                self._tell(Level.WARNING, exc.why, "swipe the card again once the link is back",
                           exc.code)
            else:
                self._tell(Level.REFUSED, exc.why, code=exc.code)
            return
        finally:
            self._changed()
        if hit is not None:
            self._confirmed(before, hit)

    def _confirmed(self, before: RoundState, hit: HitRecord | None) -> None:
        system = self._system()
        asking = system.asking() if hit is None else None
        if asking is not None:  # the answer comes back as a LinkAnswered event
            self._tell(Level.INFO, f"card accepted: the jackpot link is paying {asking}",
                       "wait for the award on this screen")
            return
        pin_for = system.pin_wanted(self._state) if hit is None else None
        if pin_for is not None:  # the panel asks for the PIN
            self._tell(Level.INFO, f"{pin_for.name}'s card accepted: nothing is paid yet",
                       f"{pin_for.name} types their PIN now")
            return
        if hit is None:  # the first of two people: held, nothing paid, the swipe still awaited
            held = system.held(self._state)
            assert held is not None
            self._tell(Level.INFO, f"{held.name} ({held.role.value}) confirmed first: "
                       "nothing is paid yet", "the second person swipes their card now")
            return
        self.armed = False
        self.last_hit = ConfirmedHit(
            hit.spot, hit.seat, hit.line_label, hit.amount_cents, hit.confirmers, hit.level,
            None if hit.meter_before_micro is None else hit.meter_before_micro // MICRO,
            None if hit.meter_after_micro is None else hit.meter_after_micro // MICRO,
            hit.link, hit.hit_id)
        self._after(before)

    # -- the money bag: the win page of an award (item 9 f); the back-out (item 9 h) ----------

    def request_win_page(self, hit_id: int | None = None,
                         asked_by: Employee | None = None) -> int:
        """The request in the view, its print recorded first with the copy it is
        (``win_prints``): a print the disk will not record is refused, nothing printed."""
        db = self.table.db
        if hit_id is None:
            row = db.execute("SELECT MAX(hit_id) FROM jackpot_hits WHERE round_id = ?",
                             [self._state.round_id]).fetchone()
            if row is None or row[0] is None:
                raise Refused("no jackpot award has been confirmed in this round: earlier "
                              "awards are printed from the supervisor's jackpot screen")
            hit_id = int(row[0])
        else:
            hits.get_hit(db, hit_id)  # an award this table does not have: refused as it is
        copy = win_prints.record_print(db, hit_id, asked_by)
        number = 1 + (self.win_page.number if self.win_page is not None else 0)
        self.win_page = WinPageRequest(hit_id, number, copy)
        self._changed()
        return hit_id

    def win_page_not_printed(self, request: WinPageRequest, why: str) -> None:
        win_prints.record_not_printed(self.table.db, request.hit_id, request.copy, why)

    def win_page_finished(self, request: WinPageRequest, printer: str | None) -> None:
        win_prints.record_finished(self.table.db, request.hit_id, request.copy, printer)

    def win_page_prints(self, hit_id: int) -> list[win_prints.WinPrint]:
        return win_prints.prints_of(self.table.db, hit_id)

    def unfinished_win_pages(self) -> list[win_prints.WinPrint]:
        return win_prints.awaiting_copy(self.table.db)

    def win_page_of(self, hit_id: int) -> HitRecord:
        return hits.get_hit(self.table.db, hit_id)

    def awards(self) -> list[history.AwardEntry]:
        return history.awards_newest_first(self.table.db)

    def meter_ledger(self) -> list[history.LedgerEntry]:
        return history.ledger_newest_first(self.table.db)

    def meter_history(self) -> tuple[list[history.LedgerEntry], list[HitRecord]]:
        db = self.table.db
        return history.meter_history(db), history.hit_history(db)

    def meter_cents(self) -> dict[int, dict[str, int]]:
        db = self.table.db
        if self.system is None:
            return {}
        return {spot: {name: m.meter_cents for name, m in games.meter_states(db, spot).items()}
                for spot in games.spots(db)}

    def ask_back_out(self, hit_id: int, reason: str) -> None:
        problem = back_outs.back_out_problem(self.table.db, hit_id, reason)
        if problem:
            raise Refused(problem)
        why = reason.strip()
        self._cards.want(Role.EXECUTIVE, f"back out jackpot award {hit_id} ({why})",
                         lambda employee: self.back_out(hit_id, why, employee))

    def back_out(self, hit_id: int, reason: str, employee: Employee) -> int:
        # a meter that would go below zero is refused as it is raised: told, kept
        adjustment = back_outs.back_out_by(self.table.db, hit_id=hit_id, reason=reason,
                                           employee_id=employee.employee_id)
        if self.last_hit is not None and self.last_hit.hit_id == hit_id:
            self.last_hit = replace(self.last_hit, backed_out=True)  # no longer "Paid"
        self._tell(Level.INFO, f"award {hit_id} backed out by {employee.name}: {reason}")
        return adjustment

    # -- the jackpot panel's part of the view (reads only) ------------------------------------

    def view(self, st: RoundState) -> dict[str, Any]:
        """Games, wagered seats, marks, the hand buttons of the chosen game, the last
        confirmed hit, and the hits waiting for a swipe."""
        system = self.system
        if system is None:
            return {}
        out: dict[str, Any] = {"jackpot_games": tuple(sorted(self._lines)),
                               "jackpot_last": self.last_hit,
                               "jackpot_lines": self._lines.get(self.game, ()),
                               "jackpot_pending": self._pending(system, st)}
        jr = system.current(st)  # the marks are already shown: nothing is detected here
        if jr is None:
            return out
        out["jackpot_wagered"] = frozenset((spot, seat) for spot, g in jr.games.items()
                                           for seat in g.wagered)
        out["jackpot_marked"] = frozenset(
            (spot, seat, g.paytable.number_of(m.line))
            for spot, g in jr.games.items() for seat, m in g.marks.items())
        chosen = jr.games.get(self.game)
        out["jackpot_selected"] = None if chosen is None else chosen.selected
        held = system.held(st)
        out["jackpot_held"] = None if held is None else f"{held.name} ({held.role.value})"
        pin_for = system.pin_wanted(st)
        out["jackpot_pin_for"] = (None if pin_for is None
                                  else f"{pin_for.name} ({pin_for.role.value})")
        out["jackpot_asking"] = system.asking()
        return out

    def _pending(self, system: JackpotSystem, st: RoundState) -> tuple[PendingHit, ...]:
        """The hits waiting for a swipe, each with its amount and meters as they will be after
        the hits before it (:func:`dealer_console.jackpot.projection.project`)."""
        marks = system.marks(st)
        db = self.table.db
        spots = {p.spot for p in marks}
        configs = {spot: games.game_config(db, spot) for spot in spots}
        states = {spot: system.meter_states(spot) for spot in spots}
        return tuple(
            PendingHit(h.spot, h.seat, h.line_no, h.label, h.amount_cents, h.needs, h.level,
                       h.meter_before_cents, h.meter_after_cents, h.meters_after)
            for h in project(configs, states, [(p.spot, p.mark) for p in marks]))


def carry_out(system: JackpotSystem, table: Table, outcome: Outcome) -> HitRecord | None:
    """What a confirmation came to, carried out: :class:`Pay` goes to the round (its
    transaction records the hit) and the hit is returned; held, a PIN asked or the link asked
    change nothing here (None). The desk is the one caller of the round for a jackpot hit."""
    if not isinstance(outcome, Pay):
        return None
    table.handle(outcome.command())
    return system.paid(outcome)
