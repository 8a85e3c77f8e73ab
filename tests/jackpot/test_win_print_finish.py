"""A win page's print is recorded before it is printed (never paper without a record), and what
became of it after: printed, or refused. A console killed in between leaves the print NOT
FINISHED, named with what to do (print a copy, recorded as the next number); ``audit verify``
names a finish without its print, or one added afterwards, and notes every unfinished print."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from sqlite_utils import Database

from dealer_console.audit.verify import audit
from dealer_console.jackpot import win_print_audit, win_prints
from dealer_console.storage import eventlog
from dealer_console.table_db import open_table_db
from tests.jackpot.test_win_prints import printed

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import os, signal, sys
from pathlib import Path
from dealer_console.jackpot import win_prints
from dealer_console.table_db import open_table_db
db = open_table_db(Path(sys.argv[1]), create=False)
copy = win_prints.record_print(db, int(sys.argv[2]), None)  # the money bag, recorded
print(copy, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # before any page is printed or written
"""


def killed_after_the_record(path: Path, hit: int) -> int:
    """A console process on the table database at ``path`` records a print of award ``hit``
    and is killed before the page is printed; the copy it recorded."""
    child = subprocess.run([sys.executable, "-c", CHILD, str(path), str(hit)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.returncode == -signal.SIGKILL, child.stderr
    return int(child.stdout.strip())


def test_a_console_killed_between_the_record_and_the_page_leaves_the_print_not_finished(
        awarded: tuple[Database, int], tmp_path: Path) -> None:
    db, hit = awarded
    db.close()  # the table's own connection: the child console takes the writer's lock
    assert killed_after_the_record(tmp_path / "table.db", hit) == 1
    db = open_table_db(tmp_path / "table.db", create=False)
    [made] = win_prints.prints_of(db, hit)
    assert made.unfinished and made.copy == 1
    assert made.words().endswith(": NOT FINISHED (the console stopped before the page was "
                                 "printed)")
    assert not (tmp_path / win_prints.pdf_name(hit, 1)).exists()
    said = win_prints.summary([made])
    assert said.startswith("Win page asked once, the last (ORIGINAL) at ")
    assert said.endswith(". ORIGINAL NOT FINISHED (the console stopped before printing it): if "
                         "no page came out, print a copy; it is recorded as COPY 2.")
    assert win_prints.awaiting_copy(db) == [made]
    report = audit(db)
    assert report.ok, report.problems  # a crash is no forgery
    [note] = [n for n in report.notes if "NOT FINISHED" in n]
    assert note.startswith(f"win page ORIGINAL of award {hit}, asked at ")
    # the supervisor prints a copy: its own number, the unfinished one's never reused
    assert printed(db, hit, None) == 2
    prints = win_prints.prints_of(db, hit)
    assert [(p.copy, p.unfinished) for p in prints] == [(1, True), (2, False)]
    assert win_prints.awaiting_copy(db) == []
    said = win_prints.summary(prints)
    assert "; not finished: ORIGINAL (the console stopped), a page printed since; a print " \
           "now is COPY 3." in said
    report = audit(db)
    assert report.ok, report.problems
    assert any("ORIGINAL of award" in n and "NOT FINISHED" in n for n in report.notes)


def test_a_second_crash_waits_for_its_own_copy(awarded: tuple[Database, int]) -> None:
    """A copy killed too: the newest unfinished print is the one to print again."""
    db, hit = awarded
    printed(db, hit, None)
    win_prints.record_print(db, hit, None)  # COPY 2: killed
    win_prints.record_print(db, hit, None)  # COPY 3: killed
    waiting = win_prints.awaiting_copy(db)
    assert [p.copy for p in waiting] == [2, 3]
    said = win_prints.summary(win_prints.prints_of(db, hit))
    assert "COPY 2 and COPY 3 NOT FINISHED (the console stopped before printing it)" in said
    assert said.endswith("it is recorded as COPY 4.")


def test_an_earlier_console_s_print_is_not_called_unfinished(
        awarded: tuple[Database, int]) -> None:
    """A print recorded before its outcome was (no finish flag): nothing is awaited of it."""
    db, hit = awarded
    with db.atomic():
        eventlog.append(db, win_prints.PRINTED, {"hit_id": hit, "copy": 1, "by": "keypad"},
                        round_id=None)
    [made] = win_prints.prints_of(db, hit)
    assert not made.unfinished
    assert made.words().endswith("asked by the dealer, by the keypad's money bag (no card)")
    assert win_prints.awaiting_copy(db) == []
    assert win_prints.next_copy(db, hit) == 2
    report = audit(db)
    assert report.ok and not [n for n in report.notes if "NOT FINISHED" in n], report


def _append(db: Database, kind: str, payload: dict[str, object],
            round_id: int | None = None) -> None:
    """An event added afterwards with its chain recomputed (the chain alone cannot tell)."""
    with db.atomic():
        eventlog.append(db, kind, payload, round_id=round_id)


def test_the_audit_names_a_finish_without_its_print_or_added_afterwards(
        awarded: tuple[Database, int]) -> None:
    db, hit = awarded
    finish = win_prints.FINISHED
    _append(db, finish, {"hit_id": hit, "copy": 1, "file": win_prints.pdf_name(hit, 1)})
    win_prints.record_print(db, hit, None)  # ORIGINAL: the console stopped
    printed(db, hit, None)  # COPY 2, printed
    # the ORIGINAL's finish added to hide it: not the print just made
    _append(db, finish, {"hit_id": hit, "copy": 1, "file": win_prints.pdf_name(hit, 1)})
    _append(db, finish, {"hit_id": hit, "copy": 2, "file": win_prints.pdf_name(hit, 2)})
    copy = win_prints.record_print(db, hit, None)  # COPY 3
    _append(db, finish, {"hit_id": hit, "copy": copy, "file": "win-pages/elsewhere.pdf"})
    copy = win_prints.record_print(db, hit, None)  # COPY 4
    _append(db, finish, {"hit_id": hit, "copy": copy})
    copy = win_prints.record_print(db, hit, None)  # COPY 5
    _append(db, finish, {"hit_id": hit, "copy": copy, "printer": "P1"}, round_id=1)
    win_prints.record_not_printed(db, hit, copy, "refused after it was printed")
    _append(db, win_prints.PRINTED, {"hit_id": hit, "copy": 5, "by": "keypad"})  # no flag
    _append(db, finish, {"hit_id": hit, "copy": 5, "printer": "P1"})
    problems = win_print_audit.print_problems(db)
    expected = [
        f"award {hit}'s ORIGINAL finished, but no print of award {hit} was recorded before it",
        f"award {hit}'s ORIGINAL finished, but it is not the print just made",
        f"award {hit}'s COPY 2 finished, but that print was already printed",
        f"award {hit}'s COPY 3 finished to the file \"win-pages/elsewhere.pdf\", but the "
        f"console writes that print to win-pages/win-page-{hit}-copy-3.pdf",
        f"award {hit}'s COPY 4 finished, but it names neither a printer nor a file",
        "a print belongs to no round, but this one names round 1",
        f"award {hit}'s COPY 5 refused, but that print was already printed",
        f"award {hit}'s COPY 5 finished, but its print was recorded by a console that "
        "records no outcome of a print",
    ]
    assert len(problems) == len(expected), problems
    for problem, words in zip(problems, expected, strict=True):
        assert words in problem, (problem, words)
    assert set(problems) <= set(audit(db).problems)

