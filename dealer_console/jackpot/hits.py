"""The jackpot's confirmed hits as the table database holds them: the award, who confirmed
it, the meter before and after, and its back-out if any (``back_outs.py``).

The console (``confirm_rules.confirm_hit``) and the audit's rebuild from the event log both
write a hit through :func:`write_hit`; every screen and report reads it as a :class:`HitRecord`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlite_utils import Database

from dealer_console.award_words import BackOutFacts, confirmers
from dealer_console.jackpot.games import JackpotError, ledger
from dealer_console.jackpot_values.config import GameConfig
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.jackpot_values.meters import MICRO, Award, MeterState
from dealer_console.jackpot_values.paytable import JackpotLine


@dataclass(frozen=True, slots=True)
class HitRecord:
    """A confirmed award as stored: what the win page and the hit history show."""

    hit_id: int
    round_id: int
    spot: int
    seat: int
    paytable: str
    line_no: int
    line_label: str
    pay: str
    level: str | None
    cards: str | None
    detected_line_no: int | None
    wager_cents: int
    amount_cents: int
    from_meter_cents: int
    from_tray_cents: int
    meter_before_micro: int | None
    meter_after_micro: int | None
    employee_id: str
    employee_name: str
    employee_role: str
    confirmed_at: str
    second_employee_id: str | None
    """Where the award needed two people: the second to confirm (the first is above)."""
    second_employee_name: str | None
    second_employee_role: str | None
    link: str | None
    """The link whose shared meter paid this award (its server decided the amount), or None."""
    link_hit_id: int | None
    """The award's number on the link's server."""
    backed_out: bool
    back_out: BackOutFacts | None = None
    """Who backed the award out, when and why (``award_words``), when it was."""

    @property
    def confirmers(self) -> str:
        """Both people where two were needed, each with id and role (reports, pages)."""
        return confirmers(self.employee_name, self.employee_id, self.employee_role,
                          self.second_employee_name, self.second_employee_id,
                          self.second_employee_role)



_HIT_COLUMNS = (
    "h.hit_id, h.round_id, h.spot, h.seat, h.paytable, h.line_no, h.line_label, h.pay, "
    "h.level, h.cards, h.detected_line_no, h.wager_cents, h.amount_cents, h.from_meter_cents, "
    "h.from_tray_cents, "
    "h.meter_before_micro, h.meter_after_micro, h.employee_id, h.employee_name, "
    "h.employee_role, h.confirmed_at, h.second_employee_id, h.second_employee_name, "
    "h.second_employee_role, h.link, h.link_hit_id, a.adjustment_id IS NOT NULL, "
    "a.adjustment_id, a.reason, a.employee_id, a.employee_name, a.recorded_at"
)
_HIT_FROM = "jackpot_hits h LEFT JOIN jackpot_adjustments a ON a.hit_id = h.hit_id"


def _hit(row: Sequence[object]) -> HitRecord:
    values = list(row[:-5])
    values[-1] = bool(values[-1])
    hit = HitRecord(*values)  # type: ignore[arg-type]
    adjustment, reason, employee_id, name, at = row[-5:]
    if adjustment is None:
        return hit
    return replace(hit, back_out=BackOutFacts(
        hit.hit_id, int(str(adjustment)), hit.amount_cents, str(reason), str(employee_id),
        str(name), str(at), hit.from_meter_cents, hit.from_tray_cents, hit.round_id))


def get_hit(db: Database, hit_id: int) -> HitRecord:
    row = db.execute(
        f"SELECT {_HIT_COLUMNS} FROM {_HIT_FROM} WHERE h.hit_id = ?", [hit_id]
    ).fetchone()
    if row is None:
        raise JackpotError(f"no jackpot hit {hit_id}")
    return _hit(row)


def hit_for(db: Database, round_id: int, spot: int, seat: int) -> HitRecord | None:
    row = db.execute(
        f"SELECT {_HIT_COLUMNS} FROM {_HIT_FROM} "
        "WHERE h.round_id = ? AND h.spot = ? AND h.seat = ?", [round_id, spot, seat],
    ).fetchone()
    return None if row is None else _hit(row)



def linked_award(line: JackpotLine, hit: LinkedHit) -> Award:
    """The award the link's server paid for ``hit``, as the table records it: the server's
    amounts and its shared meter before and after (reserves stay on the server)."""
    def state(micro: int | None) -> MeterState | None:
        return None if micro is None else MeterState(micro)

    return Award(line, hit.level, hit.amount_cents, hit.from_meter_cents, hit.from_tray_cents,
                 state(hit.meter_before_micro), None, state(hit.meter_after_micro))




@dataclass(frozen=True, slots=True)
class Confirmation:
    """Who confirmed which hand line of which seat, and when: the facts of a hit beside the
    award the meters give (the round's ``jackpot_hit`` event holds them all)."""

    round_id: int
    spot: int
    seat: int
    line_no: int
    cards: str | None
    detected_line_no: int | None
    employee_id: str
    employee_name: str
    employee_role: str
    confirmed_at: str
    hit_id: int | None = None
    second: tuple[str, str, str] | None = None
    """The second confirmer (id, name, role) of an award that needed two people."""


def write_hit(db: Database, game: GameConfig, c: Confirmation, result: Award,
              linked: LinkedHit | None = None) -> int:
    """The hit's row and its meter entries (a 100% award's reset too); returns the hit id.
    A linked hit (paid by the link's server, ``result`` its answer) names the link and moves
    no meter of the table's own.

    The console and the audit's rebuild from the event log both write hits here."""
    line = game.paytable.line(c.line_no)
    cursor = db.execute(
        "INSERT INTO jackpot_hits (hit_id, round_id, spot, seat, paytable, line_no, line_label, "
        "pay, level, cards, detected_line_no, wager_cents, amount_cents, from_meter_cents, "
        "from_tray_cents, meter_before_micro, meter_after_micro, employee_id, "
        "employee_name, employee_role, confirmed_at, second_employee_id, second_employee_name, "
        "second_employee_role, link, link_hit_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [c.hit_id, c.round_id, c.spot, c.seat, game.paytable.name, c.line_no, line.label,
         str(line.pay), result.level, c.cards, c.detected_line_no, game.wager_cents,
         result.amount_cents, result.from_meter_cents, result.from_tray_cents,
         result.before.meter_micro if result.before else None,
         result.after.meter_micro if result.after else None,
         c.employee_id, c.employee_name, c.employee_role, c.confirmed_at,
         *(c.second or (None, None, None)), linked.link if linked else None,
         linked.hit_id if linked else None],
    )
    hit_id = int(cursor.lastrowid or 0)
    if linked is None and result.level is not None and result.after_award is not None:
        ledger(db, c.spot, result.level, "award", -result.from_meter_cents * MICRO, 0,
                round_id=c.round_id, seat=c.seat, hit_id=hit_id)
        if result.resets:
            ledger(db, c.spot, result.level, "reset", result.reset_micro,
                    -result.after_award.reserve_micro,
                    round_id=c.round_id, seat=c.seat, hit_id=hit_id)
    return hit_id



