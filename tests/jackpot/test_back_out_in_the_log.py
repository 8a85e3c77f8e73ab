"""A back-out is an event of the table's log: the audit rebuilds the adjustment and its meter
entries from it, so a back-out changed, removed or invented in the tables fails the audit."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.round import commands as c
from dealer_console.table_db import open_for_reading
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import back_out_by_card, swipe
from tests.jackpot.test_round_integration import FIVE_ACES, SEVEN_SF, _table, _to_settlement
from tests.round.helpers import settle_all


@pytest.fixture
def backed_out(tmp_path: Path) -> Path:
    table, system = _table(tmp_path)
    _to_settlement(table, {0: FIVE_ACES, 2: SEVEN_SF})
    settle_all(table)
    swipe(system, table, CARDS["executive"])
    swipe(system, table, CARDS["executive"])
    table.handle(c.EndGame())
    hit = table.db.execute("SELECT MIN(hit_id) FROM jackpot_hits").fetchone()[0]
    back_out_by_card(table.db, hit_id=hit, reason="wrong seat", track=CARDS["executive"])
    logged = table.db.execute("SELECT payload FROM events WHERE kind = 'jackpot_backed_out'"
                              ).fetchone()[0]
    assert '"reason":"wrong seat"' in logged and '"employee_id":"X1"' in logged
    assert audit(table.db).ok, audit(table.db).problems
    table.db.close()
    return tmp_path / "table.db"


def _problems(path: Path, *sql: str) -> list[str]:
    conn = sqlite3.connect(path)
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()
    db = open_for_reading(path)
    try:
        return audit(db).problems
    finally:
        db.close()


def test_a_back_out_removed_from_the_tables_fails_the_audit(backed_out: Path) -> None:
    problems = _problems(
        backed_out, "DROP TRIGGER jackpot_adjustments_no_delete",
        "DROP TRIGGER jackpot_ledger_no_delete",
        "DELETE FROM jackpot_ledger WHERE kind = 'adjustment'",
        "DELETE FROM jackpot_adjustments",
        "UPDATE jackpot_levels SET meter_micro = (SELECT meter_after_micro FROM jackpot_ledger"
        " WHERE spot = 1 AND level = jackpot_levels.level ORDER BY entry DESC LIMIT 1),"
        " reserve_micro = (SELECT reserve_after_micro FROM jackpot_ledger WHERE spot = 1 AND"
        " level = jackpot_levels.level ORDER BY entry DESC LIMIT 1)")
    assert any(p.startswith("jackpot_adjustments (adjustment_id=1): in the event log, but not "
                            "stored") for p in problems), problems


def test_a_back_out_reason_or_executive_changed_fails_the_audit(backed_out: Path) -> None:
    problems = _problems(
        backed_out, "DROP TRIGGER jackpot_adjustments_no_update",
        "UPDATE jackpot_adjustments SET reason = 'customer left', employee_id = 'S1'")
    assert "jackpot_adjustments (adjustment_id=1): reason is 'customer left' stored, " \
           "'wrong seat' by the event log" in problems, problems
    assert any("employee_id is 'S1' stored" in p for p in problems), problems
