"""A linked game's hits at the table: each one asked of the link's server before it is paid.

Washington document, "Linked Paytables for Face Up Pai Gow Poker Jackpot and Fortune Pai Gow
Poker Jackpot": one set of meters fed by many tables. The table's own meter for a linked game
only counts what this table put in; an award comes off the shared meter, so the server decides
it (``dealer_link/server.py``, ``confirm_hit``) and the table records the server's answer.

The table writes each ask here, committed, *before* it is sent (``jackpot_link_asks``). A hit
the server may have paid (the answer lost, the table restarted) is then never forgotten: its
mark is held to the line asked, cannot be cleared or moved, and END GAME waits for it, until a
swipe asks again and the server answers with the hit it already paid. An ask the server
refused (it answered and wrote nothing) is closed, and the mark may be changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.employees.registry import Employee, Role
from dealer_console.jackpot_values.config import GameConfig


@dataclass(frozen=True, slots=True)
class OpenAsk:
    """A hit sent to the link whose answer the table has not recorded."""

    spot: int
    seat: int
    line_no: int


def record_ask(db: Database, *, round_id: int, spot: int, seat: int, line_no: int, link: str,
               employee_id: str) -> None:
    """Write the ask (committed on its own) before it leaves the table."""
    with db.atomic():
        db.execute("INSERT INTO jackpot_link_asks (round_id, spot, seat, line_no, link, "
                   "employee_id, asked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [round_id, spot, seat, line_no, link, employee_id, clock.stamp()])


def refuse_ask(db: Database, *, round_id: int, spot: int, seat: int, why: str) -> None:
    """The server refused the ask and paid nothing: it no longer holds the mark."""
    with db.atomic():
        db.execute("UPDATE jackpot_link_asks SET refused_at = ?, refusal = ? WHERE round_id = ? "
                   "AND spot = ? AND seat = ? AND refused_at IS NULL",
                   [clock.stamp(), why[:500], round_id, spot, seat])


def was_refused(db: Database, round_id: int, spot: int, seat: int) -> bool:
    """The link's server refused to pay this seat's hit this round, and the table recorded
    why: that record is what lets the dealer take the console's mark back (``marks.py``)."""
    return db.execute("SELECT 1 FROM jackpot_link_asks WHERE round_id = ? AND spot = ? AND "
                      "seat = ? AND refused_at IS NOT NULL LIMIT 1",
                      [round_id, spot, seat]).fetchone() is not None


def open_asks(db: Database, round_id: int) -> list[OpenAsk]:
    """The round's asks neither refused nor answered by a recorded hit."""
    return [OpenAsk(int(r[0]), int(r[1]), int(r[2])) for r in db.execute(
        "SELECT a.spot, a.seat, MAX(a.line_no) FROM jackpot_link_asks a WHERE a.round_id = ? "
        "AND a.refused_at IS NULL AND NOT EXISTS (SELECT 1 FROM jackpot_hits h WHERE "
        "h.round_id = a.round_id AND h.spot = a.spot AND h.seat = a.seat) "
        "GROUP BY a.spot, a.seat ORDER BY a.spot, a.seat", [round_id]).fetchall()]


def most_cents(game: GameConfig, first: Employee, second: Employee | None) -> int | None:
    """The largest award these confirmers may confirm (None: any): the server refuses a
    larger one, as the shared meter may have risen since the table quoted it."""
    if second is not None:
        return None  # a supervisor and an executive together confirm any amount
    limits = [game.two_person_above_cents] if game.two_person_above_cents is not None else []
    if first.role is not Role.EXECUTIVE:
        limits.append(game.executive_threshold_cents)
    return min(limits) if limits else None
