"""Every print of a win page, in the table's hash-chained event log, and the copy it was.

A win page is the payout's voucher, with signature lines (``winpage.py``). An outside review
pressed the keypad's money bag three times and a supervisor printed the same award twice:
five identical pages and no record of any. Now each print is an event (``round_id`` NULL: a
print belongs to no round), written when the console sends the page to print, in one
transaction with the number it gets: the first print of an award is its ORIGINAL, each later
one COPY n, the number on the page. A page the printer or the disk refused is recorded too,
and its number goes to the next print, so the numbers on paper run 1, 2, 3 without a gap.
``audit verify`` holds the events to the awards and the numbers to their order
(:func:`print_problems`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from sqlite_utils import Database

from dealer_console.award_words import local_time, person
from dealer_console.employees.registry import Employee
from dealer_console.storage import eventlog

PRINTED: Final = "win_page_printed"
NOT_PRINTED: Final = "win_page_not_printed"
KINDS: Final = (PRINTED, NOT_PRINTED)
KEYPAD: Final = "keypad"
"""Asked by the keypad's money bag: the dealer's button, no card."""
SCREEN: Final = "screen"
"""Asked on the supervisor's jackpot screen, by the employee whose card opened it."""


@dataclass(frozen=True, slots=True)
class WinPrint:
    hit_id: int
    copy: int
    asked_at: str
    by: str
    """``KEYPAD`` or ``SCREEN``."""
    employee_id: str | None
    name: str | None
    role: str | None
    not_printed: str | None = None
    """Why the printer or the disk refused it (its number went to the next print)."""

    def who(self) -> str:
        if self.employee_id is None:
            return "the dealer, by the keypad's money bag (no card)"
        return person(self.name or "", self.employee_id, self.role)

    def words(self) -> str:
        """One line of a report: which copy, when, who asked, and a refusal."""
        said = (f"win page {copy_words(self.copy)} of award {self.hit_id} at "
                f"{local_time(self.asked_at)}, asked by {self.who()}")
        return said + (f": NOT PRINTED ({self.not_printed})" if self.not_printed else "")


def summary(prints: list[WinPrint]) -> str:
    """An award's prints in one sentence, for the screen a supervisor reprints from."""
    done = [made for made in prints if made.not_printed is None]
    if not done:
        return "Win page not printed yet."
    last = done[-1]
    times = "once" if len(done) == 1 else f"{len(done)} times"
    return (f"Win page printed {times}, the last ({copy_words(last.copy)}) at "
            f"{local_time(last.asked_at)} for {last.who()}; a print now is "
            f"{copy_words(last.copy + 1)}.")


def copy_words(copy: int | None) -> str:
    """The mark on the page: ORIGINAL, COPY n, or (``None``) a page made from the records
    outside the table (the command line's), which no one may pay from."""
    if copy is None:
        return "COPY FROM THE RECORDS: NOT FOR PAYMENT"
    return "ORIGINAL" if copy == 1 else f"COPY {copy}"


def _rows(db: Database, hit_id: int | None = None
          ) -> list[tuple[int, str, str, dict[str, Any]]]:
    """``(seq, kind, recorded_at, payload)`` of the print events, in order."""
    if not eventlog.has_log(db):
        return []
    sql = ("SELECT seq, kind, recorded_at, payload FROM events WHERE kind IN (?, ?)"
           + (" AND json_extract(payload, '$.hit_id') = ?" if hit_id is not None else "")
           + " ORDER BY seq")
    args: list[object] = [*KINDS] + ([hit_id] if hit_id is not None else [])
    return [(int(s), str(k), str(at), json.loads(p)) for s, k, at, p in db.execute(sql, args)]


def prints_of(db: Database, hit_id: int) -> list[WinPrint]:
    """Award ``hit_id``'s prints, oldest first, each with its refusal if it had one."""
    out: list[WinPrint] = []
    for _seq, kind, at, p in _rows(db, hit_id):
        if kind == PRINTED:
            out.append(WinPrint(int(p["hit_id"]), int(p["copy"]), at, str(p["by"]),
                                p.get("employee_id"), p.get("name"), p.get("role")))
        elif out and out[-1].copy == p.get("copy") and out[-1].not_printed is None:
            last = out[-1]
            out[-1] = WinPrint(last.hit_id, last.copy, last.asked_at, last.by,
                               last.employee_id, last.name, last.role, str(p.get("why", "")))
    return out


def next_copy(db: Database, hit_id: int) -> int:
    """The number the next print of award ``hit_id`` gets (1: its original)."""
    made = sum(1 if kind == PRINTED else -1 for _s, kind, _at, _p in _rows(db, hit_id))
    return 1 + made


def record_print(db: Database, hit_id: int, asked_by: Employee | None) -> int:
    """Record a print of award ``hit_id`` about to be sent to the printer, asked by
    ``asked_by`` (None: the keypad's money bag); returns its copy number. A print the disk
    will not record is refused before anything is printed (the write's error, raised)."""
    with db.atomic():
        copy = next_copy(db, hit_id)
        payload: dict[str, object] = {"hit_id": hit_id, "copy": copy,
                                      "by": KEYPAD if asked_by is None else SCREEN}
        if asked_by is not None:
            payload |= {"employee_id": asked_by.employee_id, "name": asked_by.name,
                        "role": asked_by.role.value}
        eventlog.append(db, PRINTED, payload, round_id=None)
    return copy


def record_not_printed(db: Database, hit_id: int, copy: int, why: str) -> None:
    """The print of ``copy`` was refused by the printer or the disk: its number is free."""
    with db.atomic():
        eventlog.append(db, NOT_PRINTED, {"hit_id": hit_id, "copy": copy, "why": why},
                        round_id=None)


def print_problems(db: Database) -> list[str]:
    """Every print event that does not stand: not round-less, an award the table does not
    have, a number out of its order (each print the next number of its award; a refusal the
    number just printed)."""
    if not eventlog.has_log(db):
        return []
    awards: set[int] | None = None
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                  "'jackpot_hits'").fetchone() is not None:
        awards = {int(r[0]) for r in db.execute("SELECT hit_id FROM jackpot_hits")}
    problems: list[str] = []
    made: dict[int, int] = {}
    rows = db.execute("SELECT seq, round_id, kind, payload FROM events WHERE kind IN (?, ?) "
                      "ORDER BY seq", list(KINDS))
    for seq, round_id, kind, text in rows:
        where = f"event {seq} ({kind})"
        try:
            p = json.loads(text)
            hit_id, copy = int(p["hit_id"]), int(p["copy"])
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"{where}: not a win page's print ({exc})")
            continue
        if round_id is not None:
            problems.append(f"{where}: a print belongs to no round, but this one names round "
                            f"{round_id}")
        if awards is not None and hit_id not in awards:
            problems.append(f"{where}: award {hit_id} is not one of this table's awards")
        count = made.get(hit_id, 0)
        if kind == PRINTED:
            if copy != count + 1:
                problems.append(f"{where}: award {hit_id}'s print {copy_words(copy)}, but "
                                f"the next was {copy_words(count + 1)}")
            made[hit_id] = copy
        else:
            if copy != count or count == 0:
                problems.append(f"{where}: award {hit_id}'s {copy_words(copy)} refused, but "
                                "it is not the print just made")
            made[hit_id] = max(0, copy - 1)
    return problems
