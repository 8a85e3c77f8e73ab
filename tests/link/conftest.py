"""A real PostgreSQL for the link's tests (see ``pg_server.py``): one server for the session,
a fresh database for each test. Skipped, with the reason, only where PostgreSQL is not
installed (``installers/setup-dev.sh`` installs it)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import psycopg
import pytest

from tests.link.pg_server import PgServer, find_bin

_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    bindir = find_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (installers/setup-dev.sh installs it); the "
                    "link's tests need a real server")
    server = PgServer(bindir)
    try:
        yield server
    finally:
        server.destroy()


def new_database(pg_server: PgServer) -> str:
    """The address of a new, empty database on the test server."""
    name = f"link_test_{next(_names)}"
    with psycopg.connect(pg_server.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    return pg_server.dsn(name)


@pytest.fixture
def link_dsn(pg_server: PgServer) -> str:
    """The address of a new, empty database on the test server."""
    return new_database(pg_server)

