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

Both lock the meter rows in the same order (by position), so they never deadlock, and
each is one call of a server-side function (``server_trust.py``): the meters are locked for
that one statement, never across round trips. A table's identity is its login's; the name it
passes is only checked against it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

import psycopg
from psycopg.conninfo import make_conninfo

from dealer_console.jackpot_values import meters
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, LevelConfig
from dealer_console.jackpot_values.link_records import LinkedHit, Owed
from dealer_console.jackpot_values.meters import MeterState
from dealer_console.jackpot_values.paytable import load
from dealer_link.server_trust import REFUSED, line_values
from dealer_link.settings import CONNECT_TIMEOUT_S, LinkError, LinkRefused

Connection = psycopg.Connection[tuple[object, ...]]


_KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
               "keepalives_count": 3, "tcp_user_timeout": 10_000}
"""A server gone silent (a frozen network, a dead host) is noticed in about 10 s, not the
system's two hours (libpq's TCP settings; a Unix socket has no need of them)."""


def connect(dsn: str, *, timeout_s: int = CONNECT_TIMEOUT_S, who: str = "",
            statement_timeout_s: float | None = None) -> Connection:
    """A connection to the link server; an unreachable or refusing server is a
    :class:`LinkError` naming why (never the address's secrets: there are none in it).
    ``who`` (a table's name) shows in the server's ``pg_stat_activity``;
    ``statement_timeout_s`` bounds every statement (a hung server is an error, not a wait)."""
    try:
        conn = psycopg.connect(make_conninfo(dsn, **_KEEPALIVES), connect_timeout=timeout_s,
                               autocommit=True,
                               application_name=f"dealer-console {who}".strip()[:63])
        if statement_timeout_s is not None:
            conn.execute(f"SET statement_timeout = {int(statement_timeout_s * 1000)}".encode())
        return conn
    except psycopg.Error as exc:
        raise LinkError(f"the link server cannot be reached: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


_REFUSALS = (REFUSED, "42501")  # the link's own refusal; a login without the right


def call(conn: Connection, query: str, params: Sequence[object]) -> list[tuple[object, ...]]:
    """Run one statement (a server-side function); the server's refusal (nothing written)
    is a :class:`LinkRefused` in its own words, anything else the driver's error."""
    try:
        with conn.cursor() as cur:
            cur.execute(query.encode(), list(params))
            return cur.fetchall() if cur.description is not None else []
    except psycopg.Error as exc:
        if exc.sqlstate in _REFUSALS:
            raise LinkRefused(exc.diag.message_primary or _first_line(exc)) from None
        raise


# -- games ------------------------------------------------------------------------------------


def install_game(conn: Connection, link: str, game: GameConfig, *, actor: str,
                 reason: str = "") -> bool:
    """Put ``game`` on the link with each meter at its seed (a link administrator's login
    only). True if installed now; False if the link already holds this very game;
    :class:`LinkError` if it holds another."""
    if game.mode is not JackpotMode.PROGRESSIVE:
        raise LinkError(f"link {link}: only progressive jackpots are linked, never house "
                        "jackpots (Washington document, \"House Jackpot and Progressive "
                        "Jackpots\")")
    if call(conn, "SELECT 1 FROM link_game(%s)", [link]):
        _same_game(link, game_of(conn, link), game)
        return False
    levels = [{"level": lv.name, "position": i, "seed_cents": lv.seed_cents,
               "contribution_ppm": lv.contribution_ppm, "reserve_ppm": lv.reserve_ppm}
              for i, lv in enumerate(game.levels)]
    lines = []
    for number, line in enumerate(game.paytable.lines, 1):
        level, num, den, for_one = line_values(line.pay)
        lines.append({"line_no": number, "label": line.label, "level": level,
                      "percent_num": num, "percent_den": den, "for_one": for_one})
    call(conn, "SELECT link_install_game(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
         [link, game.paytable.name, game.wager_cents, game.fixed_from_meter,
          game.paytable.levels[-1], game.executive_threshold_cents,
          game.two_person_above_cents, json.dumps(levels), json.dumps(lines),
          reason or f"installed by {actor}, its meters at their seeds"])
    return True


def game_of(conn: Connection, link: str, spot: int = 1) -> GameConfig:
    """The link's game as installed (on sensor spot ``spot`` of the asking table)."""
    rows = call(conn, "SELECT paytable, mode, wager_cents, fixed_from_meter, "
                "executive_threshold_cents, two_person_above_cents FROM link_game(%s)", [link])
    if not rows:
        raise LinkError(f"link {link} is not installed on the server: run "
                        "'dealer-console link init --profile ...' first")
    levels = tuple(LevelConfig(str(r[0]), int(str(r[1])), int(str(r[2])), int(str(r[3])))
                   for r in call(conn, "SELECT level, seed_cents, contribution_ppm, "
                                 "reserve_ppm FROM link_meters(%s)", [link]))
    paytable, mode, wager, from_meter, threshold, two = rows[0]
    return GameConfig(spot=spot, paytable=load(str(paytable)), mode=JackpotMode(str(mode)),
                      levels=levels, wager_cents=int(str(wager)),
                      fixed_from_meter=bool(from_meter),
                      executive_threshold_cents=int(str(threshold)),
                      two_person_above_cents=None if two is None else int(str(two)))


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
                       ("two-person level", installed.two_person_above_cents,
                        wanted.two_person_above_cents),
                       ("meters", installed.levels, wanted.levels)):
        if a != b:
            diffs.append(f"{what}: link {a}, table {b}")
    if diffs:
        raise LinkError(f"link {link} plays another game than this table's profile: "
                        + "; ".join(diffs))


