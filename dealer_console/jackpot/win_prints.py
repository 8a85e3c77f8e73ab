"""Every print of a win page, in the table's hash-chained event log, and the copy it was.

A win page is the payout's voucher, with signature lines (``winpage.py``). An outside review
pressed the keypad's money bag three times and a supervisor printed the same award twice:
five identical pages and no record of any. Now each print is an event (``round_id`` NULL: a
print belongs to no round), written when the console sends the page to print, in one
transaction with the number it gets: the first print of an award is its ORIGINAL, each later
one COPY n, the number on the page. A page the printer or the disk refused is recorded too,
and its number goes to the next print, so the numbers on paper run 1, 2, 3 without a gap.

The record comes first (never paper without a record), so a console that stops between the
record and the paper (a crash, a power cut) leaves a print recorded with no page to show for
it. Its outcome is therefore recorded too, as an event of its own (the log is append-only:
the print's event cannot be changed): the page printed or written (``FINISHED``, where it
went) or refused (``NOT_PRINTED``). A print with neither is NOT FINISHED: recall, the shift
report and the awards screen name it, and what to do: print a copy, which is recorded as the
next number (the unfinished print's number is never reused: its page may have come out).
Prints recorded before the outcome was (their event has no ``FINISH_FLAG``) are not called
unfinished. ``audit verify`` holds the events to the awards and the numbers to their order
(``win_print_audit.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Final

from sqlite_utils import Database

from dealer_console.award_words import local_time, person
from dealer_console.employees.registry import Employee
from dealer_console.storage import eventlog

PRINTED: Final = "win_page_printed"
NOT_PRINTED: Final = "win_page_not_printed"
FINISHED: Final = "win_page_print_finished"
KINDS: Final = (PRINTED, NOT_PRINTED, FINISHED)
IN_INDEX: Final = ("kind IN ('win_page_printed', 'win_page_not_printed', "
                   "'win_page_print_finished')")
"""The print events as the log's index of them names them (migration
``0004_win_prints_by_award``): a query finds an award's prints by that index only when its
WHERE holds this very term, kinds written out (not bound)."""
FINISH_FLAG: Final = "finish_recorded"
"""In a print's payload (true): this console records the print's outcome as an event of its
own, so a print without one did not finish."""
KEYPAD: Final = "keypad"
"""Asked by the keypad's money bag: the dealer's button, no card."""
SCREEN: Final = "screen"
"""Asked on the supervisor's jackpot screen, by the employee whose card opened it."""
PDF_FOLDER: Final = "win-pages"
"""Beside the table database: the win pages written as PDF when no printer is set up."""


def pdf_name(hit_id: int, copy: int) -> str:
    """Where print ``copy`` of award ``hit_id`` is written, beside the table database (a
    copy's file beside the original's: a reprint never replaces the original's)."""
    return f"{PDF_FOLDER}/win-page-{hit_id}" + (f"-copy-{copy}" if copy > 1 else "") + ".pdf"


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
    went_to: str | None = None
    """Where the page went, once it was printed or written: "printer NAME", "file PATH"."""
    finish_expected: bool = False
    """Recorded by a console that records each print's outcome (``FINISH_FLAG``)."""

    @property
    def unfinished(self) -> bool:
        """Recorded, then neither printed nor refused: the console stopped in between."""
        return self.finish_expected and self.went_to is None and self.not_printed is None

    def who(self) -> str:
        if self.employee_id is None:
            return "the dealer, by the keypad's money bag (no card)"
        return person(self.name or "", self.employee_id, self.role)

    def words(self) -> str:
        """One line of a report: which copy, when, who asked, and what became of it."""
        said = (f"win page {copy_words(self.copy)} of award {self.hit_id} at "
                f"{local_time(self.asked_at)}, asked by {self.who()}")
        if self.not_printed:
            return said + f": NOT PRINTED ({self.not_printed})"
        if self.unfinished:
            return said + ": NOT FINISHED (the console stopped before the page was printed)"
        return said + (f": printed to the {self.went_to}" if self.went_to else "")


def awaiting(prints: list[WinPrint]) -> list[WinPrint]:
    """An award's unfinished prints with no page printed since: a copy is still to print."""
    out: list[WinPrint] = []
    for made in prints:
        if made.not_printed is None:
            out = [*out, made] if made.unfinished else []
    return out


def todo(prints: list[WinPrint]) -> str:
    """An award's unfinished print named with what to do ("" when none waits): a copy, which
    is recorded as the next number."""
    waiting = awaiting(prints)
    if not waiting:
        return ""
    names = " and ".join(copy_words(p.copy) for p in waiting)
    return (f"{names} NOT FINISHED (the console stopped before printing it): if no page came "
            f"out, print a copy; it is recorded as {copy_words(following(prints))}.")


def following(prints: list[WinPrint]) -> int:
    """The number the next print of an award with ``prints`` gets (1: its original)."""
    return 1 + max((p.copy for p in prints if p.not_printed is None), default=0)


def summary(prints: list[WinPrint]) -> str:
    """An award's prints in words, for the screen a supervisor reprints from: how many, the
    last, an unfinished one named with what to do, and which copy a print now makes."""
    done = [made for made in prints if made.not_printed is None]
    if not done:
        return "Win page not printed yet."
    last = done[-1]
    waiting = todo(prints)
    times = "once" if len(done) == 1 else f"{len(done)} times"
    said = (f"Win page {'asked' if waiting else 'printed'} {times}, the last "
            f"({copy_words(last.copy)}) at {local_time(last.asked_at)} for {last.who()}")
    if waiting:
        return f"{said}. {waiting}"
    before = [copy_words(p.copy) for p in done if p.unfinished]
    if before:
        said += (f"; not finished: {', '.join(before)} (the console stopped), a page "
                 "printed since")
    return said + f"; a print now is {copy_words(following(prints))}."


