"""What a table and its link exchange, as plain values (no database driver needed)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Owed:
    """One jackpot wager a table took at START GAME and owes the link."""

    round_id: int
    deal_no: int
    spot: int
    seat: int
    wager_cents: int
    taken_at: str


@dataclass(frozen=True, slots=True)
class LinkedHit:
    """A hit as the server ordered it: what the table records in its own log."""

    hit_id: int
    table_id: str
    round_id: int
    spot: int
    seat: int
    line_no: int
    line_label: str
    level: str | None
    amount_cents: int
    from_meter_cents: int
    from_tray_cents: int
    meter_before_micro: int | None
    meter_after_micro: int | None
    employee_id: str
    confirmed_at: str
    link: str


@dataclass(frozen=True, slots=True)
class TrayReport:
    """A linked game's tray pay the table paid while its link was down, owed to the link as a
    report (the server records it as one of its hits; the shared meter does not move)."""

    link: str
    table_id: str
    round_id: int
    spot: int
    seat: int
    line_no: int
    amount_cents: int
    employee_id: str
    second_employee_id: str | None
    paid_at: str