@dataclass(frozen=True, slots=True)
class Hello:
    """What the server holds of a table, told when the table (re)connects."""

    held: int
    """How many of the table's wagers the server has accepted."""
    went_back: str | None
    """Set when the server has gone back in time (the table recorded a hit number the
    server never reached): in plain words, for the supervisor and the link administrator."""


def register_table(conn: Connection, link: str, table_id: str, game: GameConfig, *,
                   seen_hit: int | None = None) -> Hello:
    """A table joins the link (or says it is back): its game must be the link's, and
    ``table_id`` the table its login was made for. ``seen_hit`` is the highest hit number
    the table has recorded from this link: the server's numbers go on after it."""
    _same_game(link, game_of(conn, link, game.spot), game)
    return hello(conn, link, table_id, seen_hit)


def hello(conn: Connection, link: str, table_id: str, seen_hit: int | None = None) -> Hello:
    """The table's last contact is now (``link status``); what the server holds of it."""
    row = call(conn, "SELECT held, went_back FROM link_hello(%s, %s, %s)",
               [link, table_id, seen_hit])[0]
    return Hello(int(str(row[0])), None if row[1] is None else str(row[1]))


def claim(conn: Connection, link: str, table_id: str) -> None:
    """Hold ``table_id``'s place on ``link`` for this connection's life: a second console
    with the same name is refused (:class:`LinkRefused`) while this one is connected."""
    call(conn, "SELECT link_claim(%s, %s)", [link, table_id])


def touch(conn: Connection, link: str, table_id: str) -> None:
    """The table's last contact is now (``link status``): its sender's idle pass."""
    call(conn, "SELECT link_touch(%s, %s)", [link, table_id])


def meter_states(conn: Connection, link: str) -> dict[str, MeterState]:
    return {str(r[0]): MeterState(int(str(r[1])), int(str(r[2]))) for r in call(
        conn, "SELECT level, meter_micro, reserve_micro FROM link_meters(%s)", [link])}


# -- contributions ----------------------------------------------------------------------------


