"""Which consoles may open a table database: what makes a rollback to an earlier release safe.

Each migration says whether a console that does not know it can still read and write the
database safely (:data:`OLDER_MAY_OPEN`: an index, or a table or column that console never
needs). The database records the outcome in two places, so an earlier release can decide
without knowing the later migrations:

- ``PRAGMA user_version`` (the SQLite header, readable with plain file reads by the package's
  ``preinst``) is the **floor**: the schema version (:meth:`identity.Schema.version`) of the
  oldest console that may open the file. Applying any migration not in :data:`OLDER_MAY_OPEN`
  raises it to the applying console's version; applying only such migrations leaves it.
- ``_migrations_older_may_open`` lists each applied migration an earlier console may ignore,
  with the reason its author gave.

An earlier console opens the file for writing exactly when the floor is at or under its own
version and every applied migration it does not know is in that list
(:func:`refusal`); otherwise it refuses with the reason before it writes a byte, and the
release tool (``dealer-console-release rollback``) refuses the rollback before anything is
stopped. ``docs/install.md`` (rolling back) and ``docs/storage.md`` describe it.
"""

from __future__ import annotations

from sqlite_utils import Database

OLDER_MAY_OPEN: dict[str, dict[str, str]] = {"dealer_console": {
    "0003_events_by_kind": "an index: earlier consoles never notice it",
    "0004_win_prints_by_award": "an index: earlier consoles never notice it"}}
"""Migration set name -> {migration name: why a console that does not know it may still read
and write the database}. Only a migration that adds what earlier consoles never read nor have
to write (an index; a table only the new feature uses; a nullable column) belongs here; a new
trigger or check that earlier consoles would break, or a change to what they write, does not
(an earlier console's self-test also fails on a trigger it does not know: ``schema_check.py``).
A released migration's entry is never removed."""

TABLE = "_migrations_older_may_open"


def applied(db: Database) -> set[tuple[str, str]]:
    """Every (migration set, migration) the database records as applied."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                      "'_sqlite_migrations'").fetchone():
        return set()
    return {(str(s), str(n)) for s, n in
            db.execute("SELECT migration_set, name FROM _sqlite_migrations")}


def recorded_safe(db: Database) -> dict[tuple[str, str], str]:
    """The applied migrations the database says earlier consoles may ignore, with why."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                      [TABLE]).fetchone():
        return {}
    return {(str(s), str(n)): str(w) for s, n, w in
            db.execute(f"SELECT migration_set, name, why FROM {TABLE}")}


def new_floor(*, previous: int, marked: bool, newly: set[tuple[str, str]], current: int) -> int:
    """The floor after this console (schema version ``current``) applied ``newly``.

    A file not yet marked (from before the marks) gets this console's version: nothing says
    an earlier one may open it."""
    if not marked or any(name not in OLDER_MAY_OPEN.get(s, {}) for s, name in newly):
        return max(previous, current)
    return previous


def record(db: Database, newly: set[tuple[str, str]]) -> None:
    """Write each newly applied migration that earlier consoles may ignore, with its reason."""
    safe = sorted((s, n, OLDER_MAY_OPEN[s][n]) for s, n in newly if n in OLDER_MAY_OPEN.get(s, {}))
    if not safe:
        return
    db.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (migration_set TEXT NOT NULL, "
               "name TEXT NOT NULL, why TEXT NOT NULL, PRIMARY KEY (migration_set, name))")
    for row in safe:
        db.execute(f"INSERT OR IGNORE INTO {TABLE} (migration_set, name, why) VALUES (?, ?, ?)",
                   list(row))


def refusal(db: Database, *, floor: int, current: int,
            known: dict[str, frozenset[str]]) -> str | None:
    """Why this console (schema version ``current``, knowing ``known``) must not write to the
    database, or None when it may: the floor is above it, or a migration it does not know is
    not one the database records as safe to ignore."""
    later = sorted((s, n) for s, n in applied(db) if s in known and n not in known[s])
    safe = recorded_safe(db) if later else {}
    unsafe = [n for s, n in later if (s, n) not in safe]
    if floor <= current and not unsafe:
        return None
    names = ", ".join(unsafe or [n for _, n in later])
    what = f" (migration {names})" if names else ""
    return (f"was written by a later version of the console{what}: it may be opened only by "
            f"a console of schema {max(floor, current + 1)} or later, this one reads schema "
            f"{current}; this version will not write to it: use that version")
