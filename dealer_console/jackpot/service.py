"""One round of the table jackpot, headless: from the sensors' lock to END GAME.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" items 6 and 9: START GAME
takes the sensed wagers; the console marks qualifying hands and the dealer's seat and hand
buttons correct the marks; each hit is confirmed by a card swipe, meter hits of a game in the
rule's order (farthest to the dealer's right first, each on the meter as it then stands); END
GAME closes the round. The UI and the keypad driver call this; it holds no Qt and no device.

Marks live in memory; what is confirmed lives in the database. After a crash, :meth:`resume`
rebuilds the round from its wagers and confirmed hits, so a confirmed award is never paid twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from dealer_console.cards import Card
from dealer_console.jackpot import games, linked
from dealer_console.jackpot.confirm_rules import confirm_hit
from dealer_console.jackpot.games import JackpotError
from dealer_console.jackpot.hits import HitRecord, hit_for
from dealer_console.jackpot.marks import GameMarks, Mark, MarkSource, mark_refusal, payment_order
from dealer_console.jackpot.qualify import why_not
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.jackpot_values.paytable import FixedPay


@dataclass(frozen=True, slots=True)
class Pending:
    spot: int
    mark: Mark


class JackpotRound:
    def __init__(self, db: Database, round_id: int) -> None:
        self.db = db
        self.round_id = round_id
        self.games: dict[int, GameMarks] = {}
        self.hands: dict[int, tuple[Card, ...]] = {}
        for spot in games.spots(db):
            game = games.game_config(db, spot)
            self.games[spot] = GameMarks(game.paytable,
                                         games.wagered_seats(db, round_id, spot))
        for ask in linked.open_asks(db, round_id):  # a hit the link may have paid keeps its
            marks = self.games[ask.spot]  # line (after a restart too): jackpot/linked.py
            marks.marks[ask.seat] = Mark(ask.seat, marks.paytable.line(ask.line_no),
                                         MarkSource.DEALER, None)

    @classmethod
    def start(cls, db: Database, round_id: int,
              sensed: Mapping[int, Iterable[int]]) -> JackpotRound:
        """START GAME: take every sensed wager (``{spot: seats}``) in one transaction."""
        with db.atomic():
            for spot, seats in sorted(sensed.items()):
                games.take_wagers(db, round_id, spot, seats)
        return cls(db, round_id)

    @classmethod
    def resume(cls, db: Database, round_id: int) -> JackpotRound:
        return cls(db, round_id)

    def game(self, spot: int) -> GameMarks:
        if spot not in self.games:
            raise JackpotError(f"this table has no jackpot game on sensor spot {spot}")
        return self.games[spot]

    def show_hands(self, hands: Mapping[int, Sequence[Card]]) -> list[Pending]:
        """The players' seven cards as the console learns them; returns the new marks."""
        self.hands.update({seat: tuple(cards) for seat, cards in hands.items()})
        return [Pending(spot, m) for spot, g in sorted(self.games.items())
                for m in g.detect(hands)]

    def select_seat(self, spot: int, seat: int) -> None:
        self.game(spot).select_seat(seat)

    def press_hand(self, spot: int, line_no: int) -> Mark | None:
        game = self.game(spot)
        if game.selected is not None and self._confirmed(spot, game.selected):
            raise mark_refusal(f"seat {game.selected}'s jackpot hit is confirmed; only a manual "
                            "adjustment can back it out")
        if game.selected is not None and any(
                a.spot == spot and a.seat == game.selected
                for a in linked.open_asks(self.db, self.round_id)):
            raise mark_refusal(f"seat {game.selected}'s hit was sent to the jackpot link, which "
                            "may have paid it: it cannot be changed now; swipe again to learn "
                            "the award")
        refused = game.selected is not None and linked.was_refused(
            self.db, self.round_id, spot, game.selected)
        return game.press_hand(line_no, undo_detected=refused)

    def _confirmed(self, spot: int, seat: int) -> bool:
        return hit_for(self.db, self.round_id, spot, seat) is not None

    def pending(self) -> list[Pending]:
        """Marks not yet confirmed, game by game, each game's in the rule's payment order."""
        return [Pending(spot, m) for spot, g in sorted(self.games.items())
                for m in g.in_payment_order() if not self._confirmed(spot, m.seat)]

    def _takes_from_meter(self, spot: int, mark: Mark) -> bool:
        if not isinstance(mark.line.pay, FixedPay):
            return True
        return games.game_config(self.db, spot).fixed_from_meter

    def _mark(self, spot: int, seat: int) -> Mark:
        mark = self.game(spot).marks.get(seat)
        if mark is None:
            raise mark_refusal(f"seat {seat} has no jackpot hand marked on game {spot}")
        return mark

    def _check_order(self, spot: int, seat: int) -> None:
        game = self.game(spot)
        mark = self._mark(spot, seat)
        if self._takes_from_meter(spot, mark):
            for earlier in payment_order(game.marks):
                if earlier == seat:
                    break
                other = game.marks[earlier]
                if self._takes_from_meter(spot, other) and not self._confirmed(spot, earlier):
                    raise mark_refusal(
                        f"seat {earlier} is paid off the meter before seat {seat}: "
                        "confirm it first (farthest to the dealer's right first)"
                    )

    def confirm_as(self, spot: int, seat: int, employee_id: str,
                   second_id: str | None = None, paid: LinkedHit | None = None) -> HitRecord:
        """Record seat ``seat``'s hit, confirmed by an employee whose swipe was authorised
        (and by a second where the award needs two people); ``paid``: the link's server paid
        it from the shared meter (``jackpot/linked.py``)."""
        game = self.game(spot)
        mark = self._mark(spot, seat)
        self._check_order(spot, seat)
        refused = why_not(game.paytable, self.hands.get(seat), mark.line, seat)
        if refused is not None:  # the mark was checked; the cards are checked again here
            raise mark_refusal(f"{mark.line.label} is not paid: {refused}")
        detected = game.won(seat)
        return confirm_hit(
            self.db, round_id=self.round_id, spot=spot, seat=seat,
            line_no=game.paytable.number_of(mark.line), employee_id=employee_id,
            cards=self.hands.get(seat),
            detected_line_no=game.paytable.number_of(detected) if detected else None,
            second_employee_id=second_id, linked=paid,
        )

    def end(self) -> None:
        """END GAME: refused while a marked hand waits for its confirmation."""
        problem = self.end_problem()
        if problem:
            raise mark_refusal(problem)

    def end_problem(self) -> str | None:
        """Why END GAME is refused now (a marked hand waits for its confirmation), or None."""
        pending = self.pending()
        if not pending:
            return None
        first = pending[0]
        undo = "" if first.mark.source is MarkSource.DETECTED else " or clear its hand button"
        return (f"seat {first.mark.seat}'s jackpot hand ({first.mark.line.label}) is not "
                f"confirmed: confirm it{undo} before END GAME")
