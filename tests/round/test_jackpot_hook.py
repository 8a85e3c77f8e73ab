"""The round's jackpot hook: called inside the transitions' transactions, its award stored in
the hit's event (so a replay never recomputes it) and paid as a settlement line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console.audit.verify import audit
from dealer_console.cards import Card
from dealer_console.employees.registry import Employee, Role
from dealer_console.round import commands as c
from dealer_console.round.jackpot import Confirmed
from dealer_console.round.machine import Refused
from dealer_console.round.state import Phase
from dealer_console.round.table import Table
from tests.round.helpers import (
    deal,
    hands_with,
    make_table,
    reopen,
    set_all_house_way,
    settle_all,
)

SUPERVISOR = Employee("S7", "Sam Super", Role.SUPERVISOR, enabled=True)
"""Authorised already: the round never sees a card."""


class MeterLedger:
    """A minimal jackpot system: a meter in a table of the same database."""

    owns_awards = False

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []
        self.awards = 0

    def start_game(self, db: Database, round_id: int,
                   wagers: Mapping[int, Mapping[int, int]]) -> None:
        self.calls.append(("start", db.conn.in_transaction))
        db.execute("CREATE TABLE IF NOT EXISTS meter (round_id INTEGER, cents INTEGER)")
        db.execute("INSERT INTO meter VALUES (?, ?)",
                   [round_id, sum(wagers[1].values()) // 2])

    def award(self, db: Database, round_id: int, spot: int, seat: int, hand_line: int,
              cards: tuple[Card, ...], employee_id: str) -> Confirmed:
        self.calls.append(("award", db.conn.in_transaction))
        self.awards += 1
        return Confirmed(123_45, f"employee {employee_id}", {"hit_id": 1})

    def end_game(self, db: Database, round_id: int) -> None:
        self.calls.append(("end", db.conn.in_transaction))


def _table(tmp_path: Path, ledger: MeterLedger) -> Table:
    table = make_table(tmp_path, "washington-face-up")
    return Table(table.db, table.rules, table.state, table.services, ledger)


def test_hook_runs_inside_each_transition_and_the_award_is_paid_once(tmp_path: Path) -> None:
    ledger = MeterLedger()
    table = _table(tmp_path, ledger)
    for seat in (1, 2):
        table.handle(c.PlaceWager(seat, "base", 2000))
        table.handle(c.PlaceWager(seat, "jackpot", 100))
    table.handle(c.StartGame())
    assert table.db.execute("SELECT cents FROM meter").fetchone()[0] == 100
    table.handle(c.SetActionNumber(9))
    deal(table, hands_with({}))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    with pytest.raises(Refused, match="no jackpot wager"):
        table.handle(c.JackpotHit(3, 1, SUPERVISOR))
    with pytest.raises(Refused, match="withdrawn"):
        table.handle(c.JackpotHit(1, 1, replace(SUPERVISOR, enabled=False)))
    table.handle(c.JackpotHit(1, 4, SUPERVISOR))
    with pytest.raises(Refused, match="already has a jackpot hit"):
        table.handle(c.JackpotHit(1, 4, SUPERVISOR))
    settle_all(table)
    assert table.state.phase is Phase.END
    table.handle(c.EndGame())
    assert ledger.calls == [("start", True), ("award", True), ("end", True)]
    line = table.db.execute("SELECT kind, returned_cents, house_delta_cents FROM"
                            " settlement_lines WHERE kind LIKE 'jackpot_award%'").fetchone()
    assert tuple(line) == ("jackpot_award_4", 12345, -12345)
    hit = table.db.execute("SELECT payload FROM events WHERE kind = 'jackpot_hit'").fetchone()
    assert "confirmer" not in hit[0]  # the hook turned the employee into who confirmed
    assert '"who":"employee S7"' in hit[0] and '"hit_id":1' in hit[0]
    assert audit(table.db).ok
    again = reopen(table)  # replayed without calling the hook again
    assert ledger.awards == 1
    assert again.state.round_id == 2


def test_without_a_jackpot_system_a_hit_is_refused(tmp_path: Path) -> None:
    table = make_table(tmp_path, "california-face-up")
    with pytest.raises(Refused, match="not allowed in phase banker"):
        table.handle(c.JackpotHit(1, 1, SUPERVISOR))
