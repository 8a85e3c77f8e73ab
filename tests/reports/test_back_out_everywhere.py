"""Issue 23: an award confirmed by two people names both wherever it is shown or printed, and
a backed-out award is its own line everywhere (recall, the win page, the command line, the
shift report) with who, when and why, and every total counts it."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.cli import main
from dealer_console.jackpot import games, hits
from dealer_console.jackpot.system import JackpotSystem
from dealer_console.jackpot.winpage import win_page_lines
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot_values.paytable import load
from dealer_console.money import format_cents
from dealer_console.profiles.loader import get_profile
from dealer_console.reports.shift import detail_lines, shift_report, summary_lines
from dealer_console.round import commands as c
from dealer_console.round.recall import format_round, recall_rounds
from dealer_console.round.rules import round_rules
from dealer_console.round.table import Table
from dealer_console.table_db import open_table_db
from tests.jackpot.conftest import CARDS, add_staff
from tests.jackpot.swipes import back_out_by_card, swipe
from tests.jackpot.test_round_integration import FOUR_KINGS, SEVEN_SF, _to_settlement
from tests.round.helpers import settle_all

BOTH = "Sam Super (S1, supervisor) and Ella Exec (X1, executive)"


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """Round 1: seat 3's seven-card straight flush takes the whole meter, more than the
    two-person level: a supervisor's card held, an executive's pays it. Then an executive
    backs it out."""
    table, system = _jackpot_table(tmp_path, executive_threshold_cents=200_000,
                                   two_person_above_cents=50_000)
    _to_settlement(table, {2: SEVEN_SF})
    settle_all(table)
    assert swipe(system, table, CARDS["supervisor"]) is None  # the first of two, held
    swipe(system, table, CARDS["executive"])
    table.handle(c.EndGame())
    return table


def _jackpot_table(tmp_path: Path, **thresholds: int) -> tuple[Table, JackpotSystem]:
    """A Washington table with WA03 on spot 1 (seed $1,000), its staff on file."""
    db = open_table_db(tmp_path / "table.db")
    add_staff(db)
    pt = load("fupgpp-wa03")
    games.install_game(db, GameConfig(
        spot=1, paytable=pt, mode=JackpotMode.HOUSE, **thresholds,
        levels=level_configs(pt, {lv: {"seed": "$1,000", "contribution": "15%",
                                       "reserve": "2%"} for lv in pt.levels})), actor="test")
    system = JackpotSystem(db)
    return Table.open(db, round_rules(get_profile("washington-face-up"), None, None),
                      jackpot=system), system


def _hit_id(table: Table) -> int:
    return int(table.db.execute("SELECT hit_id FROM jackpot_hits").fetchone()[0])


def _back_out(table: Table) -> int:
    hit_id = _hit_id(table)
    back_out_by_card(table.db, hit_id=hit_id, reason="wrong seat", track=CARDS["executive"])
    return hit_id


def _whole_day() -> tuple[str, str]:
    now = datetime.now(UTC)
    return ((now - timedelta(hours=12)).isoformat(), (now + timedelta(hours=12)).isoformat())


def test_the_shift_report_takes_a_back_out_off_paid_out_as_its_own_line(table: Table) -> None:
    before = shift_report(table.db, *_whole_day())
    award = hits.get_hit(table.db, _hit_id(table)).amount_cents
    assert award > 50_000 and [j.confirmed_by for j in before.jackpots] == [BOTH]
    _back_out(table)
    after = shift_report(table.db, *_whole_day())
    assert after.paid_cents == before.paid_cents - award
    assert after.hold_cents == before.hold_cents + award
    assert after.house_result_cents == before.house_result_cents + award
    assert after.jackpot_cents == before.jackpot_cents  # the award itself stays on record
    rows = dict(summary_lines(after))
    assert rows["Backed out: Jackpot awards"] == format_cents(-award, sign=True)
    assert rows["Jackpot awards backed out"] == f"1, {format_cents(award)} back to the meter"
    [line] = [d for d in detail_lines(after) if "BACKED OUT" in d]
    assert "by Ella Exec (X1, executive): wrong seat" in line
    assert format_cents(award) in line
    # the back-out names its award and round, and the award's own line its number (an
    # outside review could not tell which of two equal awards a back-out took back)
    hit_id = _hit_id(table)
    assert line.startswith(f"Jackpot award {hit_id} of round 1 BACKED OUT at ")
    [paid] = [d for d in detail_lines(after) if d.startswith("Round 1: jackpot award")]
    assert paid.startswith(f"Round 1: jackpot award {hit_id}, game 1 seat 3 ")
    assert paid.endswith(f"confirmed by {BOTH} (backed out, below)")
    assert audit(table.db).ok, audit(table.db).problems


def test_recall_names_both_confirmers_and_never_reads_paid_after_a_back_out(
        table: Table) -> None:
    [paid] = recall_rounds(table.db, [1])
    assert [j["confirmed_by"] for j in paid["jackpots"]] == [BOTH]
    assert paid["jackpots"][0]["backed_out"] is None
    hit_id = _back_out(table)
    [r] = recall_rounds(table.db, [1])
    text = format_round(r)
    assert f"confirmed by {BOTH}" in text
    assert f"award {hit_id} BACKED OUT at " in text and "wrong seat" in text


def test_the_win_page_of_a_backed_out_award_says_so_with_who_when_and_why(
        table: Table) -> None:
    hit_id = _hit_id(table)
    fields = dict(win_page_lines(hits.get_hit(table.db, hit_id), "Table 4"))
    assert fields["Confirmed by"] == BOTH and fields["Status"] == "paid"
    # local time with its zone, to the second: no ISO "T", no microseconds
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+", fields["Confirmed at"])
    _back_out(table)
    fields = dict(win_page_lines(hits.get_hit(table.db, hit_id), "Table 4"))
    assert fields["Status"].startswith("BACKED OUT at ")
    assert "Ella Exec (X1, executive): wrong seat" in fields["Status"]


def test_the_command_line_lists_the_back_out_as_its_own_line(table: Table) -> None:
    hit_id = _back_out(table)
    path = table.db.execute("PRAGMA database_list").fetchone()[2]
    table.db.close()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["jackpot", "hits", "--db", path]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"{hit_id} ") and f"confirmed by {BOTH}" in lines[0]
    assert lines[1].startswith(f"{hit_id} BACKED OUT at ") and "wrong seat" in lines[1]


def test_a_tray_pay_backed_out_is_never_said_to_go_back_to_the_meter(tmp_path: Path) -> None:
    """A tray pay never came off the meter, so its back-out leaves the meter as it was; the
    words said "back to the meter" (an outside review). The award is still struck
    from paid out, as every back-out is."""
    table, system = _jackpot_table(tmp_path)
    db = table.db
    _to_settlement(table, {1: FOUR_KINGS})
    settle_all(table)
    hit = swipe(system, table, CARDS["supervisor"])
    assert hit is not None and hit.from_tray_cents == hit.amount_cents > 0
    table.handle(c.EndGame())
    meters = games.meter_states(db, 1)
    before = shift_report(db, *_whole_day())
    back_out_by_card(db, hit_id=hit.hit_id, reason="misread", track=CARDS["executive"])
    assert games.meter_states(db, 1) == meters
    after = shift_report(db, *_whole_day())
    assert after.paid_cents == before.paid_cents - hit.amount_cents
    tray = f"{format_cents(hit.amount_cents)} paid from the tray: the meter unchanged"
    assert dict(summary_lines(after))["Jackpot awards backed out"] == (
        f"1, {format_cents(hit.amount_cents)} from the tray")
    status = dict(win_page_lines(hits.get_hit(db, hit.hit_id), "Table 4"))["Status"]
    assert f"misread ({tray}, adjustment 1)" in status and "back to the meter" not in status
    assert audit(db).ok, audit(db).problems


def backed_out_before_end_game(tmp_path: Path) -> tuple[Table, int]:
    """A hit confirmed by two and backed out before END GAME; the table and the award."""
    table, system = _jackpot_table(tmp_path, executive_threshold_cents=200_000,
                                   two_person_above_cents=50_000)
    _to_settlement(table, {2: SEVEN_SF})
    settle_all(table)
    swipe(system, table, CARDS["supervisor"])
    swipe(system, table, CARDS["executive"])
    award = hits.get_hit(table.db, _hit_id(table)).amount_cents
    _back_out(table)
    return table, award


def test_a_back_out_before_end_game_waits_for_the_round_in_the_shift_report(
        tmp_path: Path) -> None:
    """Backed out before END GAME: the round is still open, so its award is not counted yet,
    nor is its back-out (before, paid out read minus the award and the house result grew by
    it). Once the round ends, both are counted and net out."""
    table, award = backed_out_before_end_game(tmp_path)
    open_round = shift_report(table.db, *_whole_day())
    assert open_round.rounds_open and open_round.jackpots == ()
    assert (open_round.paid_cents, open_round.backed_out) == (0, 0)
    table.handle(c.EndGame())
    ended = shift_report(table.db, *_whole_day())
    assert ended.jackpot_cents == award and ended.backed_out_cents == award
    assert ended.paid_cents == sum(ended.paid.values()) - award


def test_a_back_out_said_to_be_by_a_supervisor_is_reported_by_the_audit(
        table: Table, tmp_path: Path) -> None:
    """The back-out's event rewritten to name a supervisor, the chain recomputed and the
    tables made to agree: the jackpot's rebuild takes the employee from the event; the staff
    list as the log had it then does not (an outside review)."""
    from dealer_console.employees import audit as staff_audit
    from dealer_console.jackpot.schema import BACKED_OUT
    from dealer_console.table_db import open_for_reading
    from tests.cli.audit_helpers import resync_tables, rewrite_event

    assert staff_audit.BACKED_OUT == BACKED_OUT
    _back_out(table)
    path = Path(table.db.file)
    (seq,) = table.db.execute("SELECT seq FROM events WHERE kind = ?", [BACKED_OUT]).fetchone()
    table.db.close()
    rewrite_event(path, int(seq), lambda p: p.update(employee_id="S1"))
    resync_tables(path)
    with open_for_reading(path) as db:
        problems = audit(db).problems
    assert f"event {seq} (jackpot award backed out): by 'S1', who was not an enabled " \
           "executive then" in problems, problems
