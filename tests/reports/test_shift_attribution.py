"""Which shift a round belongs to: the one it ended in (END GAME, or its void). An outside
review found rounds dated by their opening, which is the END GAME of the round before: the
round waiting at a shift change and played in the next shift was in no printed report, and a
table's first round of the evening fell on the day before. Reports printed at the end of each
shift must add up to the table's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from dealer_console import clock
from dealer_console.reports.shift import shift_report
from dealer_console.round import commands as c
from dealer_console.round.recall import recall_between
from dealer_console.round.table import Table
from tests.reports.test_back_out_everywhere import backed_out_before_end_game
from tests.round.helpers import bet_all, make_table, play_out, play_round

DAY1 = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)  # the last round of the night
SHIFT_A = "2026-06-01T12:00:00+00:00", "2026-06-01T21:00:00+00:00"
SHIFT_B = "2026-06-01T21:00:00+00:00", "2026-06-02T06:00:00+00:00"
IN_SHIFT_B = datetime(2026, 6, 1, 21, 5, tzinfo=UTC)


def _round_two_in_shift_b(t: Table) -> None:
    with clock.held_at(IN_SHIFT_B, timedelta(seconds=2)):
        bet_all(t)
        play_out(t, seed=2)
        t.handle(c.EndGame())


def test_reports_printed_at_each_shift_end_add_up_to_the_table(tmp_path: Path) -> None:
    with clock.held_at(DAY1, timedelta(seconds=2)):
        t = make_table(tmp_path, "washington-face-up")
        play_round(t, seed=1)  # its END GAME opens round 2, in shift A
    printed_a = shift_report(t.db, *SHIFT_A)  # at 21:00, round 2 waits for wagers
    assert (printed_a.rounds_played, printed_a.rounds_open) == (1, (2,))
    _round_two_in_shift_b(t)
    printed_b = shift_report(t.db, *SHIFT_B)
    whole = shift_report(t.db, SHIFT_A[0], SHIFT_B[1])
    assert (printed_a.rounds_played, printed_b.rounds_played, whole.rounds_played) == (1, 1, 2)
    assert (printed_b.first_round, printed_b.rounds_open) == (2, (3,)) and printed_b.drop_cents > 0
    assert printed_a.drop_cents + printed_b.drop_cents == whole.drop_cents
    assert printed_a.paid_cents + printed_b.paid_cents == whole.paid_cents
    # recall's time search finds the rounds the report counts
    assert [r["round"] for r in recall_between(t.db, *SHIFT_B)] == [2, 3]  # 3: open


def test_a_back_out_made_while_its_round_was_open_counts_where_the_round_ends(
        tmp_path: Path) -> None:
    """Backed out in shift A before END GAME, the round ended in shift B: the award and its
    back-out are both shift B's (before, the back-out was in no report: shift A left it to
    the round's report, and shift B's range did not hold its time)."""
    with clock.held_at(DAY1, timedelta(seconds=2)):
        table, award = backed_out_before_end_game(tmp_path)
    with clock.held_at(IN_SHIFT_B, timedelta(seconds=2)):
        table.handle(c.EndGame())
    printed_a, printed_b = (shift_report(table.db, *s) for s in (SHIFT_A, SHIFT_B))
    assert printed_a.jackpots == () and printed_a.back_outs == ()
    assert printed_b.jackpot_cents == award and printed_b.backed_out_cents == award
