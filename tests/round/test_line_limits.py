"""A line whose money differs from its odds or wager says why, in its note and wherever it is
read: the dealer's words, game recall, the audit. An outside review found Washington's
aggregate limit cut a Fortune win from $500,000 to under $10,000 with the line still saying
only "pays 5000 to 1": nobody reading the round could see why it was short."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from dealer_console.cli import main
from dealer_console.round import commands as c
from dealer_console.round.recall import format_round, recall
from dealer_console.round.state import Line, Phase
from tests.cli.audit_helpers import guards_off, rewrite_event
from tests.round.helpers import (
    bet_all,
    hands_with,
    make_table,
    set_all_house_way,
    settle_all,
    start_and_act,
    take_bank,
)

STRAIGHT_FLUSH = "7h 8h 9h Th Jh Qh Kh"  # seven-card straight flush: 5000 to 1
FOUR_TWOS = "2c 2d 2s 2h 5d 6c 9s"
WEAK = "3c 4d 6s 8c 9d Jc Ks"


def capped_round(tmp_path: Path) -> tuple[Path, list[Line]]:
    table = make_table(tmp_path, "washington-face-up")
    for seat in (1, 2):
        table.handle(c.PlaceWager(seat, "base", 1000))
        table.handle(c.PlaceWager(seat, "fortune", 10_000))
    start_and_act(table)
    order = table.state.order
    hands = hands_with({order.index(1): STRAIGHT_FLUSH, order.index(2): FOUR_TWOS,
                        order.index(0): WEAK})
    for cards in hands:
        table.handle(c.DealHand(cards))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)
    table.handle(c.EndGame())
    path = Path(table.db.execute("PRAGMA database_list").fetchone()[2])
    done = [Line(*r) for r in table.db.execute(
        "SELECT seat, kind, outcome, staked_cents, returned_cents, banker_delta_cents, "
        "house_delta_cents, note FROM settlement_lines ORDER BY line_no")]
    table.db.close()
    return path, done


def _cut(line: Line) -> int:
    words = line.limits
    assert words.startswith("aggregate limit cut $"), line
    return round(float(words.split("$", 1)[1].replace(",", "")) * 100)


def test_a_fortune_cut_by_the_aggregate_limit_says_so_where_it_is_read(tmp_path: Path) -> None:
    path, lines = capped_round(tmp_path)
    fortunes = {x.seat: x for x in lines if x.kind == "fortune"}
    won = {seat: x.returned - x.staked for seat, x in fortunes.items()}
    assert sum(won.values()) == 1_000_000  # the limit: $10,000 among the round's bonuses
    assert won[1] + _cut(fortunes[1]) == 10_000 * 5000  # the odds, less the cut
    assert "pays 5000 to 1 [" in fortunes[1].note and fortunes[1].note.endswith("]")
    text = format_round(next(r for r in recall(_read(path), 2) if r["round"] == 1))
    shown = [x for x in text.splitlines() if x.startswith("  paid  seat 1   fortune ")]
    assert len(shown) == 1 and shown[0].endswith(f"[{fortunes[1].limits}]"), text


def commission_lines(tmp_path: Path) -> list[Line]:
    """Catfish Bend's base wins of six rounds with no Fortune wager: each pays commission."""
    table = make_table(tmp_path, "catfish-bend-fortune")
    with_commission: list[Line] = []
    for seed in range(6):
        if table.state.phase is Phase.BANKER and table.state.offer_seat:
            take_bank(table)
        bet_all(table, base=2000, fortune=0)  # no $5 Fortune wager: nothing waives it
        play_round_rest(table, seed)
        with_commission += [x for x in table.state.lines if x.limits.startswith("commission")]
        table.handle(c.EndGame())
    assert with_commission, "six rounds without a base win"
    return with_commission


def test_a_commission_is_said_on_the_line_it_is_taken_from(tmp_path: Path) -> None:
    for line in commission_lines(tmp_path):
        win = line.returned - line.staked
        taken = round(float(line.limits.split("$", 1)[1]) * 100)
        assert win + taken == line.staked  # an even-money win, less 5%
        assert taken == line.staked * 500 // 10_000


def play_round_rest(table: Any, seed: int) -> None:
    start_and_act(table)
    for cards in hands_with({}, seed):
        table.handle(c.DealHand(cards))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)


def _read(path: Path) -> Any:
    from dealer_console.table_db import open_for_reading

    return open_for_reading(path)


def _say_no_limits(data: dict[str, Any]) -> None:
    for line in data["lines"]:
        line["note"] = line["note"].rsplit(" [", 1)[0]


def test_a_round_settled_before_the_words_audits_with_a_note_and_money_still_counts(
        tmp_path: Path, capsys: Any) -> None:
    path, _lines = capped_round(tmp_path)
    conn = sqlite3.connect(path)
    planned = [seq for seq, in conn.execute(
        "SELECT seq FROM events WHERE kind IN ('settlement_planned', 'seat_settled')")]
    conn.close()
    for seq in planned:  # as a console before stop 50 wrote them
        rewrite_event(path, seq, _say_no_limits)
    conn = sqlite3.connect(path)
    with guards_off(conn):
        conn.execute("UPDATE settlement_lines SET note = rtrim(substr(note, 1, "
                     "instr(note, ' [') - 1)) WHERE instr(note, ' [') > 0")
    conn.commit()
    conn.close()
    assert main(["audit", "verify", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "round 1: its settlement lines do not say what cut or added to their money" in out
    conn = sqlite3.connect(path)
    with guards_off(conn):  # the cut made larger: the money no longer follows the rules
        conn.execute("UPDATE settlement_lines SET returned_cents = returned_cents - 100 "
                     "WHERE kind = 'fortune' AND seat = 1")
    conn.commit()
    conn.close()
    assert main(["audit", "verify", "--db", str(path)]) == 1
