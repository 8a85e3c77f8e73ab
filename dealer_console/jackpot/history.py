"""Meter history and hit history, for reports and the supervisor's screens."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from dealer_console.award_words import BackOutFacts
from dealer_console.jackpot.hits import _HIT_COLUMNS, _HIT_FROM, HitRecord, _hit


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    entry: int
    recorded_at: str
    spot: int
    level: str
    kind: str
    round_id: int | None
    seat: int | None
    hit_id: int | None
    meter_delta_micro: int
    reserve_delta_micro: int
    meter_after_micro: int
    reserve_after_micro: int


def meter_history(
    db: Database, spot: int | None = None, level: str | None = None, *,
    since: str | None = None, until: str | None = None,
) -> list[LedgerEntry]:
    """Ledger rows, oldest first; ``since``/``until`` are ISO times (``until`` exclusive)."""
    where, params = _filters(
        [("spot = ?", spot), ("level = ?", level), ("recorded_at >= ?", since),
         ("recorded_at < ?", until)]
    )
    rows = db.execute(
        "SELECT entry, recorded_at, spot, level, kind, round_id, seat, hit_id, "
        "meter_delta_micro, reserve_delta_micro, meter_after_micro, reserve_after_micro "
        f"FROM jackpot_ledger {where} ORDER BY entry", params,
    ).fetchall()
    return [LedgerEntry(*row) for row in rows]


def hit_history(
    db: Database, spot: int | None = None, *, since: str | None = None,
    until: str | None = None, include_backed_out: bool = True,
) -> list[HitRecord]:
    """Confirmed hits, oldest first."""
    where, params = _filters(
        [("h.spot = ?", spot), ("h.confirmed_at >= ?", since), ("h.confirmed_at < ?", until)]
    )
    if not include_backed_out:
        where += (" AND " if where else "WHERE ") + "a.adjustment_id IS NULL"
    rows = db.execute(
        f"SELECT {_HIT_COLUMNS} FROM {_HIT_FROM} {where} ORDER BY h.hit_id", params
    ).fetchall()
    return [_hit(row) for row in rows]


@dataclass(frozen=True, slots=True)
class AwardEntry:
    """A confirmed award and, when it was backed out, the adjustment that did it."""

    hit: HitRecord

    @property
    def back_out(self) -> BackOutFacts | None:
        """The award's back-out, as its record holds it."""
        return self.hit.back_out


def awards_newest_first(db: Database, limit: int = 200) -> list[AwardEntry]:
    """The table's confirmed awards, newest first (the supervisor's list), each with its
    back-out if any."""
    rows = db.execute(
        f"SELECT {_HIT_COLUMNS} FROM {_HIT_FROM} ORDER BY h.hit_id DESC LIMIT ?", [limit]
    ).fetchall()
    hits = [_hit(row) for row in rows]
    return [AwardEntry(hit) for hit in hits]


def ledger_newest_first(db: Database, limit: int = 500) -> list[LedgerEntry]:
    """The newest ``limit`` ledger rows, newest first (the supervisor's meter history list)."""
    rows = db.execute(
        "SELECT entry, recorded_at, spot, level, kind, round_id, seat, hit_id, "
        "meter_delta_micro, reserve_delta_micro, meter_after_micro, reserve_after_micro "
        "FROM jackpot_ledger ORDER BY entry DESC LIMIT ?", [limit],
    ).fetchall()
    return [LedgerEntry(*row) for row in rows]


def _filters(pairs: list[tuple[str, object]]) -> tuple[str, list[object]]:
    used = [(sql, value) for sql, value in pairs if value is not None]
    if not used:
        return "", []
    return "WHERE " + " AND ".join(sql for sql, _ in used), [v for _, v in used]
