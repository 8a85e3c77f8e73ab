"""The composition root of a table database: the one list of the migration sets it holds (the
table's own, the staff registry's, the jackpot's, the link's outbox and test mode's), handed
to storage, which imports none of the packages that own them. Everything that opens a table
database opens it here, so no file is ever checked or migrated against part of the list.
"""

from __future__ import annotations

from pathlib import Path

from dealer_console.employees.registry import MIGRATIONS as EMPLOYEES
from dealer_console.jackpot.schema import MIGRATIONS as JACKPOT
from dealer_console.link.outbox import MIGRATIONS as LINK_OUTBOX
from dealer_console.storage import connection
from dealer_console.storage.connection import TableDatabase
from dealer_console.storage.identity import Schema
from dealer_console.storage.schema import MIGRATIONS as TABLE
from dealer_console.storage.service_log import MIGRATIONS as TEST_MODE

SCHEMA = Schema((TABLE, EMPLOYEES, JACKPOT, LINK_OUTBOX, TEST_MODE))
"""Every migration set of a table database, in the order they are applied; a new set is
added here."""


def open_table_db(path: str | Path, *, create: bool = True) -> TableDatabase:
    """A table database opened for a table, its schema brought up to date
    (:func:`dealer_console.storage.connection.open_table_db`)."""
    return connection.open_table_db(path, SCHEMA, create=create)


def open_for_reading(path: str | Path, *, full_check: bool = False) -> TableDatabase:
    """A table database opened read-only for recall, audit and reports
    (:func:`dealer_console.storage.connection.open_for_reading`)."""
    return connection.open_for_reading(path, SCHEMA, full_check=full_check)


def check_table_file(path: str | Path) -> None:
    """Refuse now what :func:`open_table_db` without ``create`` would refuse later."""
    connection.check_table_file(path, SCHEMA)


def schema_version() -> int:
    """What a database fully upgraded by this console holds in ``user_version``."""
    return SCHEMA.version()
