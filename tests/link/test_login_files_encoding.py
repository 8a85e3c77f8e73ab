"""The credentials files ``link add-table`` and ``pit add-login`` write are UTF-8, whatever the
machine's own text encoding: libpq compares the database name in the file byte for byte with
the server's, which is UTF-8. Written in the machine's encoding (a Windows code page), a
database named outside ASCII made a file no login could use, or stopped the command after
the login was made. Here the commands run under an ASCII locale, Python's stand-in for such
a code page, with the address percent-encoded (ASCII) as a technician might type it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest

from dealer_link import server
from dealer_link.pit.sql import PIT_ROLE
from tests.link.helpers import LINK, linked_game
from tests.link.pg_server import PgServer
from tests.pit.helpers import init_pit

NAME = "link_café_{}"
CLI = [sys.executable, "-m", "dealer_console.cli"]


def ascii_locale() -> dict[str, str]:
    """The environment of a machine whose text encoding is not UTF-8."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LC_ALL="C", PYTHONCOERCECLOCALE="0", PYTHONUTF8="0")
    return env


@pytest.fixture
def cafe(pg_server: PgServer, tmp_path: Path) -> tuple[str, str]:
    """A link database named outside ASCII, the pit's schema on it: (its name, its address
    as a percent-encoded URI)."""
    name = NAME.format(tmp_path.name[-6:].replace("-", "_"))
    with psycopg.connect(pg_server.dsn(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"'.encode())
    dsn = (f"postgresql:///{quote(name)}?host={quote(str(pg_server.root))}"
           f"&user={pg_server.user}&passfile={quote(str(pg_server.passfile))}")
    init_pit(dsn).close()
    return name, dsn


def test_the_commands_run_where_text_is_not_utf8() -> None:
    probe = subprocess.run([sys.executable, "-c", "import locale; print(locale.getencoding())"],
                           env=ascii_locale(), capture_output=True, text=True, check=True)
    assert probe.stdout.strip() in ("ANSI_X3.4-1968", "ascii", "US-ASCII"), probe.stdout


def test_a_table_login_file_works_on_a_database_named_outside_ascii(
        cafe: tuple[str, str], tmp_path: Path) -> None:
    name, dsn = cafe
    credentials = tmp_path / "t1.pgpass"
    done = subprocess.run([*CLI, "link", "add-table", "t1", "--credentials", str(credentials),
                           "--login", "cafe-t1", "--link", LINK, "--reason", "a new table",
                           "--dsn", dsn], env=ascii_locale(), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert f":{name}:cafe-t1:".encode() in credentials.read_bytes()
    table = server.connect(psycopg.conninfo.make_conninfo(dsn, user="cafe-t1",
                                                          passfile=str(credentials)))
    try:
        server.register_table(table, LINK, "t1", linked_game())
    finally:
        table.close()


def test_a_pit_login_file_works_on_a_database_named_outside_ascii(
        cafe: tuple[str, str], tmp_path: Path) -> None:
    name, dsn = cafe
    credentials = tmp_path / "pit.pgpass"
    env = {**ascii_locale(), "DEALER_CONSOLE_LINK_DSN": dsn}
    done = subprocess.run([*CLI, "pit", "add-login", "cafe-pit", "--credentials",
                           str(credentials)], env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert f":{name}:cafe-pit:".encode() in credentials.read_bytes()
    with psycopg.connect(psycopg.conninfo.make_conninfo(dsn, user="cafe-pit",
                                                        passfile=str(credentials))) as pit:
        assert pit.execute("SELECT current_user").fetchone() == ("cafe-pit",)
        assert PIT_ROLE in {str(r[0]) for r in pit.execute(
            "SELECT b.rolname FROM pg_auth_members m JOIN pg_roles b ON b.oid = m.roleid"
            " JOIN pg_roles u ON u.oid = m.member WHERE u.rolname = current_user")}
