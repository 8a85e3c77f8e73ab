"""A linked game and tables for the link's tests."""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from sqlite_utils import Database

from dealer_console.jackpot import games
from dealer_console.jackpot.system import JackpotSystem
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot_values.link_records import HitAnswer, Owed
from dealer_console.jackpot_values.paytable import load
from dealer_console.link.health import LinkHealth
from dealer_console.link.health import now as taken_now
from dealer_console.link.hook import LinkHook
from dealer_console.profiles.loader import PROFILE_DIR, get_profile, load_profile
from dealer_console.profiles.model import Profile
from dealer_console.round import commands as c
from dealer_console.round.rules import round_rules
from dealer_console.round.table import Table
from dealer_console.table_db import open_table_db
from dealer_link import admin, server, server_schema
from dealer_link.asker import HitAsker
from dealer_link.audit import verify
from dealer_link.pit import server as pit_server
from dealer_link.sender import OutboxSender
from tests.jackpot.conftest import CARDS, add_staff
from tests.link.pg_server import PgServer
from tests.round.helpers import deal, hands_with, set_all_house_way

LINK = "wa-link"
SEED = 1000_00
SEVEN_SF = "2c 3c 4c 5c 6c 7c 8c"
"""A natural seven-card straight flush: line 1 of FUPGPP-WA01, 100% of the main meter."""
FULL_HOUSE = "Kd Ks Kh 9c 9d 2s 4h"
"""Line 8, a fixed 6 for 1 from the tray."""


def linked_game() -> GameConfig:
    pt = load("fupgpp-wa01")
    return GameConfig(
        spot=1, paytable=pt, mode=JackpotMode.PROGRESSIVE, executive_threshold_cents=10**9,
        levels=level_configs(pt, {lv: {"seed": "$1,000", "contribution": "15%",
                                       "reserve": "2%"} for lv in pt.levels}),
        linked=LINK)


CONFIRMERS = (("S1", "Sam Super", "supervisor"), ("X1", "Ella Exec", "executive"),
              ("SIM-S1", "Sim Supervisor", "supervisor"),
              ("SIM-X1", "Sim Executive", "executive"))
"""Who may confirm a linked jackpot on the tests' links (the link's own list): the staff of
``tests/jackpot/conftest.add_staff`` and of the simulated table."""


def add_confirmers(conn: server.Connection) -> None:
    for employee_id, name, role in CONFIRMERS:
        admin.set_confirmer(conn, employee_id, name, role, reason="the tests' staff")


def init_link(dsn: str) -> server.Connection:
    """The link installed (by the administrator's login, ``dsn``) with its confirmers; the
    administrator's connection."""
    conn = server.connect(dsn)
    server_schema.apply(conn)
    server.install_game(conn, LINK, linked_game(), actor="test")
    add_confirmers(conn)
    return conn


def older_link(dsn: str, before: str) -> server.Connection:
    """The administrator's connection to a link database as a console before migration
    ``before`` left it: every migration up to it applied, and recorded."""
    conn = server.connect(dsn)
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("CREATE TABLE link_migrations (name text PRIMARY KEY, applied_at "
                    "timestamptz NOT NULL DEFAULT now())")
        for name, step in server_schema.MIGRATIONS:
            if name == before:
                break
            step(cur)
            cur.execute("INSERT INTO link_migrations (name) VALUES (%s)", [name])
    return conn


def table_dsn(admin_dsn: str, table_id: str, links: Sequence[str] | None = None) -> str:
    """The address of ``table_id``'s own login on the link at ``admin_dsn``, made (once) by
    its administrator with ``link add-table``'s function and put on ``links`` (default:
    every link installed then); its credentials file beside the test server's. The login's
    name carries the database's (logins are the whole server's; each test has a database of
    its own)."""
    params = conninfo_to_dict(admin_dsn)
    dbname = str(params["dbname"])
    login = f"{dbname}-{table_id}"[:63]
    credentials = Path(str(params["passfile"])).parent / f"{login}.pgpass"
    if not credentials.exists():
        with server.connect(admin_dsn) as conn:
            if links is None:
                links = [str(r[0]) for r in server.call(
                    conn, "SELECT link FROM link_games ORDER BY link", [])]
            admin.add_table(conn, table_id, credentials, login=login, links=links,
                            reason="a test's table")
    return make_conninfo(admin_dsn, user=login, passfile=str(credentials))


