"""The win pages printed in a shift, for the shift report (``shift.py``).

A win page is the payout's voucher; an auditor counts the copies, and a copy printed hours
after the award (in another shift, maybe) is worth a line of its own. So the report lists
every print asked in its range, whichever shift paid the award: when, who asked, ORIGINAL or
COPY n, what became of it (``dealer_console/jackpot/win_prints.py``). An award whose page has
copies is said plainly, with its copies up to the range's end, and a print the console
recorded and never finished is named with what to do. Each award's prints are read as they
stood at the range's end, so a report printed again later says the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from dealer_console.jackpot.win_prints import (
    IN_INDEX,
    PRINTED,
    WinPrint,
    copy_words,
    prints_of,
    todo,
)
from dealer_console.storage import eventlog


@dataclass(frozen=True, slots=True)
class AwardPrints:
    """An award with a print of its win page asked in the range."""

    hit_id: int
    round_id: int | None
    """The award's round (None: an award the table does not have; the audit names it)."""
    prints: tuple[WinPrint, ...]
    """Every print of the award asked before the range's end, oldest first."""
    start: str
    """The range's start: the prints from then on are the range's."""

    @property
    def in_range(self) -> tuple[WinPrint, ...]:
        return tuple(p for p in self.prints if p.asked_at >= self.start)

    @property
    def pages(self) -> tuple[WinPrint, ...]:
        """The prints that made a page or may have (one not finished); a refused one made
        none."""
        return tuple(p for p in self.prints if p.not_printed is None)

    @property
    def copies(self) -> tuple[WinPrint, ...]:
        """The pages marked COPY n so far."""
        return tuple(p for p in self.pages if p.copy > 1)


def mark(made: WinPrint) -> str:
    """A page's mark, and whether the console finished printing it."""
    return copy_words(made.copy) + (" (not finished)" if made.unfinished else "")


def award_prints(db: Database, start: str, end: str) -> tuple[AwardPrints, ...]:
    """The awards with a print asked from ``start`` up to (not including) ``end``, by
    number, each with its prints asked before ``end``."""
    if not eventlog.has_log(db):
        return ()
    found = db.execute(
        f"SELECT DISTINCT json_extract(payload, '$.hit_id') FROM events WHERE {IN_INDEX}"
        f" AND kind = '{PRINTED}' AND recorded_at >= ? AND recorded_at < ?", [start, end])
    awards = sorted(int(hit) for (hit,) in found if isinstance(hit, int))
    out = []
    for hit in awards:
        row = db.execute("SELECT round_id FROM jackpot_hits WHERE hit_id = ?",
                         [hit]).fetchone()
        made = tuple(p for p in prints_of(db, hit) if p.asked_at < end)
        out.append(AwardPrints(hit, None if row is None else int(row[0]), made, start))
    return tuple(out)


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} " + ("copies" if word == "copy" else f"{word}s")


def print_rows(awards: tuple[AwardPrints, ...]) -> list[tuple[str, str]]:
    """The summary's rows (none when nothing was printed in the range): the pages printed,
    originals and copies apart; the awards whose page has copies; the prints not finished and
    the ones refused."""
    if not awards:
        return []
    shift = [p for a in awards for p in a.in_range]
    pages = [p for p in shift if p.not_printed is None and not p.unfinished]
    originals = sum(p.copy == 1 for p in pages)
    rows = [("Win pages printed", f"{len(pages)}: {_plural(originals, 'original')}, "
                                  f"{_plural(len(pages) - originals, 'copy')}")]
    with_copies = [a for a in awards if a.copies]
    if with_copies:
        rows.append(("Awards whose win page has copies", ", ".join(
            f"award {a.hit_id} ({_plural(len(a.copies), 'copy')})" for a in with_copies)))
    stopped = [p for p in shift if p.unfinished]
    if stopped:
        rows.append(("Win pages NOT FINISHED", f"{len(stopped)} (" + ", ".join(
            f"award {p.hit_id} {copy_words(p.copy)}" for p in stopped) + ")"))
    refused = sum(p.not_printed is not None for p in shift)
    if refused:
        rows.append(("Win pages refused (not printed)", str(refused)))
    return rows


def print_lines(awards: tuple[AwardPrints, ...]) -> list[str]:
    """Each print of the range on its own line, in the order asked, naming its award's
    round; then each award whose page has copies, said plainly, and what to do about a print
    not finished."""
    rounds = {a.hit_id: a.round_id for a in awards}
    shift = sorted((p for a in awards for p in a.in_range), key=lambda p: p.asked_at)
    out = [f"Round {rounds[p.hit_id]}: {p.words()}" if rounds[p.hit_id] is not None
           else p.words()[0].upper() + p.words()[1:] for p in shift]
    for a in awards:
        if a.copies:
            out.append(f"Award {a.hit_id}'s win page HAS COPIES: "
                       f"{_plural(len(a.copies), 'copy')} besides its ORIGINAL, "
                       f"{len(a.pages)} pages in all ({', '.join(mark(p) for p in a.pages)})")
        waiting = todo(list(a.prints))
        if waiting:
            out.append(f"Award {a.hit_id}'s win page: {waiting}")
    return out