def hit_detail(hit: HitRecord) -> dict[str, object]:
    """What the round's event records of a confirmed hit (never the card's data): enough for
    the audit to rebuild the hit's row and recompute its award from the log."""
    return {
        "hit_id": hit.hit_id, "paytable": hit.paytable, "line": hit.line_label,
        "pay": hit.pay, "level": hit.level, "employee_id": hit.employee_id,
        "employee_name": hit.employee_name, "employee_role": hit.employee_role,
        "confirmed_at": hit.confirmed_at, "detected_line_no": hit.detected_line_no,
        "from_meter_cents": hit.from_meter_cents,
        "from_tray_cents": hit.from_tray_cents,
        "meter_before_cents": None if hit.meter_before_micro is None
        else hit.meter_before_micro // MICRO,
        "meter_after_cents": None if hit.meter_after_micro is None
        else hit.meter_after_micro // MICRO,
    } | ({} if hit.second_employee_id is None else {
        "second_employee_id": hit.second_employee_id,
        "second_employee_name": hit.second_employee_name,
        "second_employee_role": hit.second_employee_role}) | ({} if hit.link is None else {
        "link": hit.link, "link_hit_id": hit.link_hit_id,
        "meter_before_micro": hit.meter_before_micro,
        "meter_after_micro": hit.meter_after_micro})