def as_table(admin_dsn: str, table_id: str) -> server.Connection:
    """A connection with ``table_id``'s own login (what its sender and asker use)."""
    return server.connect(table_dsn(admin_dsn, table_id), who=table_id)


def linked_table(path: Path, table_id: str, health: LinkHealth
                 ) -> tuple[Table, JackpotSystem, Database]:
    db = open_table_db(path)
    games.install_game(db, linked_game(), actor="test")
    system = JackpotSystem(db, LinkHook({1: LINK}, table_id, health))
    table = Table.open(db, round_rules(get_profile("washington-face-up"), None, None),
                       jackpot=system)
    return table, system, db


def serve_linked_profile(folder: Path, link: str, dsn: str, *, other_table: str,
                         wagers: int) -> tuple[Profile, GameConfig, server.Connection]:
    """The linked Washington profile (``linked_profile_file``), its game installed on the
    server at ``dsn``, and ``wagers`` jackpot wagers of ``other_table`` on it already (the
    shared meter moved by a table other than the one under test)."""
    profile = load_profile(linked_profile_file(folder, link))
    assert profile.jackpots is not None
    game = profile.jackpots.games[0]
    conn = server.connect(dsn)
    server_schema.apply(conn)
    server.install_game(conn, link, game, actor="test")
    add_confirmers(conn)
    owed = [Owed(r, 1, 1, 1, game.wager_cents, taken_now())
            for r in range(1, wagers + 1)]
    with as_table(dsn, other_table) as other:
        assert server.contribute(other, link, other_table, owed) == wagers
    return profile, game, conn


def linked_profile_file(folder: Path, link: str) -> Path:
    """The shipped Washington profile with its jackpot a progressive on ``link``."""
    text = (PROFILE_DIR / "washington-face-up.toml").read_text()
    text = text.replace('name = "washington-face-up"', 'name = "linked-wa"')
    text = text.replace('mode = "house"', f'mode = "progressive"\nlinked = "{link}"')
    path = folder / "linked-wa.toml"
    path.write_text(text)
    return path


@dataclass
class LinkedTable:
    table_id: str
    path: Path
    db: Database
    table: Table
    system: JackpotSystem
    hook: LinkHook
    sender: OutboxSender
    answers: queue.SimpleQueue[HitAnswer]

    def answer(self) -> HitAnswer:
        """The server's next answer (the asker's thread puts it here)."""
        return self.answers.get(timeout=30)

    def close(self) -> None:
        self.hook.close()
        self.sender._close()
        self.db.close()


def open_linked(path: Path, table_id: str, dsn: str) -> LinkedTable:
    """``table_id`` on the link at ``dsn`` (the administrator's address) with its own login."""
    dsn = table_dsn(dsn, table_id)
    db = open_table_db(path)
    if not games.spots(db):
        games.install_game(db, linked_game(), actor="test")
        add_staff(db)
    health = LinkHealth()
    hook = LinkHook({1: LINK}, table_id, health, HitAsker(dsn, table_id))
    answers: queue.SimpleQueue[HitAnswer] = queue.SimpleQueue()
    hook.answers_to(answers.put)  # the controller queues them for its owner thread the same
    system = JackpotSystem(db, hook)
    table = Table.open(db, round_rules(get_profile("washington-face-up"), None, None),
                       jackpot=system)
    sender = OutboxSender(path, link=LINK, table_id=table_id, dsn=dsn, game=linked_game(),
                          health=health)
    return LinkedTable(table_id, path, db, table, system, hook, sender, answers)


