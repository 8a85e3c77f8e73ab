"""The link's transactions on the PostgreSQL server: games, contributions, ordered hits.

Every function takes an open connection (:func:`connect`, in autocommit mode) and runs its
writes in one explicit transaction.

- :func:`contribute` accepts a batch of a table's jackpot wagers. Each is keyed
  (link, table, round, deal, spot, seat): one already accepted is skipped, so a batch sent
  again after a lost reply or a crash adds nothing twice. The meter rises by exactly
  ``wager * rate`` millionths of a cent per wager (``meters.contribute``).
- :func:`confirm_hit` orders hits across tables: it locks the link's meter rows
  (``SELECT ... FOR UPDATE``), so of two tables confirming at once one waits; the first takes
  its award from the meter (a 100% award reseeds it with seed plus reserve, Washington
  document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 4) and the second is then paid
  from what is on the meter. The hit's meter before and after are returned for the table's
  own log, the same amounts as the server's.

Both lock the meter rows in the same order (by position), so they never deadlock.
"""

from __future__ import annotations

from collections.abc import Sequence

import psycopg

from dealer_console.jackpot import meters
from dealer_console.jackpot.config import GameConfig, JackpotMode, LevelConfig
from dealer_console.jackpot.meters import MICRO, MeterState
from dealer_console.jackpot.paytable import load
from dealer_console.link.records import LinkedHit, Owed
from dealer_console.link.settings import CONNECT_TIMEOUT_S, LinkError, LinkRefused
from dealer_console.money import format_cents

Connection = psycopg.Connection[tuple[object, ...]]


def connect(dsn: str, *, timeout_s: int = CONNECT_TIMEOUT_S, who: str = "") -> Connection:
    """A connection to the link server; an unreachable or refusing server is a
    :class:`LinkError` naming why (never the address's secrets: there are none in it).
    ``who`` (a table's name) shows in the server's ``pg_stat_activity``."""
    try:
        return psycopg.connect(dsn, connect_timeout=timeout_s, autocommit=True,
                               application_name=f"dealer-console {who}".strip()[:63])
    except psycopg.Error as exc:
        raise LinkError(f"the link server cannot be reached: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# -- games ------------------------------------------------------------------------------------


def install_game(conn: Connection, link: str, game: GameConfig, *, actor: str) -> bool:
    """Put ``game`` on the link with each meter at its seed. True if installed now; False if
    the link already holds this very game; :class:`LinkError` if it holds another."""
    if game.mode is not JackpotMode.PROGRESSIVE:
        raise LinkError(f"link {link}: only progressive jackpots are linked, never house "
                        "jackpots (Washington document, \"House Jackpot and Progressive "
                        "Jackpots\")")
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT 1 FROM link_games WHERE link = %s FOR UPDATE", [link])
        if cur.fetchone() is not None:
            _same_game(link, game_of(conn, link), game)
            return False
        cur.execute(
            "INSERT INTO link_games (link, paytable, mode, wager_cents, fixed_from_meter, "
            "executive_threshold_cents, installed_by) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            [link, game.paytable.name, game.mode.value, game.wager_cents,
             game.fixed_from_meter, game.executive_threshold_cents, actor])
        for position, lv in enumerate(game.levels):
            seed = lv.seed_cents * MICRO
            cur.execute(
                "INSERT INTO link_levels VALUES (%s, %s, %s, %s, %s, %s, %s, 0)",
                [link, lv.name, position, lv.seed_cents, lv.contribution_ppm, lv.reserve_ppm,
                 seed])
            cur.execute(
                "INSERT INTO link_ledger (link, level, kind, meter_delta_micro, "
                "reserve_delta_micro, meter_after_micro, reserve_after_micro) "
                "VALUES (%s, %s, 'seed', %s, 0, %s, 0)", [link, lv.name, seed, seed])
    return True


def game_of(conn: Connection, link: str, spot: int = 1) -> GameConfig:
    """The link's game as installed (on sensor spot ``spot`` of the asking table)."""
    with conn.cursor() as cur:
        cur.execute("SELECT paytable, mode, wager_cents, fixed_from_meter, "
                    "executive_threshold_cents FROM link_games WHERE link = %s", [link])
        row = cur.fetchone()
        if row is None:
            raise LinkError(f"link {link} is not installed on the server: run "
                            "'dealer-console link init --profile ...' first")
        cur.execute("SELECT level, seed_cents, contribution_ppm, reserve_ppm FROM link_levels "
                    "WHERE link = %s ORDER BY position", [link])
        levels = tuple(LevelConfig(str(r[0]), int(str(r[1])), int(str(r[2])), int(str(r[3])))
                       for r in cur.fetchall())
    paytable, mode, wager, from_meter, threshold = row
    return GameConfig(spot=spot, paytable=load(str(paytable)), mode=JackpotMode(str(mode)),
                      levels=levels, wager_cents=int(str(wager)),
                      fixed_from_meter=bool(from_meter),
                      executive_threshold_cents=int(str(threshold)))


