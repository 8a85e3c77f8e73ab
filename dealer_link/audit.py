"""``dealer-console link audit``: every linked meter replayed from its seed, read-only.

For each link, its ledger is replayed entry by entry from nothing, to the millionth of a cent:

- a meter starts with its ``seed`` entry, the seed the game was installed with;
- each ``contribution`` entry is one accepted wager (``link_contributions``) times the meter's
  rates, once per meter, and every accepted wager has its entries;
- each ``award`` entry is a hit whose amount is recomputed here from the replayed meters and
  the paytable (``jackpot/meters.award``, the table's own arithmetic): amount, from the meter,
  from the tray, meter before and after as the hit row says; a 100% award's ``reset`` adds
  exactly the seed plus the reserve;
- a ``reset`` or ``adjustment`` not tied to a hit was made by a link administrator (a member of
  ``dealer_link_admin``), with a reason; a reset brings the meter to seed plus reserve;
- each entry's "after" is the running sum, and the meters as they stand are the end of it;
- every hit names a confirmer on the link's list, and a hit paid off a meter (since migration
  ``0010_every_hit_carded``, any hit) while the link read the cards itself has a card read by
  the server for each confirmer;
- no table's hello has moved the hit numbers past the server's to a hit it does not hold
  ("the server went back in time", ``server_went_back.py``) unless the administrator has
  looked at it (``link went-back``, ``server_went_back_review.py``);
- no table's accepted wagers are more than a table plays: rounds an hour of its clock within
  its link's bound, and a time a console records (``server_play_bound.py``);
- every hit is held to the rules in force when it was paid, as its row keeps them (the
  confirmers' roles then, the game's executive threshold and two-person level then:
  ``server_in_force.py``), by the table's own rule (``jackpot/confirm_rules``).

Runs in one read-only, repeatable-read transaction: a consistent picture while tables play,
and it can be run by the read-only auditor role.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from dealer_console.employees.registry import Role
from dealer_console.jackpot import confirm_rules
from dealer_console.jackpot_values import meters
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, LevelConfig
from dealer_console.jackpot_values.meters import MICRO, MeterState
from dealer_console.jackpot_values.paytable import load
from dealer_console.money import format_cents
from dealer_link import server_play_bound
from dealer_link.server import Connection
from dealer_link.server_trust import ADMIN_ROLE

PROOF_QUERY = """
SELECT l.level, l.meter_micro,
       l.seed_cents * 1000000 + l.contribution_ppm * (SELECT COALESCE(SUM(wager_cents), 0)
           FROM link_contributions c WHERE c.link = l.link)
       - (SELECT COALESCE(SUM(-meter_delta_micro), 0) FROM link_ledger g
          WHERE g.link = l.link AND g.level = l.level AND g.kind = 'award')
       + (SELECT COALESCE(SUM(meter_delta_micro), 0) FROM link_ledger g
          WHERE g.link = l.link AND g.level = l.level AND g.kind IN ('reset', 'adjustment'))
       AS proved
