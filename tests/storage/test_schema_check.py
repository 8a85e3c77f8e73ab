"""The schema a table database holds, held to what its migrations make
(``storage/schema_check.py``): by the power-on self-test's "database" item and by
``audit verify``. Dropping the log's append-only trigger once left the self-test passing;
these tests change the schema the ways someone with the file could, on real files."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlite_utils import Database, Migrations

from dealer_console import table_db
from dealer_console.cli import main
from dealer_console.profiles.loader import get_profile
from dealer_console.selftest.database import check_database
from dealer_console.selftest.report import Report
from dealer_console.storage import compat
from dealer_console.storage.identity import Schema
from dealer_console.storage.schema import MIGRATIONS as TABLE
from dealer_console.storage.schema_check import schema_differences
from dealer_console.table_db import SCHEMA, open_table_db
from tests.cli.audit_helpers import copied, tamper
from tests.round.helpers import make_table, play_round

SCHEMAS = Path(__file__).parent / "schemas"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A table database with two rounds played, closed."""
    folder = tmp_path_factory.mktemp("played")
    table = make_table(folder, "washington-face-up", name="table.db")
    for seed in (1, 2):
        play_round(table, seed=seed)
    table.db.close()
    return folder / "table.db"


@pytest.fixture
def db(played: Path, tmp_path: Path) -> Path:
    return copied(played, tmp_path)


def redefine(path: Path, name: str, *edits: tuple[str, str]) -> None:
    """``name``'s definition edited in place, its rows and everything else kept: what SQLite
    reads when it next opens the file."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA writable_schema = ON")
    for old, new in edits:
        conn.execute("UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE name = ?",
                     [old, new, name])
    conn.execute("PRAGMA writable_schema = OFF")
    conn.close()


def self_test_database(path: Path) -> tuple[bool, str]:
    report = Report()
    check_database(report, path, get_profile("washington-face-up"))
    (line,) = [x for x in report.checks if x.item == "database"]
    return line.ok, line.detail


def differences(path: Path) -> list[str]:
    conn = Database(sqlite3.connect(path))
    try:
        return schema_differences(conn, SCHEMA)
    finally:
        conn.close()


def test_a_played_table_and_an_upgraded_released_one_hold_the_migrations_schema(
        db: Path, tmp_path: Path) -> None:
    assert differences(db) == []
    assert self_test_database(db) == (True, f"{db}: integrity_check ok, migrations current, "
                                            "schema as they make it")
    released = tmp_path / "v1.db"
    shutil.copy(SCHEMAS / "v1.db", released)
    open_table_db(released, create=False).close()  # upgraded by every migration since
    assert differences(released) == []


@pytest.mark.parametrize(("sql", "expected"), [
    (("DROP TRIGGER events_no_update",), "the trigger events_no_update is missing"),
    (("DROP TRIGGER settlement_lines_no_replace",),
     "the trigger settlement_lines_no_replace is missing"),
    (("DROP INDEX events_kind",), "the index events_kind is missing"),
    # the same name, a guard that guards nothing
    (("DROP TRIGGER events_no_delete",
      "CREATE TRIGGER events_no_delete BEFORE DELETE ON events WHEN 0 "
      "BEGIN SELECT RAISE(ABORT, 'no'); END"),
     "the trigger events_no_delete is not defined as the console's migrations define it"),
    # a trigger of someone else's: every wager doubled after the console writes it
    (("CREATE TRIGGER wagers_doubled AFTER INSERT ON wagers BEGIN UPDATE wagers SET "
      "amount_cents = amount_cents * 2 WHERE rowid = NEW.rowid; END",),
     "the trigger wagers_doubled is not one the console's migrations make"),
])
def test_a_schema_changed_outside_the_console_fails_the_self_test_and_the_audit(
        db: Path, capsys: pytest.CaptureFixture[str], sql: tuple[str, ...],
        expected: str) -> None:
    tamper(db, *sql)
    assert differences(db) == [expected]
    ok, detail = self_test_database(db)
    assert not ok, detail
    assert detail.startswith(f"{db}: {expected}: its schema was changed outside the console")
    assert "audit verify" in detail
    assert main(["audit", "verify", "--db", str(db)]) == 1
    assert f"schema: {expected}" in capsys.readouterr().out


def test_a_table_without_one_of_its_checks_fails_the_self_test(db: Path) -> None:
    redefine(db, "settlement_lines", ("CHECK (returned_cents >= 0)", ""))
    ok, detail = self_test_database(db)
    assert not ok and detail.startswith(f"{db}: the table settlement_lines is not defined as "
                                        "the console's migrations define it: "), detail


def test_every_difference_is_counted_in_the_one_line(db: Path) -> None:
    tamper(db, "DROP TRIGGER events_no_update", "DROP TRIGGER events_no_delete")
    ok, detail = self_test_database(db)
    assert not ok and "the trigger events_no_delete is missing (and 1 more)" in detail, detail


def test_a_definition_written_in_another_spacing_or_quoting_is_the_same(db: Path) -> None:
    """As another SQLite release may write it when it alters a table; the text inside a
    string literal still counts."""
    redefine(db, "rounds", ("CREATE TABLE rounds (", 'create table "rounds"('), (",", " , "),
             ("TEXT NOT NULL", "text  not\nnull"))
    conn = sqlite3.connect(db)
    written, = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'rounds'").fetchone()
    conn.close()
    assert written.startswith('create table "rounds"(') and "text  not\nnull" in written
    assert differences(db) == []
    redefine(db, "events_no_update", ("append-only", "Append-Only"))
    assert differences(db) == ["the trigger events_no_update is not defined as the console's "
                               "migrations define it"]


def test_an_extra_index_or_table_is_left_alone(db: Path) -> None:
    """What a later release's migration that earlier consoles may ignore adds (``compat``),
    and nothing that can change what the console writes."""
    tamper(db, "CREATE INDEX someones_index ON wagers (amount_cents)",
           "CREATE TABLE someones_notes (note TEXT)")
    assert differences(db) == []
    assert self_test_database(db)[0]


LATER = Migrations("dealer_console")
"""The table's migration set as a later release would have it, with a nullable column that
earlier consoles may ignore (``compat.OLDER_MAY_OPEN``): it changes the table's definition."""
LATER._migrations = [*TABLE._migrations]


