"""What a table and its link exchange, as plain values (no database driver needed)."""

from __future__ import annotations

from dataclasses import dataclass, field


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


@dataclass(frozen=True, slots=True)
class HitAsk:
    """One hit for the server to pay, with the most the confirming card may confirm."""

    link: str
    round_id: int
    spot: int
    seat: int
    line_no: int
    employee_id: str
    most_cents: int | None
    """The most the table thinks the card may confirm: it only narrows what the server, which
    checks the confirmers against its own list and thresholds, allows."""
    second_employee_id: str | None = None
    """The second confirmer of an award above the two-person level."""
    cards: tuple[str, ...] = field(default=(), repr=False, compare=False)
    """The cards swiped (the first confirmer's first), for a link whose server reads them
    itself (``dealer_link/server_cards.py``). Held in memory only: never written, logged or
    shown."""


@dataclass(frozen=True, slots=True)
class HitAnswer:
    ask: HitAsk
    hit: LinkedHit | None = None
    refused: str | None = None
    """The server refused (nothing paid there): why, in plain words."""
    failed: str | None = None
    """No answer came (the server may have paid it): why."""