def _same_game(link: str, installed: GameConfig, wanted: GameConfig) -> None:
    """Every linked table plays the same paytable (or its linked twin), wager and rates
    (Washington document, "Face Up Pai Gow Poker Jackpot": linked games use the same paytable
    and number of decks; "Linked Paytables" pairs each Face Up table with its Fortune twin): a
    table whose profile differs is refused with the differences."""
    diffs = []
    if installed.paytable.lines != wanted.paytable.lines:  # twins (FUPGPP-WA01 and
        # FPGPP-WA01) have the same lines: a Face Up and a Fortune table share one link
        diffs.append(f"paytable: link {installed.paytable.name}, table {wanted.paytable.name}")
    for what, a, b in (
                       ("wager", installed.wager_cents, wanted.wager_cents),
                       ("fixed pays off the meter", installed.fixed_from_meter,
                        wanted.fixed_from_meter),
                       ("executive threshold", installed.executive_threshold_cents,
                        wanted.executive_threshold_cents),
                       ("meters", installed.levels, wanted.levels)):
        if a != b:
            diffs.append(f"{what}: link {a}, table {b}")
    if diffs:
        raise LinkError(f"link {link} plays another game than this table's profile: "
                        + "; ".join(diffs))


def register_table(conn: Connection, link: str, table_id: str, game: GameConfig) -> None:
    """A table joins the link (or says it is back): its game must be the link's."""
    _same_game(link, game_of(conn, link, game.spot), game)
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("INSERT INTO link_tables (link, table_id) VALUES (%s, %s) "
                    "ON CONFLICT (link, table_id) DO UPDATE SET last_contact = now()",
                    [link, table_id])


def meter_states(conn: Connection, link: str, *, lock: bool = False) -> dict[str, MeterState]:
    with conn.cursor() as cur:
        cur.execute("SELECT level, meter_micro, reserve_micro FROM link_levels WHERE link = %s "
                    "ORDER BY position" + (" FOR UPDATE" if lock else ""), [link])
        return {str(r[0]): MeterState(int(str(r[1])), int(str(r[2]))) for r in cur.fetchall()}


def _move(cur: psycopg.Cursor[tuple[object, ...]], link: str, level: str, kind: str,
          meter_delta: int, reserve_delta: int, *, table_id: str | None = None,
          round_id: int | None = None, deal_no: int | None = None, spot: int | None = None,
          seat: int | None = None, hit_id: int | None = None) -> MeterState:
    cur.execute("UPDATE link_levels SET meter_micro = meter_micro + %s, "
                "reserve_micro = reserve_micro + %s WHERE link = %s AND level = %s "
                "RETURNING meter_micro, reserve_micro",
                [meter_delta, reserve_delta, link, level])
    row = cur.fetchone()
    assert row is not None
    after = MeterState(int(str(row[0])), int(str(row[1])))
    cur.execute(
        "INSERT INTO link_ledger (link, level, kind, table_id, round_id, deal_no, spot, seat, "
        "hit_id, meter_delta_micro, reserve_delta_micro, meter_after_micro, "
        "reserve_after_micro) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [link, level, kind, table_id, round_id, deal_no, spot, seat, hit_id, meter_delta,
         reserve_delta, after.meter_micro, after.reserve_micro])
    return after


# -- contributions ----------------------------------------------------------------------------


def contribute(conn: Connection, link: str, table_id: str, batch: Sequence[Owed]) -> int:
    """Accept a table's owed wagers (one transaction); returns how many were new."""
    game = game_of(conn, link)
    accepted = 0
    with conn.transaction(), conn.cursor() as cur:
        meter_states(conn, link, lock=True)
        cur.execute("INSERT INTO link_tables (link, table_id) VALUES (%s, %s) "
                    "ON CONFLICT (link, table_id) DO UPDATE SET last_contact = now()",
                    [link, table_id])
        for owed in batch:
            if owed.wager_cents != game.wager_cents:
                raise LinkError(f"table {table_id} round {owed.round_id} seat {owed.seat}: a "
                                f"wager of {owed.wager_cents} cents, but link {link} takes "
                                f"{game.wager_cents}")
            cur.execute(
                "INSERT INTO link_contributions (link, table_id, round_id, deal_no, spot, seat, "
                "wager_cents, taken_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING RETURNING 1",
                [link, table_id, owed.round_id, owed.deal_no, owed.spot, owed.seat,
                 owed.wager_cents, owed.taken_at])
            if cur.fetchone() is None:
                continue  # delivered before: the key makes a resend harmless
            accepted += 1
            for lv in game.levels:
                _move(cur, link, lv.name, "contribution",
                      owed.wager_cents * lv.contribution_ppm, owed.wager_cents * lv.reserve_ppm,
                      table_id=table_id, round_id=owed.round_id, deal_no=owed.deal_no,
                      spot=owed.spot, seat=owed.seat)
    return accepted