FROM link_levels l;
"""
"""Each meter beside seed + contributions - awards + resets and adjustments, from the rows
alone (``docs/link.md`` prints it for anyone with the auditor role and ``psql``)."""


def _int(value: object) -> int:
    return 0 if value is None else int(str(value))


def _opt(value: object) -> int | None:
    return None if value is None else int(str(value))


@dataclass
class _Replay:
    link: str
    game: GameConfig
    states: dict[str, MeterState]
    problems: list[str]
    admins: set[str]


def verify(conn: Connection) -> list[str]:
    """The problems found (empty: every link's meters hold)."""
    problems: list[str] = []
    games: dict[str, GameConfig] = {}
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cur.execute("SELECT rolname FROM pg_roles WHERE pg_has_role(oid, %s, 'MEMBER')",
                    [ADMIN_ROLE])
        admins = {str(r[0]) for r in cur.fetchall()}
        cur.execute("SELECT link, paytable, wager_cents, fixed_from_meter, "
                    "executive_threshold_cents FROM link_games ORDER BY link")
        for link, paytable, wager, from_meter, threshold in cur.fetchall():
            cur.execute("SELECT level, seed_cents, contribution_ppm, reserve_ppm, meter_micro, "
                        "reserve_micro FROM link_levels WHERE link = %s ORDER BY position",
                        [link])
            levels = cur.fetchall()
            game = GameConfig(spot=1, paytable=load(str(paytable)),
                              mode=JackpotMode.PROGRESSIVE,
                              levels=tuple(LevelConfig(str(r[0]), _int(r[1]), _int(r[2]),
                                                       _int(r[3])) for r in levels),
                              wager_cents=_int(wager), fixed_from_meter=bool(from_meter),
                              executive_threshold_cents=_int(threshold))
            games[str(link)] = game
            replay = _Replay(str(link), game, {}, problems, admins)
            _replay_link(cur, replay)
            for level, _s, _c, _r, meter, reserve in levels:
                got = replay.states.get(str(level), MeterState(0, 0))
                if (got.meter_micro, got.reserve_micro) != (_int(meter), _int(reserve)):
                    problems.append(f"link {link} meter {level}: stands at {meter} (reserve "
                                    f"{reserve}) but its ledger replays to {got.meter_micro} "
                                    f"(reserve {got.reserve_micro}) millionths of a cent")
        cur.execute("SELECT h.hit_id, h.link, e.who FROM link_hits h CROSS JOIN LATERAL "
                    "(VALUES (h.employee_id), (h.second_employee_id)) AS e(who) WHERE e.who "
                    "IS NOT NULL AND NOT EXISTS (SELECT 1 FROM link_confirmers c WHERE "
                    "c.employee_id = e.who) ORDER BY h.hit_id")
        for hit_id, link, employee in cur.fetchall():
            problems.append(f"link {link} hit {hit_id}: confirmed by {employee}, whom the "
                            "link does not know")
        cur.execute(_UNCARDED)
        for hit_id, link, employee, from_meter in cur.fetchall():
            how = "off the meter" if _int(from_meter) > 0 else "from the tray"
            problems.append(f"link {link} hit {hit_id}: paid {how} while the link read the "
                            f"cards itself, with no card of {employee}'s read for it")
        cur.execute(_WENT_BACK)
        for link, table_id, seen, reached in cur.fetchall():
            problems.append(f"link {link}: table {table_id}'s hello moved the hit numbers "
                            f"from {reached} to {seen}, saying the server had gone back in "
                            "time; the server has no such hit: if it was not restored in "
                            "place, that table's login made it up (\"link reconcile\" on its "
                            "database; \"link went-back\" acknowledges it once looked at)")
        cur.execute(_IN_FORCE)
        for hit_id, link, amount, first, second, roles, executive, two in cur.fetchall():
            game = replace(games[str(link)], executive_threshold_cents=_int(executive),
                           two_person_above_cents=_opt(two))
            people = [first] if second is None else [first, second]
            held = list(roles) if isinstance(roles, list) else []
            short = ("the same person confirmed twice" if first == second else
                     confirm_rules.who_falls_short(game, _int(amount), [
                         None if r is None else Role(str(r)) for r in held[:len(people)]]))
            if short is not None:
                problems.append(f"link {link} hit {hit_id} of {format_cents(_int(amount))}, "
                                f"confirmed by {' and '.join(map(str, people))}: {short}, "
                                "by the rules in force when it was paid")
        problems.extend(server_play_bound.implausible(cur))
    return problems


_IN_FORCE = """
SELECT hit_id, link, amount_cents, employee_id, second_employee_id,
       ARRAY[employee_role, second_role], executive_threshold_cents, two_person_above_cents
FROM link_hits WHERE rules_kept ORDER BY hit_id
"""
"""Each hit with the rules it was paid under (migration ``0008_in_force``)."""


_WENT_BACK = """
SELECT w.link, w.table_id, w.seen_hit, w.reached FROM link_went_back_claims w
WHERE w.seen_hit > w.reached
  AND NOT EXISTS (SELECT 1 FROM link_hits h WHERE h.hit_id = w.seen_hit)
  AND NOT EXISTS (SELECT 1 FROM link_went_back_reviews r WHERE r.link = w.link
                  AND r.table_id = w.table_id AND r.seen_hit = w.seen_hit)
ORDER BY w.claimed_at, w.link, w.table_id
"""
"""Each table's hello that moved the hit numbers past the server's, saying it recorded a hit
the server lacks (migration ``0012_bounded_went_back``): a restored copy (a new database)
numbers its hits after the next million and is moved by no table, so only a restore in place
or a made-up number does it. One the administrator acknowledged or granted
(``link_went_back_reviews``, migration ``0015_went_back_reviews``) was looked at."""


_UNCARDED = """
SELECT h.hit_id, h.link, e.who, h.from_meter_cents FROM link_hits h
CROSS JOIN LATERAL (VALUES (h.employee_id), (h.second_employee_id)) AS e(who)
WHERE e.who IS NOT NULL
  AND (h.from_meter_cents > 0 OR h.confirmed_at > (SELECT m.applied_at FROM link_migrations m
                                                   WHERE m.name = '0010_every_hit_carded'))
  AND (SELECT a.detail LIKE '%-> on' FROM link_admin_log a WHERE a.link = h.link
       AND a.what = 'cards on server' AND a.recorded_at < h.confirmed_at
       ORDER BY a.entry DESC LIMIT 1)
  AND NOT EXISTS (SELECT 1 FROM link_card_passes p WHERE p.hit_id = h.hit_id
                  AND p.employee_id = e.who AND p.used_at IS NOT NULL)
ORDER BY h.hit_id
"""
"""Each confirmer of a hit paid off a meter while its link read the cards itself
(``server_cards.py``; the switch's changes are in ``link_admin_log``) without a pass of
theirs used for that hit; since migration ``0010_every_hit_carded``, of a tray pay too."""


def _replay_link(cur: object, r: _Replay) -> None:
    from psycopg import Cursor

    assert isinstance(cur, Cursor)
    link, game = r.link, r.game
    cur.execute("SELECT table_id, round_id, deal_no, spot, seat, wager_cents FROM "
                "link_contributions WHERE link = %s", [link])
    wagers = {tuple(row[:5]): _int(row[5]) for row in cur.fetchall()}
    entered: dict[tuple[object, ...], int] = {}
    cur.execute("SELECT hit_id, table_id, round_id, spot, seat, line_no, level, amount_cents, "
                "from_meter_cents, from_tray_cents, meter_before_micro, meter_after_micro "
                "FROM link_hits WHERE link = %s ORDER BY hit_id", [link])
    hits = {_int(row[0]): row for row in cur.fetchall()}
    cur.execute("SELECT entry, level, kind, table_id, round_id, deal_no, spot, seat, hit_id, "
                "meter_delta_micro, reserve_delta_micro, meter_after_micro, "
                "reserve_after_micro, actor, reason FROM link_ledger WHERE link = %s "
                "ORDER BY entry", [link])
    awarded: dict[int, meters.Award] = {}
    for (entry, level, kind, table_id, round_id, deal_no, spot, seat, hit_id, dm, dr, am, ar,
         actor, reason) in cur.fetchall():
        where = f"link {link} ledger entry {entry} ({kind}, meter {level})"
        level = str(level)
        before = r.states.get(level)
        want: tuple[int, int] | None = None  # the (meter, reserve) change the replay expects
        if kind == "seed":
            if before is not None:
                r.problems.append(f"{where}: a second seed for the meter")
            want = (game.level(level).seed_cents * MICRO, 0)
            before = MeterState(0, 0)
        elif before is None:
            r.problems.append(f"{where}: comes before the meter's seed")
            before = MeterState(0, 0)
        elif kind == "contribution":
            key = (table_id, round_id, deal_no, spot, seat)
            cents = wagers.get(key)
            entered[(*key, level)] = entered.get((*key, level), 0) + 1
            if cents is None:
                r.problems.append(f"{where}: no accepted wager {key} behind it")
            else:
                lv = game.level(level)
                want = (cents * lv.contribution_ppm, cents * lv.reserve_ppm)
        elif kind == "award":
            want = _award(r, where, _opt(hit_id), hits, awarded)
        elif kind == "reset" and hit_id is not None:
            paid = awarded.get(_int(hit_id))
            if paid is None or not paid.resets or paid.after is None:
                r.problems.append(f"{where}: a reset for hit {hit_id}, which does not reset "
                                  "the meter")
            else:
                want = (paid.reset_micro, -before.reserve_micro)
        elif kind in ("reset", "adjustment"):
            if str(actor) not in r.admins or not str(reason or "").strip():
                r.problems.append(f"{where}: made by {actor}, who is not a link "
                                  "administrator, or without a reason")
            if kind == "reset":
                seed = game.level(level).seed_cents * MICRO
                want = (seed + before.reserve_micro - before.meter_micro, -before.reserve_micro)
            else:
                want = (_int(dm), _int(dr))
                if _int(dr) != 0:
                    r.problems.append(f"{where}: an adjustment moved the reserve")
        if want is not None and want != (_int(dm), _int(dr)):
            r.problems.append(f"{where}: moved the meter/reserve by {dm}/{dr}, the replay "
                              f"gives {want[0]}/{want[1]} (millionths of a cent)")
        after = MeterState(before.meter_micro + _int(dm), before.reserve_micro + _int(dr))
        r.states[level] = after
        if (after.meter_micro, after.reserve_micro) != (_int(am), _int(ar)):
            r.problems.append(f"{where}: says {am}/{ar} after, the replay gives "
                              f"{after.meter_micro}/{after.reserve_micro}")
    for key in wagers:
        for lv in game.levels:
            if entered.get((*key, lv.name), 0) != 1:
                r.problems.append(f"link {link} wager {key}: {entered.get((*key, lv.name), 0)} "
                                  f"contribution entries on meter {lv.name}, not 1")
    for hit_id, row in hits.items():
        if hit_id not in awarded:
            _check_tray_hit(r, hit_id, row)


def _award(r: _Replay, where: str, hit_id: int | None, hits: dict[int, Sequence[object]],
           awarded: dict[int, meters.Award]) -> tuple[int, int] | None:
    row = hits.get(hit_id) if hit_id is not None else None
    if row is None or hit_id is None:
        r.problems.append(f"{where}: an award with no hit behind it")
        return None
    if hit_id in awarded:
        r.problems.append(f"{where}: hit {hit_id} awarded twice")
        return None
    paid = meters.award(r.game, r.game.paytable.line(_int(row[5])), dict(r.states))
    awarded[hit_id] = paid
    _compare(r, f"link {r.link} hit {hit_id}", paid, row)
    return (-paid.from_meter_cents * MICRO, 0)


def _compare(r: _Replay, where: str, paid: meters.Award, row: Sequence[object]) -> None:
    recorded = (None if row[6] is None else str(row[6]), _int(row[7]), _int(row[8]),
                _int(row[9]), _opt(row[10]), _opt(row[11]))
    computed = (paid.level, paid.amount_cents, paid.from_meter_cents, paid.from_tray_cents,
                paid.before.meter_micro if paid.before else None,
                paid.after.meter_micro if paid.after else None)
    if recorded != computed:
        r.problems.append(f"{where}: recorded (level, amount, from meter, from tray, meter "
                          f"before, after) {recorded}, the paytable on the replayed meter "
                          f"gives {computed}")


def _check_tray_hit(r: _Replay, hit_id: int, row: Sequence[object]) -> None:
    """A hit with no ledger entry: a fixed pay from the tray, which leaves the meters alone."""
    paid = meters.award(r.game, r.game.paytable.line(_int(row[5])), dict(r.states))
    if paid.level is not None:
        r.problems.append(f"link {r.link} hit {hit_id}: pays off the meter but has no award "
                          "entry in the ledger")
        return
    _compare(r, f"link {r.link} hit {hit_id}", paid, row)
