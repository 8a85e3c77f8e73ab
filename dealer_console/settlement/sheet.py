"""The dealer's payout sheet: readable text in settlement order, or the same as JSON."""

from __future__ import annotations

from typing import Any

from dealer_console.money import format_cents
from dealer_console.settlement.model import Sheet, SheetLine


def line_to_json(line: SheetLine) -> dict[str, Any]:
    return {
        "kind": line.kind.value,
        "position": line.position,
        "party": line.party,
        "counterparty": line.counterparty,
        "wager": line.wager,
        "outcome": line.outcome.value,
        "reason": line.reason,
        "due": line.due,
        "reduced": line.reduced,
        "uncovered": line.uncovered,
        "moved": line.moved,
        "commission": line.commission,
        "transfers": [{"from": t.payer, "to": t.payee, "cents": t.cents}
                      for t in line.transfers],
    }


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    return {
        "profile": sheet.profile,
        "notes": list(sheet.notes),
        "lines": [line_to_json(line) for line in sheet.lines],
        "totals": dict(sorted(sheet.totals.items())),
    }


def _line_text(line: SheetLine) -> str:
    where = f"P{line.position}" if line.position is not None else "--"
    wager = format_cents(line.wager) if line.wager else ""
    money = "; ".join(f"{t.payer} pays {t.payee} {format_cents(t.cents)}"
                      for t in line.transfers) or "no money moves"
    extras = line.limits()
    tail = f" [{'; '.join(extras)}]" if extras else ""
    return (f"{where:<3} {line.kind.value:<11} {line.party:<20} {wager:>10}  "
            f"{line.outcome.value.upper():<6} {money}{tail}\n      {line.reason}")


def sheet_text(sheet: Sheet) -> str:
    out = [f"Payout sheet - {sheet.profile}"]
    out += [f"  note: {note}" for note in sheet.notes]
    out.append("")
    out += [_line_text(line) for line in sheet.lines]
    out.append("")
    out.append("Totals (net per party):")
    for party, cents in sorted(sheet.totals.items()):
        out.append(f"  {party:<24} {format_cents(cents, sign=True):>14}")
    return "\n".join(out) + "\n"
