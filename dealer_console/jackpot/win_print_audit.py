"""``audit verify``'s check of the win pages' prints (``win_prints.py``): each print and each
outcome where the console writes it, in the order it writes them.

The hash chain tells an event changed or removed; it cannot tell one added afterwards with
the chain recomputed (a checkpoint can). So the events themselves are held to the order only
the console makes: each print the next number of its award, each outcome (printed or refused)
the one outcome of the print just made. A finish added to hide a print that never came out
(the console stopped after recording it) names a print already settled, a number out of turn,
a print of a console that records no finish, or a file the console would not have written;
and a print left unfinished is said in the notes, since whether a page came out is not in the
records.
"""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from dealer_console.award_words import local_time
from dealer_console.jackpot.win_prints import (
    FINISH_FLAG,
    NOT_PRINTED,
    PRINTED,
    all_prints,
    copy_words,
    pdf_name,
    rows,
)
from dealer_console.storage import eventlog

OPEN, OLD, DONE, REFUSED = "open", "old", "printed", "refused"
"""What became of a print: its outcome awaited, recorded by a console that records none,
printed, refused."""


def print_problems(db: Database) -> list[str]:
    """Every print event that does not stand: not round-less, an award the table does not
    have, a number out of its order (each print the next number of its award; a refusal or a
    finish the one outcome of the print just made), a finish that names no printer or not the
    file the console writes for that copy."""
    if not eventlog.has_log(db):
        return []
    awards: set[int] | None = None
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                  "'jackpot_hits'").fetchone() is not None:
        awards = {int(r[0]) for r in db.execute("SELECT hit_id FROM jackpot_hits")}
    problems: list[str] = []
    made: dict[int, int] = {}
    """Each award's number of pages made so far (a refusal takes its print back)."""
    last: dict[int, tuple[int, str]] = {}
    """Each award's last print: its number and what became of it."""
    for seq, round_id, kind, _at, p in rows(db):
        where = f"event {seq} ({kind})"
        try:
            hit_id, copy = int(p["hit_id"]), int(p["copy"])
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"{where}: not a win page's print ({exc!r})")
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
            last[hit_id] = (copy, OPEN if p.get(FINISH_FLAG) is True else OLD)
            continue
        said = _outcome_problem(hit_id, copy, kind, last.get(hit_id), p)
        if said:
            problems.append(f"{where}: {said}")
        if kind == NOT_PRINTED:
            made[hit_id] = max(0, copy - 1)
        if hit_id in last and last[hit_id][0] == copy:
            last[hit_id] = (copy, REFUSED if kind == NOT_PRINTED else DONE)
    return problems


def _outcome_problem(hit_id: int, copy: int, kind: str, last: tuple[int, str] | None,
                     p: dict[str, Any]) -> str:
    """Why an outcome (refused or finished) of award ``hit_id``'s print ``copy`` does not
    stand, after ``last`` (that award's last print and what became of it); "" when it does."""
    what = ("refused" if kind == NOT_PRINTED else "finished")
    named = f"award {hit_id}'s {copy_words(copy)} {what}"
    if last is None:
        return f"{named}, but no print of award {hit_id} was recorded before it"
    if last[0] != copy:
        return f"{named}, but it is not the print just made"
    state = last[1]
    if state in (DONE, REFUSED):
        return f"{named}, but that print was already {state}"
    if kind == NOT_PRINTED:
        return ""
    if state == OLD:
        return (f"{named}, but its print was recorded by a console that records no "
                "outcome of a print")
    if ("printer" in p) == ("file" in p):
        said = "both a printer and" if "printer" in p else "neither a printer nor"
        return f"{named}, but it names {said} a file"
    if "file" in p and p["file"] != pdf_name(hit_id, copy):
        return (f"{named} to the file {json.dumps(p['file'])}, but the console writes that "
                f"print to {pdf_name(hit_id, copy)}")
    if "printer" in p and not (isinstance(p["printer"], str) and p["printer"].strip()):
        return f"{named}, but its printer has no name"
    return ""


def print_notes(db: Database) -> list[str]:
    """Each print recorded and never finished, a copy printed since or not: the records
    cannot tell whether its page came out."""
    return [f"win page {copy_words(p.copy)} of award {p.hit_id}, asked at "
            f"{local_time(p.asked_at)}, is NOT FINISHED: the console stopped after "
            "recording it; whether a page came out is not in the records"
            for p in all_prints(db) if p.unfinished]

