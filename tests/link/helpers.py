"""A linked game and tables for the link's tests."""

from __future__ import annotations

from pathlib import Path

from sqlite_utils import Database

from dealer_console.jackpot import store
from dealer_console.jackpot.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot.paytable import load
from dealer_console.jackpot.round_hook import JackpotSystem
from dealer_console.link import server, server_schema
from dealer_console.link.hook import LinkHook
from dealer_console.link.sender import LinkHealth
from dealer_console.profiles.loader import PROFILE_DIR, get_profile
from dealer_console.round.rules import round_rules
from dealer_console.round.table import Table
from dealer_console.storage.connection import open_table_db

LINK = "wa-link"
SEED = 1000_00


def linked_game() -> GameConfig:
    pt = load("fupgpp-wa01")
    return GameConfig(
        spot=1, paytable=pt, mode=JackpotMode.PROGRESSIVE, executive_threshold_cents=10**9,
        levels=level_configs(pt, {lv: {"seed": "$1,000", "contribution": "15%",
                                       "reserve": "2%"} for lv in pt.levels}),
        linked=LINK)


def init_link(dsn: str) -> server.Connection:
    conn = server.connect(dsn)
    server_schema.apply(conn)
    server.install_game(conn, LINK, linked_game(), actor="test")
    return conn


def linked_table(path: Path, table_id: str, health: LinkHealth
                 ) -> tuple[Table, JackpotSystem, Database]:
    db = open_table_db(path)
    store.install_game(db, linked_game(), actor="test")
    system = JackpotSystem(db, LinkHook({1: LINK}, table_id, health))
    table = Table.open(db, round_rules(get_profile("washington-face-up"), None, None),
                       jackpot=system)
    return table, system, db


def linked_profile_file(folder: Path, link: str) -> Path:
    """The shipped Washington profile with its jackpot a progressive on ``link``."""
    text = (PROFILE_DIR / "washington-face-up.toml").read_text()
    text = text.replace('name = "washington-face-up"', 'name = "linked-wa"')
    text = text.replace('mode = "house"', f'mode = "progressive"\nlinked = "{link}"')
    path = folder / "linked-wa.toml"
    path.write_text(text)
    return path