def copy_words(copy: int | None) -> str:
    """The mark on the page: ORIGINAL, COPY n, or (``None``) a page made from the records
    outside the table (the command line's), which no one may pay from."""
    if copy is None:
        return "COPY FROM THE RECORDS: NOT FOR PAYMENT"
    return "ORIGINAL" if copy == 1 else f"COPY {copy}"


def rows(db: Database, hit_id: int | None = None
         ) -> list[tuple[int, int | None, str, str, Any]]:
    """``(seq, round_id, kind, recorded_at, payload)`` of the print events (an award's, by the
    log's index of them), in order."""
    if not eventlog.has_log(db):
        return []
    sql = (f"SELECT seq, round_id, kind, recorded_at, payload FROM events WHERE {IN_INDEX}"
           + (" AND json_extract(payload, '$.hit_id') = ?" if hit_id is not None else "")
           + " ORDER BY seq")
    found = db.execute(sql, [] if hit_id is None else [hit_id])
    return [(int(s), r, str(k), str(at), json.loads(p)) for s, r, k, at, p in found]


def prints_of(db: Database, hit_id: int) -> list[WinPrint]:
    """Award ``hit_id``'s prints, oldest first, each with its outcome if it has one."""
    return _fold(rows(db, hit_id)).get(hit_id, [])


def all_prints(db: Database) -> list[WinPrint]:
    """Every print of the table, award by award, oldest first."""
    return [made for prints in _fold(rows(db)).values() for made in prints]


def _fold(found: list[tuple[int, int | None, str, str, Any]]) -> dict[int, list[WinPrint]]:
    """The print events as prints by award, each outcome on the print it settles (an outcome
    of no print is left out: the audit names it)."""
    out: dict[int, list[WinPrint]] = {}
    for _seq, _round, kind, at, p in found:
        try:
            hit_id, copy = int(p["hit_id"]), int(p["copy"])
        except (ValueError, KeyError, TypeError):
            continue  # not a print (the audit names it)
        prints = out.setdefault(hit_id, [])
        if kind == PRINTED:
            prints.append(WinPrint(hit_id, copy, at, str(p.get("by", "")),
                                   p.get("employee_id"), p.get("name"), p.get("role"),
                                   finish_expected=p.get(FINISH_FLAG) is True))
            continue
        last = prints[-1] if prints else None
        if last is None or last.copy != copy or last.not_printed or last.went_to:
            continue
        if kind == NOT_PRINTED:
            prints[-1] = replace(last, not_printed=str(p.get("why", "")))
        else:
            prints[-1] = replace(last, went_to=went_to(p))
    return out


def went_to(payload: dict[str, Any]) -> str:
    """A finish's destination in words: the printer by its name, or the file."""
    if "printer" in payload:
        return f"printer {payload['printer']}"
    return f"file {payload.get('file', '?')}"


def next_copy(db: Database, hit_id: int) -> int:
    """The number the next print of award ``hit_id`` gets (1: its original). An unfinished
    print keeps its number: its page may have come out."""
    made = sum({PRINTED: 1, NOT_PRINTED: -1}.get(kind, 0)
               for _s, _r, kind, _at, _p in rows(db, hit_id))
    return 1 + made


def record_print(db: Database, hit_id: int, asked_by: Employee | None) -> int:
    """Record a print of award ``hit_id`` about to be sent to the printer, asked by
    ``asked_by`` (None: the keypad's money bag); returns its copy number. A print the disk
    will not record is refused before anything is printed (the write's error, raised)."""
    with db.atomic():
        copy = next_copy(db, hit_id)
        payload: dict[str, object] = {"hit_id": hit_id, "copy": copy, FINISH_FLAG: True,
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


def record_finished(db: Database, hit_id: int, copy: int, printer: str | None) -> None:
    """The print of ``copy`` went out: to ``printer``, or (None) written to its PDF file
    (``pdf_name``)."""
    where = {"printer": printer} if printer is not None else {"file": pdf_name(hit_id, copy)}
    with db.atomic():
        eventlog.append(db, FINISHED, {"hit_id": hit_id, "copy": copy, **where},
                        round_id=None)


def awaiting_copy(db: Database) -> list[WinPrint]:
    """Every unfinished print of the table with no page of its award printed since, oldest
    first: found in SQL (the awards screen asks at every change it shows)."""
    if not eventlog.has_log(db):
        return []
    found = db.execute(
        f"SELECT DISTINCT json_extract(p.payload, '$.hit_id') FROM events p"
        f" WHERE p.kind = '{PRINTED}' AND json_extract(p.payload, '$.{FINISH_FLAG}') = 1"
        f" AND NOT EXISTS (SELECT 1 FROM events o WHERE {IN_INDEX.replace('kind', 'o.kind')}"
        "  AND json_extract(o.payload, '$.hit_id') = json_extract(p.payload, '$.hit_id')"
        f" AND o.seq > p.seq AND (o.kind = '{FINISHED}' OR (o.kind = '{NOT_PRINTED}'"
        "  AND json_extract(o.payload, '$.copy') = json_extract(p.payload, '$.copy'))))")
    awards = sorted(int(hit) for (hit,) in found if isinstance(hit, int))
    waiting = [made for hit in awards for made in awaiting(prints_of(db, hit))]
    return sorted(waiting, key=lambda made: made.asked_at)
