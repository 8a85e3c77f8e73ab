"""Recall's records with every print of each award's win page (``win_prints.py``).

The round's records are the round's layer (``dealer_console/round/recall.py``), below the
jackpot system whose win pages these are; the prints are added to the records here, above
both, by the command line's recall and the supervisor's recall screen alike.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from dealer_console.jackpot.win_prints import WinPrint, copy_words, prints_of, todo


def with_prints(db: Database, rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rounds`` (recall's records), each award given ``prints`` (each print of its win
    page: which copy, when, who asked, what became of it) and ``prints_todo`` (what to do
    about a print the console recorded and never finished, "" when none waits)."""
    for r in rounds:
        for award in r.get("jackpots", ()):
            made = prints_of(db, award["hit"])
            award["prints"] = [_print(p) for p in made]
            award["prints_todo"] = todo(made)
    return rounds


def _print(p: WinPrint) -> dict[str, Any]:
    """One print, JSON-ready: a print NOT FINISHED is one the console recorded and stopped
    before printing; "recorded" is an older console's, which recorded no outcome."""
    outcome = ("refused" if p.not_printed else "not finished" if p.unfinished
               else "printed" if p.went_to else "recorded")
    return {"copy": p.copy, "mark": copy_words(p.copy), "asked_at": p.asked_at,
            "asked_by": p.who(), "employee_id": p.employee_id, "outcome": outcome,
            "went_to": p.went_to, "why": p.not_printed, "words": p.words()}