def play_to_hit(t: LinkedTable, hand: str, *, deliver: bool = True) -> None:
    """A round with jackpot wagers on seats 1-3 and ``hand`` dealt to seat 3, set and
    settled; the wagers delivered to the link (and its meters read back) when ``deliver``."""
    if deliver:
        t.sender.drain_once()  # the link answers: it is up
    else:
        t.hook.health.up(0)
    for seat in (1, 2, 3):
        t.table.handle(c.PlaceWager(seat, "base", 2000))
        t.table.handle(c.PlaceWager(seat, "jackpot", 100))
    t.table.handle(c.StartGame())
    if deliver:
        t.sender.drain_once()
    else:
        t.hook.health.set_meters(LINK, {"main": games.meter_states(t.db, 1)["main"]})
    t.table.handle(c.SetActionNumber(2))
    deal(t.table, hands_with({2: hand}))
    t.table.handle(c.RemainingCards(4))
    set_all_house_way(t.table)
    assert [p.mark.seat for p in t.system.marks(t.table.state)] == [3]


LINK_TABLES = ("link_games", "link_levels", "link_lines", "link_tables", "link_contributions",
               "link_hits", "link_ledger", "link_table_logins", "link_confirmers",
               "link_admin_log", "link_card_passes", "link_table_links",
               "link_settings_history")


def link_state(conn: server.Connection) -> dict[str, list[str]]:
    """Every row of every link table, and the sequences: the link as it stands."""
    out = {t: [str(r[0]) for r in conn.execute(
        f"SELECT x::text FROM {t} x ORDER BY 1".encode()).fetchall()] for t in LINK_TABLES}
    out["sequences"] = [str(r[0]) for r in conn.execute(
        b"SELECT last_value::text FROM link_hits_hit_id_seq UNION ALL "
        b"SELECT last_value::text FROM link_ledger_entry_seq").fetchall()]
    return out


def refused_and_unchanged(conn: server.Connection, attack: Callable[[], object],
                          error: type[BaseException] | tuple[type[BaseException], ...],
                          match: str) -> None:
    """``attack`` (by a table's own login) is refused with ``match`` in its words, and the
    link is exactly as it was, its audit clean."""
    before = link_state(conn)
    with pytest.raises(error, match=match):
        attack()
    assert link_state(conn) == before
    assert verify(conn) == []


def casino_staff(conn: server.Connection) -> None:
    """The casino's staff list on the server with the tables' test cards: the executive put
    on by the administrator, the supervisor and a dealer on the executive's card."""
    assert pit_server.apply(conn) is True
    pit_server.set_staff(conn, executive_track=None, employee_id="X1", name="Ella Exec",
                  role="executive", card_track=CARDS["executive"], enabled=True,
                  reason="the casino's first executive")
    for employee, name, role, key in (("S1", "Sam Super", "supervisor", "supervisor"),
                                      ("D1", "Dee Dealer", "dealer", "dealer")):
        pit_server.set_staff(conn, executive_track=CARDS["executive"], employee_id=employee,
                      name=name, role=role, card_track=CARDS[key], enabled=True,
                      reason="hired")


def auditor_dsn(conn: psycopg.Connection[tuple[object, ...]], pg_server: PgServer,
                link_dsn: str) -> str:
    """The address of a new login of the link's auditor role on ``link_dsn``'s database
    (``conn``: the owner's connection there)."""
    dbname = link_dsn.rsplit("dbname=", 1)[1].split()[0]
    aud = f"{dbname}-aud"
    conn.execute(f'CREATE ROLE "{aud}" LOGIN PASSWORD \'aud-secret\' '
                 'IN ROLE dealer_link_auditor'.encode())
    pg_server.add_password(aud, "aud-secret")
    return pg_server.dsn(dbname, user=aud)
