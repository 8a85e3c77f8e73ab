"""How an award's confirmers and its back-out read, the same on every screen, page and report.

Issue 23: a two-person award named only its first confirmer in the awards list, the win page,
recall and the shift report, and a backed-out award still read "paid" in recall and on a
reprinted win page. Every place that shows an award takes its words from here, so naming both
people and the back-out (who, when, why) is decided once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlite_utils import Database

from dealer_console.money import format_cents


def local_time(iso: str) -> str:
    """A stored UTC time as the table's local time with its zone, to the second
    (``2026-11-25 13:04:05 PST``); text that is not a time is returned as it is."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        return iso
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")


def person(name: str, employee_id: str, role: str | None) -> str:
    return f"{name} ({employee_id}, {role})" if role else f"{name} ({employee_id})"


@dataclass(frozen=True, slots=True)
class BackOutFacts:
    """A back-out as every report shows it."""

    hit_id: int
    adjustment_id: int
    amount_cents: int
    reason: str
    employee_id: str
    employee_name: str
    recorded_at: str
    from_meter_cents: int
    from_tray_cents: int
    round_id: int
    """The round of the award backed out."""

    def words(self) -> str:
        return (f"BACKED OUT at {local_time(self.recorded_at)} by "
                f"{person(self.employee_name, self.employee_id, 'executive')}: {self.reason} "
                f"({returned_words(self.from_meter_cents, self.from_tray_cents)}, adjustment "
                f"{self.adjustment_id})")


def returned_words(from_meter_cents: int, from_tray_cents: int, *, short: bool = False) -> str:
    """Where a backed-out award goes back, in words: the meter's part returns to the meter
    (its ledger entries are reversed); a tray pay never came off the meter, so it leaves the
    meter as it is (an outside review found such a pay called "back to the meter").
    ``short``: for a figure's cell (the shift report's summary), without the explanation."""
    parts = []
    if from_meter_cents or not from_tray_cents:
        parts.append(f"{format_cents(from_meter_cents)} back to the meter")
    if from_tray_cents:
        parts.append(f"{format_cents(from_tray_cents)} "
                     + ("from the tray" if short else "paid from the tray"
                        + ("" if from_meter_cents else ": the meter unchanged")))
    return ", ".join(parts)


def back_outs(db: Database, *, hit_ids: list[int] | None = None, since: str | None = None,
              until: str | None = None) -> dict[int, BackOutFacts]:
    """The back-outs of these awards, or recorded in ``[since, until)``, by award number."""
    where: list[str] = []
    params: list[object] = []
    if hit_ids is not None:
        where.append(f"a.hit_id IN ({','.join('?' * len(hit_ids))})" if hit_ids else "0")
        params += hit_ids
    if since is not None:
        where.append("a.recorded_at >= ?")
        params.append(since)
    if until is not None:
        where.append("a.recorded_at < ?")
        params.append(until)
    sql = ("SELECT a.hit_id, a.adjustment_id, h.amount_cents, a.reason, a.employee_id,"
           " a.employee_name, a.recorded_at, h.from_meter_cents, h.from_tray_cents,"
           " h.round_id"
           " FROM jackpot_adjustments a"
           " JOIN jackpot_hits h ON h.hit_id = a.hit_id"
           + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY a.adjustment_id")
    return {int(r[0]): BackOutFacts(int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4]),
                                    str(r[5]), str(r[6]), int(r[7]), int(r[8]), int(r[9]))
            for r in db.execute(sql, params)}


def confirmers(name: str, employee_id: str, role: str | None, second_name: str | None = None,
               second_id: str | None = None, second_role: str | None = None) -> str:
    """Who confirmed: one person, or both where the award needed two, each with id and role."""
    out = person(name, employee_id, role)
    if second_id is None:
        return out
    return f"{out} and {person(second_name or '', second_id, second_role)}"