def contribute(conn: Connection, link: str, table_id: str, batch: Sequence[Owed]) -> int:
    """Accept a table's owed wagers (one server-side call, one transaction); returns how
    many were new. ``table_id`` must be the login's table."""
    rows = call(conn, "SELECT link_contribute(%s, %s, %s::bigint[], %s::integer[], "
                "%s::integer[], %s::integer[], %s::bigint[], %s::text[])",
                [link, table_id, [o.round_id for o in batch], [o.deal_no for o in batch],
                 [o.spot for o in batch], [o.seat for o in batch],
                 [o.wager_cents for o in batch], [o.taken_at for o in batch]])
    return int(str(rows[0][0]))


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
                most_cents: int | None = None,
                second_employee_id: str | None = None,
                passes: tuple[str | None, str | None] = (None, None)) -> LinkedHit:
    """Pay a confirmed hit from the linked meter, in the server's order (see the module doc).

    The server computes the award from its own meter and paytable lines and checks the
    confirmers against its list and the game's threshold and two-person level; a refusal is
    :class:`LinkRefused`, nothing paid. Asked again for the same (table, round, spot, seat) it
    returns the hit already recorded (a table that lost the reply, or crashed after the
    server's commit, learns the same amounts), never a second award. ``most_cents`` (the
    most the table thinks the card may confirm) can only narrow what the server allows.
    ``passes``: each confirmer's pass from :func:`present_card`, which a link that reads the
    cards itself needs (``server_cards.py``)."""
    rows = call(conn, f"SELECT {_HIT_COLUMNS} FROM link_confirm_hit(%s, %s, %s, %s, %s, %s, "
                "%s, %s, %s, %s, %s)", [link, table_id, round_id, spot, seat, line_no,
                                        employee_id, second_employee_id, most_cents, *passes])
    return _hit(rows[0], link)


@dataclass(frozen=True)
class CardPass:
    """The server's reading of a card swiped for a linked hit: whose it is and the pass that
    lets the hit be paid on it (both None when the link does not read the cards itself)."""

    employee_id: str | None
    passed: str | None = field(default=None, repr=False)


def present_card(conn: Connection, link: str, table_id: str, track: str) -> CardPass:
    """Hand the server a card swiped for a hit on ``link``: it reads it against the casino's
    staff list (a refusal is :class:`LinkRefused`, written down on the server and counted
    towards the login's lock on card attempts)."""
    [(needed, employee, passed, refusal)] = call(
        conn, "SELECT * FROM link_present_card(%s, %s, %s)", [link, table_id, track_of(track)])
    if refusal is not None:
        raise LinkRefused(str(refusal))
    if not needed:
        return CardPass(None)
    return CardPass(str(employee), str(passed))


def end_stuck(conn: Connection, link: str) -> str | None:
    """After a statement timed out waiting on the link: the server ends any table's connection
    that holds the link's locks in a transaction it does not end (``server_stuck.py``), and
    says what it ended (None: nothing was stuck)."""
    [(said,)] = call(conn, "SELECT link_end_stuck(%s)", [link])
    return None if said is None else str(said)


def reads_cards(conn: Connection, link: str) -> bool:
    """Whether ``link`` reads a hit's cards itself (``link cards-on-server``), asked without
    any card. False on a server from before migration ``0005_cards_on_server`` (a console may
    meet one not yet brought up to date, and then asks as before)."""
    [(present,)] = call(conn, "SELECT to_regprocedure('link_reads_cards(text)') IS NOT NULL",
                        [])
    if not present:
        return False
    [(reads,)] = call(conn, "SELECT link_reads_cards(%s)", [link])
    return bool(reads)


def track_of(swiped: str) -> str:
    """A card's data as every reader gives it: without the start and end sentinels (``;``,
    ``?``) a keyboard reader types around it, as ``employees`` reads a card."""
    track = swiped.strip()
    track = track[1:] if track.startswith(";") else track
    return track[:-1] if track.endswith("?") else track


def hits(conn: Connection, link: str) -> list[LinkedHit]:
    """Every hit on the link in the server's order, with the table each was on."""
    return [_hit(r, link) for r in call(
        conn, f"SELECT {_HIT_COLUMNS} FROM link_hits_of(%s) ORDER BY hit_id", [link])]
