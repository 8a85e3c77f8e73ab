"""The meter invariant, checked against the ledger: what ``audit verify`` runs for the jackpot.

For every meter: meter = seed + contributions - awards + resets + adjustments, and the reserve
= reserve contributions - what the resets moved to the meter + adjustments. Beyond the sums, each
ledger row must continue the one before it, each contribution must match a taken wager at the
configured rates, and each award must match its confirmed hit.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlite_utils import Database

from dealer_console.jackpot_values.meters import MICRO
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS

_SIGNS = {"contribution": 1, "award": -1, "reset": 1}


def verify_meters(db: Database) -> list[str]:
    """Every way the jackpot tables disagree with their history; an empty list when sound."""
    problems: list[str] = []
    if db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jackpot_levels'"
    ).fetchone() is None:
        return problems
    # an outside review deleted the games and their meters: the ledger's lines of a meter no
    # longer listed were never read, and the console installed the profile's games again
    problems += [f"jackpot game {spot} meter {level}: {n} ledger lines of a meter the table "
                 "no longer lists (its game removed outside the console)"
                 for spot, level, n in db.execute(
                     "SELECT l.spot, l.level, COUNT(*) FROM jackpot_ledger l LEFT JOIN "
                     "jackpot_levels v ON v.spot = l.spot AND v.level = l.level WHERE "
                     "v.level IS NULL GROUP BY l.spot, l.level ORDER BY l.spot, l.level")]
    levels = db.execute(
        "SELECT spot, level, seed_cents, contribution_ppm, reserve_ppm, meter_micro, "
        "reserve_micro FROM jackpot_levels ORDER BY spot, position"
    ).fetchall()
    for spot, level, seed, c_ppm, r_ppm, meter, reserve in levels:
        where = f"jackpot game {spot} meter {level}"
        first = db.execute(
            "SELECT kind, meter_delta_micro FROM jackpot_ledger WHERE spot = ? AND level = ? "
            "ORDER BY entry LIMIT 1", [spot, level]).fetchone()
        if first is None or first[0] != "seed" or first[1] != seed * MICRO:
            problems.append(f"{where}: the ledger does not start with its seed of {seed} cents")
        m = r = 0
        sums = {"seed": 0, "contribution": 0, "award": 0, "reset": 0, "adjustment": 0}
        rows = db.execute(  # read as it goes: a table's years of contributions
            "SELECT entry, kind, meter_delta_micro, reserve_delta_micro, meter_after_micro, "
            "reserve_after_micro FROM jackpot_ledger WHERE spot = ? AND level = ? ORDER BY entry",
            [spot, level])
        for n, (entry, kind, dm, dr, m_after, r_after) in enumerate(rows):
            if kind == "seed" and n:  # an outside review added money as a second seed
                problems.append(f"{where}: ledger entry {entry} seeds the meter again")
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
        problems += _back_outs(db, spot, level, where)
    return problems


def _back_outs(db: Database, spot: int, level: str, where: str) -> list[str]:
    """Each adjustment line is a back-out's: it names the adjustment made for its hit, and
    takes back exactly what the hit moved on this meter (award and reset), so the hit's lines
    add up to nothing. An outside review raised a meter with SQL and inserted one adjustment
    line to match it (the ledger's triggers refuse only changes and deletions): the meter
    added up to its ledger."""
    problems = [
        f"{where}: ledger entry {entry} (adjustment) is no back-out of its hit"
        for (entry,) in db.execute(
            "SELECT l.entry FROM jackpot_ledger l LEFT JOIN jackpot_adjustments a ON "
            "a.adjustment_id = l.adjustment_id AND a.hit_id = l.hit_id WHERE l.spot = ? AND "
            "l.level = ? AND l.kind = 'adjustment' AND a.adjustment_id IS NULL", [spot, level])]
    problems += [
        f"{where}: the back-out of hit {hit_id} does not take back what the hit moved"
        for (hit_id,) in db.execute(
            "SELECT hit_id FROM jackpot_ledger WHERE spot = ? AND level = ? AND hit_id IN ("
            "SELECT hit_id FROM jackpot_ledger WHERE spot = ? AND level = ? AND kind = "
            "'adjustment') GROUP BY hit_id HAVING SUM(meter_delta_micro) != 0 OR "
            "SUM(reserve_delta_micro) != 0 OR SUM(kind = 'adjustment') != 1",
            [spot, level, spot, level])]
    return problems


SAME_STEP = timedelta(minutes=1)
"""How far a jackpot row's time may be from the event it was written with. The two are stamped
in one transaction, milliseconds apart; a minute leaves room for a slow disk, never for a row
moved to another shift."""

_STARTED = ("SELECT round_id, MIN(recorded_at) FROM events WHERE kind = 'game_started' "
            "GROUP BY round_id")
_WRITTEN_WITH = (
    # (rows: their key, the event's key, their time; the events' key and time)
    # a jackpot wager and its contributions: the round's START GAME
    ("SELECT 'jackpot_wagers', round_id || '/' || spot || '/' || seat, round_id, recorded_at "
     "FROM jackpot_wagers", _STARTED),
    ("SELECT 'jackpot_ledger', entry, round_id, recorded_at FROM jackpot_ledger "
     "WHERE kind = 'contribution'", _STARTED),
    # an award and the meter's reset after it: the hit's event
    ("SELECT 'jackpot_ledger', entry, hit_id, recorded_at FROM jackpot_ledger "
     "WHERE kind IN ('award', 'reset')",
     "SELECT CAST(json_extract(payload, '$.hit_id') AS INTEGER), recorded_at FROM events "
     "WHERE kind = 'jackpot_hit'"),
    # a meter's seed: its game's installation (but an earlier console's, which the upgrade
    # wrote to the log afterwards: its seed's time is that console's)
    ("SELECT 'jackpot_ledger', entry, spot, recorded_at FROM jackpot_ledger WHERE kind = 'seed' "
     "AND spot IN (SELECT json_extract(payload, '$.spot') FROM events WHERE kind = "
     "'jackpot_game_installed' AND json_extract(payload, '$.backfilled') IS NULL)",
     "SELECT CAST(json_extract(payload, '$.spot') AS INTEGER), recorded_at FROM events "
     "WHERE kind = 'jackpot_game_installed'"),
    # a back-out's reversals: its adjustment (held to its own event by the rebuild)
    ("SELECT 'jackpot_ledger', entry, adjustment_id, recorded_at FROM jackpot_ledger "
     "WHERE kind = 'adjustment'", "SELECT adjustment_id, recorded_at FROM jackpot_adjustments"),
)
_SHOWN = 5


def verify_times(db: Database) -> list[str]:
    """Each jackpot wager's and meter line's time held to the event it was written with. The
    rebuild cannot compare them (a replay stamps its own time), and the meter history and its
    chart place each line by it: an outside review moved an award's ledger line to another
    year, and the audit passed."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                  "'jackpot_ledger'").fetchone() is None:
        return []
    problems: list[str] = []
    for rows_sql, times_sql in _WRITTEN_WITH:
        times = {k: str(at) for k, at in db.execute(times_sql) if k is not None}
        for table, key, ref, at in db.execute(rows_sql):
            event_at = times.get(ref)
            if event_at is None:
                problems.append(f"{table} ({key}): recorded at {at}, but the event it was "
                                "written with is missing")
            elif abs(_when(str(at)) - _when(event_at)) > SAME_STEP:
                problems.append(f"{table} ({key}): recorded at {at}, but the event it was "
                                f"written with at {event_at}")
    return _capped(problems, "at other times than their events")


def _capped(problems: list[str], how: str) -> list[str]:
    """The first few problems, and how many more there are: one row's fault is the clue."""
    more = [f"and {len(problems) - _SHOWN} more jackpot rows {how}"]
    return problems[:_SHOWN] + (more if len(problems) > _SHOWN else [])


def _when(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)  # not a time: as far from any as can be


_INSTALLED = (
    "WITH installed (spot, since) AS (SELECT CAST(json_extract(payload, '$.spot') AS INTEGER), "
    "MIN(CASE WHEN json_extract(payload, '$.backfilled') IS NULL THEN seq ELSE 0 END) FROM "
    "events WHERE kind = 'jackpot_game_installed' GROUP BY 1) ")
"""Each game's installation in the log (an earlier console's, written by its upgrade
afterwards, was there from the start): the round's hook took its wagers and paid its hits from
then on."""

_SPOT = ("CASE json_extract(w.value, '$[1]') "
         + " ".join(f"WHEN '{kind}' THEN {spot}" for spot, kind in JACKPOT_KINDS.items())
         + " END")
_KINDS = ", ".join(f"'{kind}'" for kind in JACKPOT_KINDS.values())
_IN_THE_LOG = (
    ("jackpot wager", "round, spot, seat, cents",
     "SELECT round_id, spot, seat, wager_cents FROM jackpot_wagers",
     f"SELECT e.round_id, {_SPOT}, json_extract(w.value, '$[0]'), json_extract(w.value, '$[2]')"
     " FROM events e, json_each(e.payload, '$.wagers') w JOIN installed i ON i.spot = "
     f"{_SPOT} WHERE e.kind = 'game_started' AND e.seq > i.since AND "
     f"json_extract(w.value, '$[1]') IN ({_KINDS})"),
    ("jackpot hit", "award, round, spot, seat, cents",
     "SELECT hit_id, round_id, spot, seat, amount_cents FROM jackpot_hits",
     "SELECT CAST(json_extract(e.payload, '$.hit_id') AS INTEGER), e.round_id, i.spot, "
     "json_extract(e.payload, '$.seat'), json_extract(e.payload, '$.award_cents') FROM events e "
     "JOIN installed i ON i.spot = COALESCE(json_extract(e.payload, '$.spot'), 1) WHERE "
     "e.kind = 'jackpot_hit' AND e.seq > i.since"),
    ("jackpot back-out", "adjustment, award",
     "SELECT adjustment_id, hit_id FROM jackpot_adjustments",
     "SELECT json_extract(payload, '$.adjustment_id'), json_extract(payload, '$.hit_id') "
     "FROM events WHERE kind = 'jackpot_backed_out'"),
)


def verify_in_the_log(db: Database) -> list[str]:
    """Each jackpot wager, hit and back-out stored is one the hash-chained log holds, and the
    other way round, by its key and amount: SQL only, so the power-on self-test runs it. A
    second review raised a meter with rows that agreed with one another (a wager made up with
    its contribution; a back-out of a hit never backed out, with its ledger lines), and the
    self-test, which held the tables only to each other, passed. The full rebuild is
    ``audit verify``'s."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                  "'jackpot_adjustments'").fetchone() is None:
        return []
    problems: list[str] = []
    for what, key, stored, logged in _IN_THE_LOG:
        for row in db.execute(f"{_INSTALLED}{stored} EXCEPT {logged}"):
            problems.append(f"{what} ({key} {', '.join(map(str, row))}): stored, but not in "
                            "the event log")
        for row in db.execute(f"{_INSTALLED}{logged} EXCEPT {stored}"):
            problems.append(f"{what} ({key} {', '.join(map(str, row))}): in the event log, "
                            "but not stored")
    return _capped(problems, "not as the log holds them")
