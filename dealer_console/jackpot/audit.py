"""The meter invariant, checked against the ledger: what ``audit verify`` runs for the jackpot.

For every meter: meter = seed + contributions - awards + resets + adjustments, and the reserve
= reserve contributions - what the resets moved to the meter + adjustments. Beyond the sums, each
ledger row must continue the one before it, each contribution must match a taken wager at the
configured rates, and each award must match its confirmed hit.
"""

from __future__ import annotations

from sqlite_utils import Database

from dealer_console.jackpot_values.meters import MICRO

_SIGNS = {"contribution": 1, "award": -1, "reset": 1}


def verify_meters(db: Database) -> list[str]:
    """Every way the jackpot tables disagree with their history; an empty list when sound."""
    problems: list[str] = []
    if db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jackpot_levels'"
    ).fetchone() is None:
        return problems
    levels = db.execute(
        "SELECT spot, level, seed_cents, contribution_ppm, reserve_ppm, meter_micro, "
        "reserve_micro FROM jackpot_levels ORDER BY spot, position"
    ).fetchall()
    for spot, level, seed, c_ppm, r_ppm, meter, reserve in levels:
        where = f"jackpot game {spot} meter {level}"
        rows = db.execute(
            "SELECT entry, kind, meter_delta_micro, reserve_delta_micro, meter_after_micro, "
            "reserve_after_micro FROM jackpot_ledger WHERE spot = ? AND level = ? ORDER BY entry",
            [spot, level],
        ).fetchall()
        if not rows or rows[0][1] != "seed" or rows[0][2] != seed * MICRO:
            problems.append(f"{where}: the ledger does not start with its seed of {seed} cents")
        m = r = 0
        sums = {"seed": 0, "contribution": 0, "award": 0, "reset": 0, "adjustment": 0}
        for entry, kind, dm, dr, m_after, r_after in rows:
            m += dm
            r += dr
            sums[kind] += dm
            if (m, r) != (m_after, r_after):
                problems.append(f"{where}: ledger entry {entry} does not follow the one before")
                m, r = m_after, r_after
            sign = _SIGNS.get(kind)
            if sign is not None and dm * sign < 0:
                problems.append(f"{where}: ledger entry {entry} ({kind}) has the wrong sign")
        if m != meter or r != reserve:
            problems.append(
                f"{where}: meter {meter} / reserve {reserve} millionths of a cent, but the "
                f"ledger adds up to {m} / {r}"
            )
        if sum(sums.values()) != meter:
            problems.append(f"{where}: seed + contributions - awards + resets != meter")
        wagers = db.execute(
            "SELECT COALESCE(SUM(wager_cents), 0) FROM jackpot_wagers WHERE spot = ?", [spot]
        ).fetchone()[0]
        if sums["contribution"] != wagers * c_ppm:
            problems.append(f"{where}: contributions do not match the wagers taken")
        reserve_in = db.execute(
            "SELECT COALESCE(SUM(reserve_delta_micro), 0) FROM jackpot_ledger "
            "WHERE spot = ? AND level = ? AND kind = 'contribution'", [spot, level],
        ).fetchone()[0]
        if reserve_in != wagers * r_ppm:
            problems.append(f"{where}: reserve contributions do not match the wagers taken")
        awarded = db.execute(  # a linked hit came off the link's shared meter, not this one
            "SELECT COALESCE(SUM(from_meter_cents), 0) FROM jackpot_hits "
            "WHERE spot = ? AND level = ? AND link IS NULL", [spot, level],
        ).fetchone()[0]
        if -sums["award"] != awarded * MICRO:
            problems.append(f"{where}: awards off the meter do not match the confirmed hits")
        for entry, dm, dr in db.execute(
            "SELECT r.entry, r.meter_delta_micro, r.reserve_delta_micro FROM jackpot_ledger r "
            "WHERE r.spot = ? AND r.level = ? AND r.kind = 'reset'", [spot, level],
        ).fetchall():
            if dm != seed * MICRO - dr:
                problems.append(f"{where}: reset {entry} is not the seed plus the reserve")
    return problems
