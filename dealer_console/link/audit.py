"""``dealer-console link audit``: every linked meter proved from its history, read-only.

For each meter of each link, to the millionth of a cent:

- the meter and reserve as they stand equal the sum of their ledger rows (seed, contributions,
  awards, resets), and each ledger row's "after" equals the running sum up to it;
- the contributions in the ledger equal ``wager * rate`` of every accepted contribution row
  (the meter is the sum of accepted contributions, and nothing else was added);
- every hit's award and reset are in the ledger, its meter before and after as recorded.

Runs in one read-only, repeatable-read transaction: a consistent picture while tables play,
and it can be run by the read-only auditor role.
"""

from __future__ import annotations

from dealer_console.link.server import Connection

PROOF_QUERY = """
SELECT l.level, l.meter_micro,
       l.seed_cents * 1000000 + l.contribution_ppm * (SELECT COALESCE(SUM(wager_cents), 0)
           FROM link_contributions c WHERE c.link = l.link)
       - (SELECT COALESCE(SUM(-meter_delta_micro), 0) FROM link_ledger g
          WHERE g.link = l.link AND g.level = l.level AND g.kind = 'award')
       + (SELECT COALESCE(SUM(meter_delta_micro), 0) FROM link_ledger g
          WHERE g.link = l.link AND g.level = l.level AND g.kind = 'reset') AS proved
FROM link_levels l;
"""
"""Each meter beside seed + contributions - awards + resets, from the rows alone
(``docs/link.md`` prints it for anyone with the auditor role and ``psql``)."""


def _int(value: object) -> int:
    return 0 if value is None else int(str(value))


def verify(conn: Connection) -> list[str]:
    """The problems found (empty: the link's meters hold)."""
    problems: list[str] = []
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cur.execute("SELECT link, level, seed_cents, contribution_ppm, reserve_ppm, meter_micro, "
                    "reserve_micro FROM link_levels ORDER BY link, position")
        levels = cur.fetchall()
        for link, level, seed, c_ppm, r_ppm, meter, reserve in levels:
            where = f"link {link} meter {level}"
            cur.execute("SELECT kind, meter_delta_micro, reserve_delta_micro, meter_after_micro,"
                        " reserve_after_micro, entry FROM link_ledger WHERE link = %s AND "
                        "level = %s ORDER BY entry", [link, level])
            run_m = run_r = 0
            by_kind: dict[str, tuple[int, int]] = {}
            for kind, dm, dr, am, ar, entry in cur.fetchall():
                run_m += _int(dm)
                run_r += _int(dr)
                if (run_m, run_r) != (_int(am), _int(ar)):
                    problems.append(f"{where}: ledger entry {entry} says {am}/{ar} after, the "
                                    f"running sum is {run_m}/{run_r} (millionths of a cent)")
                m, r = by_kind.get(str(kind), (0, 0))
                by_kind[str(kind)] = (m + _int(dm), r + _int(dr))
            if (run_m, run_r) != (_int(meter), _int(reserve)):
                problems.append(f"{where}: stands at {meter} (reserve {reserve}) but its ledger "
                                f"sums to {run_m} (reserve {run_r}) millionths of a cent")
            if by_kind.get("seed", (0, 0)) != (_int(seed) * 1_000_000, 0):
                problems.append(f"{where}: the seed entry is not the seed {seed} cents")
            cur.execute("SELECT COALESCE(SUM(wager_cents), 0) FROM link_contributions "
                        "WHERE link = %s", [link])
            row = cur.fetchone()
            wagers = _int(row[0] if row else 0)
            expected = (wagers * _int(c_ppm), wagers * _int(r_ppm))
            if by_kind.get("contribution", (0, 0)) != expected:
                problems.append(f"{where}: contributions in the ledger are "
                                f"{by_kind.get('contribution', (0, 0))}, the accepted wagers "
                                f"({wagers} cents) give {expected}")
        cur.execute("SELECT h.hit_id, h.link, h.level, h.from_meter_cents, h.meter_before_micro,"
                    " h.meter_after_micro, "
                    "(SELECT COALESCE(SUM(meter_delta_micro), 0) FROM link_ledger l "
                    " WHERE l.hit_id = h.hit_id AND l.kind = 'award'), "
                    "(SELECT meter_after_micro - meter_delta_micro FROM link_ledger l "
                    " WHERE l.hit_id = h.hit_id ORDER BY entry LIMIT 1), "
                    "(SELECT meter_after_micro FROM link_ledger l "
                    " WHERE l.hit_id = h.hit_id ORDER BY entry DESC LIMIT 1) "
                    "FROM link_hits h ORDER BY h.hit_id")
        for hit_id, link, level, from_meter, before, after, awarded, l_before, l_after in (
                cur.fetchall()):
            if level is None:
                continue
            where = f"link {link} hit {hit_id}"
            if _int(awarded) != -_int(from_meter) * 1_000_000:
                problems.append(f"{where}: paid {from_meter} cents off the meter, the ledger "
                                f"took {awarded} millionths")
            if (_int(before), _int(after)) != (_int(l_before), _int(l_after)):
                problems.append(f"{where}: meter before/after {before}/{after}, the ledger "
                                f"says {l_before}/{l_after}")
    return problems
