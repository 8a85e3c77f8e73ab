"""Every print of an award's win page in the records a supervisor and an auditor read: recall
(the console's and ``dealer-console recall``) and the shift report, each print with when, who
asked and which copy, a copy said plainly, and a print the console recorded and then stopped
before printing named NOT FINISHED with what to do. The crash is a console process killed on
the real table file right after the record."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from dealer_console import clock
from dealer_console.cli import main
from dealer_console.employees.registry import find
from dealer_console.jackpot import hits, win_prints
from dealer_console.reports.recall_prints import with_prints
from dealer_console.reports.shift import detail_lines, shift_report, summary_lines
from dealer_console.reports.shift_pdf import write_shift_pdf
from dealer_console.round.recall import format_round, recall_rounds
from dealer_console.table_db import open_table_db
from tests.jackpot.conftest import make_awarded
from tests.jackpot.test_win_print_finish import killed_after_the_record
from tests.jackpot.test_win_prints import printed
from tests.jackpot.test_winpage_and_crash import pdf_text

SUPERVISOR = "Sam Super (S1, supervisor)"
KEYPAD = "the dealer, by the keypad's money bag (no card)"


@pytest.fixture
def prints(tmp_path: Path) -> tuple[Database, int]:
    """An award whose ORIGINAL was written to its PDF, COPY 2 printed on the supervisor's
    printer, COPY 3 refused (out of paper), then COPY 3 again asked from the keypad and the
    console killed before it printed."""
    db, hit = make_awarded(tmp_path)
    printed(db, hit, None)
    printed(db, hit, find(db, "S1"), "PIT-LASER")
    assert win_prints.record_print(db, hit, find(db, "S1")) == 3
    win_prints.record_not_printed(db, hit, 3, "out of paper")
    db.close()
    assert killed_after_the_record(tmp_path / "table.db", hit) == 3
    return open_table_db(tmp_path / "table.db", create=False), hit


def test_recall_lists_each_print_of_an_award_and_one_not_finished(
        prints: tuple[Database, int]) -> None:
    db, hit = prints
    round_id = hits.get_hit(db, hit).round_id
    [r] = with_prints(db, recall_rounds(db, [round_id]))
    [award] = r["jackpots"]
    made = award["prints"]
    assert [(p["mark"], p["outcome"], p["asked_by"]) for p in made] == [
        ("ORIGINAL", "printed", KEYPAD), ("COPY 2", "printed", SUPERVISOR),
        ("COPY 3", "refused", SUPERVISOR), ("COPY 3", "not finished", KEYPAD)]
    assert made[0]["went_to"] == f"file win-pages/win-page-{hit}.pdf"
    assert made[1]["went_to"] == "printer PIT-LASER" and made[2]["why"] == "out of paper"
    assert all(p["asked_at"] for p in made)  # when: the time each was asked
    assert award["prints_todo"] == ("COPY 3 NOT FINISHED (the console stopped before printing "
                                    "it): if no page came out, print a copy; it is recorded "
                                    "as COPY 4.")
    text = format_round(r)
    lines = [line.strip() for line in text.splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith("jackpot game 1 seat "))
    assert lines[at + 1].startswith(f"win page ORIGINAL of award {hit} at ")
    assert lines[at + 1].endswith(f"asked by {KEYPAD}: printed to the file "
                                  f"win-pages/win-page-{hit}.pdf")
    assert lines[at + 2].endswith(f"asked by {SUPERVISOR}: printed to the printer PIT-LASER")
    assert lines[at + 3].endswith(f"asked by {SUPERVISOR}: NOT PRINTED (out of paper)")
    assert lines[at + 4].startswith(f"win page COPY 3 of award {hit} at ")
    assert lines[at + 4].endswith(f"asked by {KEYPAD}: NOT FINISHED (the console stopped "
                                  "before the page was printed)")
    assert lines[at + 5] == (f"award {hit}: COPY 3 NOT FINISHED (the console stopped before "
                             "printing it): if no page came out, print a copy; it is recorded "
                             "as COPY 4.")


def test_the_command_line_s_recall_lists_the_prints(prints: tuple[Database, int],
                                                    tmp_path: Path) -> None:
    db, hit = prints
    db.close()
    for extra in ([], ["--json"]):
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["recall", "--db", str(tmp_path / "table.db"), *extra]) == 0
        if extra:
            [award] = [j for r in json.loads(out.getvalue()) for j in r["jackpots"]]
            assert [p["outcome"] for p in award["prints"]] == [
                "printed", "printed", "refused", "not finished"]
        else:
            assert f"win page COPY 2 of award {hit} at " in out.getvalue()
            assert f"award {hit}: COPY 3 NOT FINISHED" in out.getvalue()


def test_a_copy_printed_after_the_crash_settles_it_in_recall(
        prints: tuple[Database, int]) -> None:
    db, hit = prints
    assert printed(db, hit, find(db, "S1")) == 4
    [r] = with_prints(db, recall_rounds(db, [hits.get_hit(db, hit).round_id]))
    [award] = r["jackpots"]
    assert [p["outcome"] for p in award["prints"]][-2:] == ["not finished", "printed"]
    assert award["prints_todo"] == ""  # a page printed since: nothing more to do
    assert "print a copy" not in format_round(r)


def _day() -> tuple[str, str]:
    now = datetime.now(UTC)
    return (now - timedelta(hours=12)).isoformat(), (now + timedelta(hours=12)).isoformat()


def test_the_shift_report_lists_each_print_says_the_copies_and_names_one_not_finished(
        prints: tuple[Database, int], tmp_path: Path) -> None:
    db, hit = prints
    report = shift_report(db, *_day())
    rows = dict(summary_lines(report))
    assert rows["Win pages printed"] == "2: 1 original, 1 copy"
    assert rows["Awards whose win page has copies"] == f"award {hit} (2 copies)"
    assert rows["Win pages NOT FINISHED"] == f"1 (award {hit} COPY 3)"
    assert rows["Win pages refused (not printed)"] == "1"
    lines = [d for d in detail_lines(report) if "win page" in d.lower()]
    assert [line.split(" at ")[0] for line in lines[:4]] == [
        f"Round 1: win page ORIGINAL of award {hit}", f"Round 1: win page COPY 2 of award {hit}",
        f"Round 1: win page COPY 3 of award {hit}", f"Round 1: win page COPY 3 of award {hit}"]
    assert lines[0].endswith(f"asked by {KEYPAD}: printed to the file "
                             f"win-pages/win-page-{hit}.pdf")
    assert lines[1].endswith(f"asked by {SUPERVISOR}: printed to the printer PIT-LASER")
    assert lines[2].endswith("NOT PRINTED (out of paper)")
    assert lines[3].endswith("NOT FINISHED (the console stopped before the page was printed)")
    assert lines[4] == (f"Award {hit}'s win page HAS COPIES: 2 copies besides its ORIGINAL, "
                        "3 pages in all (ORIGINAL, COPY 2, COPY 3 (not finished))")
    assert lines[5] == (f"Award {hit}'s win page: COPY 3 NOT FINISHED (the console stopped "
                        "before printing it): if no page came out, print a copy; it is "
                        "recorded as COPY 4.")
    text = pdf_text(write_shift_pdf(report, "PG-3", tmp_path / "shift.pdf"))
    for words in ("Win pages NOT FINISHED", "HAS COPIES", "PIT-LASER"):  # lines wrap
        assert words in text, words
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["report", "--db", str(tmp_path / "table.db"), "--from", _day()[0],
                     "--to", _day()[1], "--json"]) == 0
    [award] = json.loads(out.getvalue())["win_pages"]
    assert [(p["copy"], p["went_to"], p["not_printed"]) for p in award["prints"]] == [
        (1, f"file win-pages/win-page-{hit}.pdf", None), (2, "printer PIT-LASER", None),
        (3, None, "out of paper"), (3, None, None)]


def test_a_copy_printed_hours_later_is_a_line_of_the_shift_it_was_printed_in(
        tmp_path: Path) -> None:
    """The award paid in one shift, its copy printed in the next: the next shift's report
    lists the copy and says the award's page has one, though its round is not counted there;
    the first shift's report, printed again afterwards, still says what it said."""
    db, hit = make_awarded(tmp_path)
    printed(db, hit, None)
    later = datetime.now(UTC) + timedelta(hours=9)
    with clock.held_at(later):
        assert printed(db, hit, find(db, "S1")) == 2
    split = later.isoformat()
    first = shift_report(db, (later - timedelta(hours=12)).isoformat(), split)
    second = shift_report(db, split, (later + timedelta(hours=1)).isoformat())
    assert first.rounds_played == 1 and second.rounds_played == 0
    assert dict(summary_lines(first))["Win pages printed"] == "1: 1 original, 0 copies"
    assert "Awards whose win page has copies" not in dict(summary_lines(first))
    rows = dict(summary_lines(second))
    assert rows["Win pages printed"] == "1: 0 originals, 1 copy"
    assert rows["Awards whose win page has copies"] == f"award {hit} (1 copy)"
    [line, has] = [d for d in detail_lines(second) if "win page" in d.lower()]
    assert line.startswith(f"Round 1: win page COPY 2 of award {hit} at ")
    assert line.endswith(f"asked by {SUPERVISOR}: printed to the file "
                         f"win-pages/win-page-{hit}-copy-2.pdf")
    assert has == (f"Award {hit}'s win page HAS COPIES: 1 copy besides its ORIGINAL, 2 pages "
                   "in all (ORIGINAL, COPY 2)")


def test_a_shift_with_no_print_has_no_win_page_rows(tmp_path: Path) -> None:
    db, _hit = make_awarded(tmp_path)
    report = shift_report(db, *_day())
    assert not [label for label, _ in summary_lines(report) if "Win page" in label]
    assert report.win_pages == ()
