"""Holding a table database's schema to what its migrations make.

The event log and the settlement lines are guarded inside the file by triggers (append-only,
no replacing insert) and by checks in each table's definition; the queries the self-test and
the audits run lean on its indexes. Anyone who can write the file can drop a trigger, rewrite a
table without its checks, or add a trigger of their own that changes what the console writes
after it writes it: dropping ``events_no_update`` once left the power-on self-test passing.
So the schema SQLite holds is compared with the one a new database gets from the same
migrations, built in memory once a process (about 11 ms):

- every table, index and trigger the migrations make must be there, defined as they define it
  (in whatever spacing and quoting an SQLite release wrote it: ``_normal``);
- no trigger may be there that they do not make (a trigger acts on the console's writes);
- an extra table, index or view is left alone: none of them can change what the console
  writes, and a later release's migration an earlier console may ignore
  (``compat.OLDER_MAY_OPEN``: an index, a table of its own) adds exactly those.

A later release's migration may also add a nullable column to a table (``compat``), which
changes that table's definition: SQLite writes the new column at the end of it. Only when the
database records a migration this console does not know is a table whose definition differs
accepted, and only when it is this console's definition with columns added at its end, every
column this console defines still there with the same type, default, NOT NULL and key.
``docs/storage.md`` says so for auditors.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from sqlite_utils import Database

from dealer_console.storage import compat
from dealer_console.storage.identity import Schema

_KINDS = ("table", "index", "trigger")
_OWN = "_sqlite_migrations"
"""sqlite-utils' own record of the applied migrations: made by the library, whose wording of
it may change with its version, and held by the migration check itself."""

Entry = tuple[str, str]  # (type, name)


def schema_differences(db: Database, schema: Schema) -> list[str]:
    """Every way ``db``'s tables, indexes and triggers differ from what ``schema``'s
    migrations make, in words an auditor can act on; empty when they agree."""
    wanted, columns, known = _made_by(schema)
    found = _objects(db)
    later = any(name not in known.get(migration_set, frozenset())
                for migration_set, name in compat.applied(db))  # a later release's migration
    problems: list[str] = []
    for (kind, name), sql in sorted(wanted.items()):
        have = found.get((kind, name))
        if have is None:
            problems.append(f"the {kind} {name} is missing")
        elif have != sql and not (kind == "table" and later and _extends(have, sql)
                                  and _same_columns(db, name, columns[name])):
            problems.append(f"the {kind} {name} is not defined as the console's migrations "
                            "define it")
    problems += [f"the trigger {name} is not one the console's migrations make"
                 for (kind, name) in sorted(found) if kind == "trigger"
                 and (kind, name) not in wanted]
    return problems


@functools.lru_cache(maxsize=8)
def _made_by(schema: Schema) -> tuple[dict[Entry, str], dict[str, list[tuple[object, ...]]],
                                      dict[str, frozenset[str]]]:
    """What ``schema``'s migrations make in a new database (read only): its objects, each
    table's columns, and the migrations' names. Made once a process (about 11 ms): the
    console audits again every hour, and the test suite a few hundred times."""
    made = Database(memory=True)
    try:
        schema.apply(made)
        wanted = _objects(made)
        columns = {name: _columns(made, name) for (kind, name) in wanted if kind == "table"}
    finally:
        made.close()
    return wanted, columns, schema.known()


def _objects(db: Database) -> dict[Entry, str]:
    """Each table, index and trigger (SQLite's own and sqlite-utils' left out) with its SQL
    in one form (:func:`_normal`); an index SQLite makes for a key has no SQL and is held by
    its table's."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master WHERE type IN (?, ?, ?) "
                      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name != ?",
                      [*_KINDS, _OWN]).fetchall()
    return {(str(kind), str(name)): _normal(sql) for kind, name, sql in rows}


_LITERAL = re.compile(r"('(?:[^']|'')*')")


def _normal(sql: str | None) -> str:
    """``sql`` in one form whatever SQLite release wrote it: outside its string literals,
    without identifier quotes, in lower case, one space between words and none beside
    punctuation. SQLite keeps a definition as it was written, but rewrites it for an
    ``ALTER TABLE`` (a renamed table's name quoted, an added column's comma), and that
    rewriting may differ between the release that upgraded a table years ago and the one
    that builds the comparison today; none of these changes what the definition does."""
    parts = _LITERAL.split(sql or "")
    for index in range(0, len(parts), 2):  # the text between literals
        part = re.sub(r"[\"`\[\]]", "", parts[index]).lower()
        part = re.sub(r"\s+", " ", part)
        parts[index] = re.sub(r" ?([(),;=]) ?", r"\1", part)
    return "".join(parts).strip()


def _extends(have: str, sql: str) -> bool:
    """``have`` is the table definition ``sql`` with definitions added before its closing
    parenthesis, as ``ALTER TABLE ... ADD COLUMN`` writes them."""
    body = sql.removesuffix(")")
    return (sql.endswith(")") and have.endswith(")") and have.startswith(body)
            and have[len(body):].startswith(","))


def _columns(db: Database, table: str) -> list[tuple[object, ...]]:
    """(name, type, NOT NULL, default, key position) of each column, in order."""
    return [tuple(row[1:6]) for row in db.execute(f"PRAGMA table_info([{table}])")]


def _same_columns(db: Database, table: str, wanted: Iterable[tuple[object, ...]]) -> bool:
    have = {column[0]: column for column in _columns(db, table)}
    return all(have.get(column[0]) == column for column in wanted)