@LATER(name="0099_rounds_note")
def rounds_note(db: Database) -> None:
    db.execute("ALTER TABLE rounds ADD COLUMN later_note TEXT")


def upgraded_by_the_later_release(db: Path) -> Schema:
    """``db`` opened, and so upgraded, by the later release; its schema."""
    later = Schema(tuple(LATER if s is TABLE else s for s in SCHEMA.sets))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_db, "SCHEMA", later)
        patch.setitem(compat.OLDER_MAY_OPEN, "dealer_console",
                      {**compat.OLDER_MAY_OPEN["dealer_console"],
                       "0099_rounds_note": "a nullable column earlier consoles never read"})
        open_table_db(db, create=False).close()
    return later


def test_a_later_release_s_column_is_accepted_on_the_table_s_columns(db: Path) -> None:
    later = upgraded_by_the_later_release(db)
    conn = Database(sqlite3.connect(db))
    assert "later_note TEXT" in str(conn.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'rounds'").fetchone()[0])
    assert schema_differences(conn, later) == []
    conn.close()
    # back on this console, which knows no 0099 and defines rounds without the column: the
    # table is held to its columns
    assert differences(db) == []
    assert self_test_database(db)[0]
    # and what this console defines still counts there: a column's default, a trigger
    tamper(db, "DROP TRIGGER events_no_update")
    assert differences(db) == ["the trigger events_no_update is missing"]
    redefine(db, "rounds", ("deal_no INTEGER NOT NULL DEFAULT 0",
                            "deal_no INTEGER NOT NULL DEFAULT 7"))
    assert differences(db) == ["the table rounds is not defined as the console's migrations "
                               "define it", "the trigger events_no_update is missing"]


def test_a_later_release_does_not_let_a_check_go(db: Path) -> None:
    """A table held as this console's definition with columns added at its end, not by its
    columns alone: a check edited out of it is still found (as it would be by someone who
    recorded a later release's migration in the file by hand to get there)."""
    upgraded_by_the_later_release(db)
    assert differences(db) == []
    redefine(db, "rounds", (" CHECK (banker_wager_cents >= 0)", ""))
    assert differences(db) == ["the table rounds is not defined as the console's migrations "
                               "define it"]


def test_the_same_column_added_without_a_later_release_is_a_difference(db: Path) -> None:
    """The columns are only enough when the database says a later release changed it."""
    tamper(db, "ALTER TABLE rounds ADD COLUMN later_note TEXT")
    assert differences(db) == ["the table rounds is not defined as the console's migrations "
                               "define it"]
