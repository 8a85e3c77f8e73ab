"""Issue 23: a jackpot is marked, confirmed and passed by the audit only on a hand that wins it.

Every line of every shipped jackpot paytable is tried with a hand that wins it and a near miss
(one card away), taken from a catalogue written here by hand, class by class, independently of
the hand engine: the mark is refused for the near miss with what the cards do win, a mark that
got past (an earlier version's) is refused again at the confirmation, and the audit names a
non-qualifying award the log holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.cards import parse_cards
from dealer_console.jackpot import service
from dealer_console.jackpot.marks import GameMarks, Mark, MarkSource
from dealer_console.jackpot.qualify import why_not, winning_line
from dealer_console.jackpot_values.paytable import JackpotLine, JackpotPaytable, load
from dealer_console.paytables import PaytableKind, get_paytable, paytable_names
from dealer_console.round import commands as c
from dealer_console.seven import FortuneClass as F
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import mark_refused, swipe
from tests.jackpot.test_round_integration import _table, _to_settlement
from tests.round.helpers import settle_all

CATALOGUE: dict[F, tuple[str, str]] = {
    # class: (a hand whose best class it is, a near miss one card away)
    F.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: ("5h 6h 7h 8h 9h Th Jh", "5h 6h 7h 8h 9h Th Js"),
    F.ROYAL_FLUSH_ROYAL_MATCH: ("As Ks Qs Js Ts Kd Qd", "As Ks Qs Js Ts Kd Qc"),
    F.WILD_SEVEN_CARD_STRAIGHT_FLUSH: ("5h 6h 7h JK 9h Th Jh", "5h 6h 7h JK 9h Th Js"),
    F.FIVE_ACES: ("As Ad Ah Ac JK 2d 7h", "As Ad Ah Ac Kd 2d 7h"),
    F.ROYAL_FLUSH: ("As Ks Qs Js Ts 2d 7h", "As Ks Qs Js 9s 2d 7h"),
    F.STRAIGHT_FLUSH: ("5d 6d 7d 8d 9d 2c Kh", "5d 6d 7d 8d 9c 2c Kh"),
    F.FOUR_OF_A_KIND: ("9c 9d 9h 9s 2d 5h Kc", "9c 9d 9h 2s 2d 5h Kc"),
    F.FULL_HOUSE: ("Kd Ks Kh 9c 9d 2s 4h", "Ad Qh 8s 2s 3s Ac As"),  # the three aces
    F.FLUSH: ("2h 5h 8h Jh Kh 3c 9d", "2h 5h 8h Jh Kc 3c 9d"),
    F.THREE_OF_A_KIND: ("7c 7d 7h 2s 5d 9h Kc", "7c 7d 3h 2s 5d 9h Kc"),
    F.STRAIGHT: ("4c 5d 6h 7s 8c Kd 2h", "4c 5d 6h 7s 9c Kd 2h"),
    F.THREE_PAIR: ("4c 4d 8h 8s Kc Kd 2h", "4c 4d 8h 8s Kc Qd 2h"),
}

JACKPOT_TABLES = [n for n in paytable_names() if get_paytable(n).kind is PaytableKind.JACKPOT]
CASES = [(name, number, cls) for name in JACKPOT_TABLES
         for number, line in enumerate(load(name).lines, start=1) for cls in line.hands]


def test_every_shipped_jackpot_line_is_tried() -> None:
    assert len(JACKPOT_TABLES) >= 4
    assert all(cls in CATALOGUE for _, _, cls in CASES)


def _marks(table: JackpotPaytable, cards: str) -> GameMarks:
    marks = GameMarks(table, frozenset({3}))
    marks.detect({3: parse_cards(cards, 7)})
    marks.select_seat(3)
    return marks


@pytest.mark.parametrize(("name", "number", "cls"), CASES)
def test_the_line_is_marked_on_its_hand_and_refused_on_a_near_miss(
        name: str, number: int, cls: F) -> None:
    table = load(name)
    line = table.line(number)
    winning, near = CATALOGUE[cls]

    assert why_not(table, parse_cards(winning, 7), line, 3) is None
    marks = _marks(table, winning)
    assert [m.line for m in marks.in_payment_order()] == [line]  # marked on sight
    with mark_refused("stays marked"):
        marks.press_hand(number)  # the console's mark is not the dealer's to take back
    assert [m.line for m in marks.in_payment_order()] == [line]
    assert marks.press_hand(number, undo_detected=True) is None  # the link refused it
    mark = marks.press_hand(number)  # and the dealer's own press puts it back
    assert mark is not None and mark.line == line and mark.agrees
    assert marks.press_hand(number) is None  # which a second press takes back

    marks = _marks(table, near)
    before = dict(marks.marks)
    with mark_refused() as refused:
        marks.press_hand(number)
    assert marks.marks == before, "a refused press changes no mark"
    said = str(refused.value)
    assert f"cannot mark {line.label}" in said and "seat 3's cards" in said
    assert f"not {line.label.lower()}" in said
    wins = winning_line(table, parse_cards(near, 7))
    if wins is None:
        assert "win no line of this jackpot" in said
    else:
        assert wins != line and f"win {wins.label} (hand button {table.number_of(wins)})" in said


def test_a_lower_line_the_hand_also_holds_is_not_its_award() -> None:
    wa01 = load("fupgpp-wa01")
    five_aces = parse_cards(CATALOGUE[F.FIVE_ACES][0], 7)
    four = next(n for n, ln in enumerate(wa01.lines, 1) if F.FOUR_OF_A_KIND in ln.hands)
    said = why_not(wa01, five_aces, wa01.line(four), 2)
    assert said is not None and "make five aces" in said


def test_cards_not_read_are_never_marked() -> None:
    table = load("fupgpp-wa03")
    marks = GameMarks(table, frozenset({3}))
    marks.select_seat(3)
    with mark_refused("not known yet"):
        marks.press_hand(1)
    assert marks.marks == {}


def _forced(line: JackpotLine) -> Mark:
    return Mark(3, line, MarkSource.DEALER, None)


def test_the_confirmation_checks_the_cards_again(tmp_path: Path) -> None:
    """A mark that got past the dealer's check (an earlier version, a mark rebuilt after a
    restart) is refused when the supervisor's card would pay it, and nothing is paid."""
    table, system = _table(tmp_path)
    _to_settlement(table, {2: CATALOGUE[F.FULL_HOUSE][1]})  # seat 3: the three aces
    settle_all(table)
    jr = system.current(table.state)
    assert jr is not None and jr.pending() == []
    game = jr.game(1)
    full_house = next(ln for ln in game.paytable.lines if F.FULL_HOUSE in ln.hands)
    game.marks[3] = _forced(full_house)
    with mark_refused("Full house is not paid: seat 3's cards"):
        jr.confirm_as(1, 3, "S1")
    assert table.db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 0


def test_the_audit_names_an_award_the_cards_do_not_win(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log written by a version without the check (the check switched off here) holds a full
    house paid on three aces: the audit's rebuild, asking the same rule, says so."""
    table, system = _table(tmp_path)
    _to_settlement(table, {2: CATALOGUE[F.FULL_HOUSE][1]})
    settle_all(table)
    jr = system.current(table.state)
    assert jr is not None
    game = jr.game(1)
    full_house = next(ln for ln in game.paytable.lines if F.FULL_HOUSE in ln.hands)
    game.marks[3] = _forced(full_house)
    assert audit(table.db).ok
    monkeypatch.setattr(service, "why_not", lambda *args: None)
    swipe(system, table, CARDS["supervisor"])
    table.handle(c.EndGame())
    problems = audit(table.db).problems
    assert any("Full house paid, but seat 3's cards" in p and "make three of a kind" in p
               for p in problems), problems