# -- hits -------------------------------------------------------------------------------------

_HIT_COLUMNS = ("hit_id, table_id, round_id, spot, seat, line_no, line_label, level, "
                "amount_cents, from_meter_cents, from_tray_cents, meter_before_micro, "
                "meter_after_micro, employee_id, "
                "to_char(confirmed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')")


def _hit(row: Sequence[object], link: str) -> LinkedHit:
    def num(v: object) -> int | None:
        return None if v is None else int(str(v))

    return LinkedHit(int(str(row[0])), str(row[1]), int(str(row[2])), int(str(row[3])),
                     int(str(row[4])), int(str(row[5])), str(row[6]),
                     None if row[7] is None else str(row[7]), int(str(row[8])),
                     int(str(row[9])), int(str(row[10])), num(row[11]), num(row[12]),
                     str(row[13]), str(row[14]), link)


def quote(conn: Connection, link: str, line_no: int) -> meters.Award:
    """What ``line_no`` would pay on the linked meter now (the amount decides whose card)."""
    game = game_of(conn, link)
    return meters.award(game, game.paytable.line(line_no), meter_states(conn, link))


def confirm_hit(conn: Connection, link: str, table_id: str, *, round_id: int, spot: int,
                seat: int, line_no: int, employee_id: str,
                most_cents: int | None = None) -> LinkedHit:
    """Pay a confirmed hit from the linked meter, in the server's order (see the module doc).

    Asked again for the same (table, round, spot, seat) it returns the hit already recorded
    (a table that lost the reply, or crashed after the server's commit, learns the same
    amounts), never a second award. ``most_cents`` is the largest award the confirming card
    may confirm: the shared meter may have risen past the executive's threshold since the
    table quoted it, and such an award is refused (:class:`LinkRefused`), nothing paid."""
    game = game_of(conn, link, spot)
    line = game.paytable.line(line_no)
    with conn.transaction(), conn.cursor() as cur:
        states = meter_states(conn, link, lock=True)  # the order: first to lock is first paid
        cur.execute(f"SELECT {_HIT_COLUMNS} FROM link_hits WHERE link = %s AND table_id = %s "
                    "AND round_id = %s AND spot = %s AND seat = %s",
                    [link, table_id, round_id, spot, seat])
        found = cur.fetchone()
        if found is not None:
            return _hit(found, link)
        cur.execute("SELECT 1 FROM link_contributions WHERE link = %s AND table_id = %s AND "
                    "round_id = %s AND spot = %s AND seat = %s",
                    [link, table_id, round_id, spot, seat])
        if cur.fetchone() is None:
            raise LinkRefused(f"table {table_id} round {round_id} seat {seat}: the link has "
                              "not received this seat's jackpot wager yet; wait a moment and "
                              "swipe again")
        result = meters.award(game, line, states)
        if most_cents is not None and result.amount_cents > most_cents:
            raise LinkRefused(f"the shared meter has moved: {line.label} now pays "
                              f"{format_cents(result.amount_cents)}, more than this card may "
                              "confirm; an executive's card is needed")
        cur.execute(
            "INSERT INTO link_hits (link, table_id, round_id, spot, seat, line_no, line_label, "
            "level, amount_cents, from_meter_cents, from_tray_cents, meter_before_micro, "
            "meter_after_micro, employee_id) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            f"RETURNING {_HIT_COLUMNS}",
            [link, table_id, round_id, spot, seat, line_no, line.label, result.level,
             result.amount_cents, result.from_meter_cents, result.from_tray_cents,
             result.before.meter_micro if result.before else None,
             result.after.meter_micro if result.after else None, employee_id])
        row = cur.fetchone()
        assert row is not None
        hit = _hit(row, link)
        if result.level is not None and result.after_award is not None:
            _move(cur, link, result.level, "award", -result.from_meter_cents * MICRO, 0,
                  table_id=table_id, round_id=round_id, spot=spot, seat=seat,
                  hit_id=hit.hit_id)
            if result.resets:
                _move(cur, link, result.level, "reset", result.reset_micro,
                      -result.after_award.reserve_micro, table_id=table_id,
                      round_id=round_id, spot=spot, seat=seat, hit_id=hit.hit_id)
    return hit


def hits(conn: Connection, link: str) -> list[LinkedHit]:
    """Every hit on the link in the server's order, with the table each was on."""
    with conn.cursor() as cur:
        cur.execute(f"SELECT {_HIT_COLUMNS} FROM link_hits WHERE link = %s ORDER BY hit_id",
                    [link])
        return [_hit(r, link) for r in cur.fetchall()]
