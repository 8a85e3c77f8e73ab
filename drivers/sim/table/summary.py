"""What a simulated run produced, read from the database alone (so a resumed run reports the
whole run, not only its last part)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlite_utils import Database


def summary(db: Database, profile: str) -> dict[str, Any]:
    """The run's totals by table (rounds, wagers, fees, each side's net, misdeals, jackpot)."""

    def one(sql: str) -> int:
        row = db.execute(sql).fetchone()
        return int(row[0] or 0)

    misdeals = Counter({str(r): int(n) for r, n in db.execute(
        "SELECT reason, COUNT(*) FROM misdeals GROUP BY reason")})
    interventions = Counter({str(k): int(n) for k, n in db.execute(
        "SELECT kind, COUNT(*) FROM interventions GROUP BY kind")})
    return {
        "profile": profile,
        "rounds_complete": one("SELECT COUNT(*) FROM rounds WHERE status = 'complete'"),
        "rounds_voided": one("SELECT COUNT(*) FROM rounds WHERE status = 'voided'"),
        "wagers": one("SELECT COUNT(*) FROM wagers w JOIN rounds r USING (round_id)"
                      " WHERE r.status = 'complete'"),
        "wagered_cents": one("SELECT SUM(amount_cents) FROM wagers w JOIN rounds r"
                             " USING (round_id) WHERE r.status = 'complete'"),
        "fees_cents": one("SELECT SUM(amount_cents) FROM fees"),
        "returned_cents": one("SELECT SUM(returned_cents) FROM settlement_lines"),
        "players_net_cents": one("SELECT SUM(returned_cents - staked_cents)"
                                 " FROM settlement_lines"),
        "banker_net_cents": one("SELECT SUM(banker_delta_cents) FROM settlement_lines"),
        "house_net_cents": one("SELECT SUM(house_delta_cents) FROM settlement_lines"),
        "settlement_lines": one("SELECT COUNT(*) FROM settlement_lines"),
        "misdeals": dict(sorted(misdeals.items())),
        "jackpot_hits": one("SELECT COUNT(*) FROM jackpot_hits"),
        "jackpot": jackpot_summary(db),
        "interventions": dict(sorted(interventions.items())),
        "events": one("SELECT COUNT(*) FROM events"),
    }


def jackpot_summary(db: Any) -> dict[str, Any]:
    """Confirmed awards by line and the meters as the monitor shows them (whole cents)."""
    from dealer_console.jackpot_values.meters import MICRO

    def total(column: str) -> int:
        row = db.execute(f"SELECT COALESCE(SUM({column}), 0) FROM jackpot_hits").fetchone()
        return int(row[0])

    return {
        "awarded_cents": total("amount_cents"),
        "from_meter_cents": total("from_meter_cents"),
        "from_tray_cents": total("from_tray_cents"),
        "by_line": {f"{spot}/{label}": int(n) for spot, label, n in db.execute(
            "SELECT spot, line_label, COUNT(*) FROM jackpot_hits GROUP BY spot, line_label"
            " ORDER BY spot, line_label")},
        "wagers": int(db.execute("SELECT COUNT(*) FROM jackpot_wagers").fetchone()[0]),
        "meters": {f"{spot}/{level}": int(meter) // MICRO for spot, level, meter in db.execute(
            "SELECT spot, level, meter_micro FROM jackpot_levels ORDER BY spot, position")},
        "reserves": {f"{spot}/{level}": int(r) // MICRO for spot, level, r in db.execute(
            "SELECT spot, level, reserve_micro FROM jackpot_levels ORDER BY spot, position")},
    }


def format_summary(s: dict[str, Any], timing: dict[str, float]) -> str:
    from dealer_console.money import format_cents

    lines = [
        f"profile            {s['profile']}",
        f"rounds             {s['rounds_complete']} complete, {s['rounds_voided']} voided",
        f"wagers             {s['wagers']} totalling {format_cents(s['wagered_cents'])}",
        f"fees / rake        {format_cents(s['fees_cents'])}",
        f"returned to players {format_cents(s['returned_cents'])}",
        f"players net        {format_cents(s['players_net_cents'], sign=True)}",
        f"banker net         {format_cents(s['banker_net_cents'], sign=True)}",
        f"house net          {format_cents(s['house_net_cents'], sign=True)}",
        f"misdeals           {sum(s['misdeals'].values())} {s['misdeals'] or ''}",
        f"jackpot hits       {s['jackpot_hits']} confirmed, "
        f"{format_cents(s['jackpot']['awarded_cents'])} awarded "
        f"({format_cents(s['jackpot']['from_meter_cents'])} off the meters, "
        f"{format_cents(s['jackpot']['from_tray_cents'])} from the tray)",
        *(f"jackpot meter      {name} {format_cents(cents)}"
          for name, cents in s["jackpot"]["meters"].items()),
        f"interventions      {s['interventions'] or 'none'}",
        f"events logged      {s['events']}",
    ]
    if timing:
        lines.append(f"this run           {timing['rounds']:.0f} rounds in {timing['seconds']:.2f}"
                     f" s ({timing['rounds_per_second']:.1f} rounds/s)")
    return "\n".join(lines)
