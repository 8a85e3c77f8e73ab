"""Every print of a win page is recorded with the copy it is, then what became of it, and the
audit holds the records to the awards (an outside review printed one award five times: five
identical pages, none recorded). A console that stops between the record and the paper leaves
the print NOT FINISHED, named with what to do."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

from sqlite_utils import Database

from dealer_console.audit.verify import audit
from dealer_console.cli import main
from dealer_console.employees.registry import Employee, find
from dealer_console.jackpot import win_print_audit, win_prints
from dealer_console.jackpot.winpage import write_win_page
from dealer_console.storage import eventlog
from tests.jackpot.test_winpage_and_crash import pdf_text


def printed(db: Database, hit: int, asked_by: Employee | None,
            printer: str | None = None) -> int:
    """A print as the console makes it: recorded, then recorded as printed."""
    copy = win_prints.record_print(db, hit, asked_by)
    win_prints.record_finished(db, hit, copy, printer)
    return copy


def test_each_print_is_recorded_with_its_copy_and_who_asked(
        awarded: tuple[Database, int]) -> None:
    db, hit = awarded
    supervisor = find(db, "S1")
    assert supervisor is not None
    assert win_prints.summary(win_prints.prints_of(db, hit)) == "Win page not printed yet."
    assert [printed(db, hit, None) for _ in range(3)] == [1, 2, 3]
    assert win_prints.record_print(db, hit, supervisor) == 4
    win_prints.record_not_printed(db, hit, 4, "the printer is out of paper")
    assert printed(db, hit, supervisor, "PIT-LASER") == 4  # the number no page has
    made = win_prints.prints_of(db, hit)
    assert [(p.copy, p.by, p.employee_id, p.not_printed) for p in made] == [
        (1, "keypad", None, None), (2, "keypad", None, None), (3, "keypad", None, None),
        (4, "screen", "S1", "the printer is out of paper"), (4, "screen", "S1", None)]
    assert made[0].words().startswith(f"win page ORIGINAL of award {hit} at ")
    assert made[0].words().endswith("asked by the dealer, by the keypad's money bag (no card): "
                                    f"printed to the file win-pages/win-page-{hit}.pdf")
    assert made[3].words().endswith(
        "asked by Sam Super (S1, supervisor): NOT PRINTED (the printer is out of paper)")
    assert made[4].words().endswith("(S1, supervisor): printed to the printer PIT-LASER")
    said = win_prints.summary(made)
    assert said.startswith("Win page printed 4 times, the last (COPY 4) at ")
    assert said.endswith(" for Sam Super (S1, supervisor); a print now is COPY 5.")
    assert [e.round_id for e in eventlog.events(db) if e.kind in win_prints.KINDS] == [None] * 10
    report = audit(db)
    assert report.ok, report.problems


def test_the_audit_names_a_print_out_of_its_order_or_of_no_award(
        awarded: tuple[Database, int]) -> None:
    """A print added to the log afterwards with its chain recomputed (the chain alone cannot
    tell): a second ORIGINAL, a copy of an award the table does not have, a print in a
    round, a refusal of a page never printed."""
    db, hit = awarded
    printed(db, hit, None)
    with db.atomic():
        for payload, round_id in (({"hit_id": hit, "copy": 1, "by": "keypad"}, None),
                                  ({"hit_id": 99, "copy": 1, "by": "keypad"}, None),
                                  ({"hit_id": hit, "copy": 2, "by": "keypad"}, 1)):
            eventlog.append(db, win_prints.PRINTED, payload, round_id=round_id)
        eventlog.append(db, win_prints.NOT_PRINTED, {"hit_id": hit, "copy": 1, "why": "x"},
                        round_id=None)
    problems = win_print_audit.print_problems(db)
    assert len(problems) == 4, problems
    assert "award 1's print ORIGINAL, but the next was COPY 2" in problems[0]
    assert "award 99 is not one of this table's awards" in problems[1]
    assert "a print belongs to no round, but this one names round 1" in problems[2]
    assert "award 1's ORIGINAL refused, but it is not the print just made" in problems[3]
    assert set(problems) <= set(audit(db).problems)


def test_the_command_line_s_page_is_no_voucher(awarded: tuple[Database, int],
                                               tmp_path: Path) -> None:
    from dealer_console.jackpot.hits import get_hit

    db, hit = awarded
    text = pdf_text(write_win_page(get_hit(db, hit), "PG-3", tmp_path / "win.pdf"))
    assert "COPY FROM THE RECORDS: NOT FOR PAYMENT" in text
    assert win_prints.prints_of(db, hit) == []  # it records nothing: it opens the table read-only


def test_the_command_line_lists_each_print_under_its_award(awarded: tuple[Database, int],
                                                           tmp_path: Path) -> None:
    db, hit = awarded
    printed(db, hit, None)
    printed(db, hit, find(db, "S1"))
    db.close()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["jackpot", "hits", "--db", str(tmp_path / "table.db")]) == 0
    lines = out.getvalue().splitlines()
    assert lines[1].startswith(f"{hit} win page ORIGINAL of award {hit} at ")
    assert lines[1].endswith("asked by the dealer, by the keypad's money bag (no card): "
                             f"printed to the file win-pages/win-page-{hit}.pdf")
    assert lines[2].startswith(f"{hit} win page COPY 2 of award {hit} at ")
    assert lines[2].endswith("asked by Sam Super (S1, supervisor): printed to the file "
                             f"win-pages/win-page-{hit}-copy-2.pdf")
