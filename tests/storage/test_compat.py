"""Which consoles may open a table database (``storage/compat.py``): a later console's
migration that earlier consoles may ignore leaves the database open to them, with rounds
played by both; any other migration closes it to them, refused before a byte is written.

"The later console" here is this one with one more migration set, as a later release would
have it; real files, real rounds, real audits."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from sqlite_utils import Database, Migrations

from dealer_console import table_db
from dealer_console.audit.verify import audit
from dealer_console.jackpot import win_prints
from dealer_console.storage import compat
from dealer_console.storage.connection import LaterSchema
from dealer_console.storage.identity import Schema
from dealer_console.storage.schema import MIGRATIONS as TABLE
from dealer_console.table_db import open_table_db
from tests.jackpot.conftest import make_awarded
from tests.jackpot.test_win_prints import printed
from tests.round.helpers import make_table, play_round

LATER = Migrations("dealer_console")
"""The table's migration set as a later release would have it: this one's, then one more."""
LATER._migrations = [*TABLE._migrations]


@LATER(name="0099_wagers_by_seat")
def wagers_by_seat(db: Database) -> None:
    """An index: earlier consoles never notice it (SQLite keeps it up to date for them)."""
    db.execute("CREATE INDEX later_wagers_seat ON wagers (seat)")


def header_floor(path: Path) -> int:
    return int(struct.unpack(">i", path.read_bytes()[60:64])[0])


@contextmanager
def later_console(*, older_may_open: bool) -> Iterator[int]:
    """This console with the later release's migration set, declared safe for earlier
    consoles or not; yields the later console's schema version."""
    schema = Schema(tuple(LATER if s is TABLE else s for s in table_db.SCHEMA.sets))
    safe = {"0099_wagers_by_seat": "an index: earlier consoles read and write as before"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_db, "SCHEMA", schema)
        if older_may_open:
            patch.setitem(compat.OLDER_MAY_OPEN, "dealer_console",
                          {**compat.OLDER_MAY_OPEN.get("dealer_console", {}), **safe})
        yield schema.version()


def played(path: Path, rounds: int, seed: int) -> int:
    """Rounds played on the table database at ``path`` by the console as it is now; the
    number of complete rounds in it afterwards."""
    table = make_table(path.parent, "washington-face-up", name=path.name)
    for n in range(rounds):
        play_round(table, seed=seed + n)
    count = int(table.db.execute("SELECT COUNT(*) FROM rounds WHERE status = 'complete'"
                                 ).fetchone()[0])
    table.db.close()
    return count


def test_a_later_migration_earlier_consoles_may_ignore_keeps_the_database_theirs(
        tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    earlier = table_db.schema_version()
    assert played(path, 2, seed=1) == 2
    assert header_floor(path) == earlier
    with later_console(older_may_open=True) as later:
        assert later == earlier + 1
        assert played(path, 2, seed=11) == 4
        db = open_table_db(path, create=False)
        recorded = compat.recorded_safe(db)
        assert recorded[("dealer_console", "0099_wagers_by_seat")] == (
            "an index: earlier consoles read and write as before")
        assert recorded == {("dealer_console", name): why for name, why  # and no other
                            in compat.OLDER_MAY_OPEN["dealer_console"].items()}
        db.close()
    assert header_floor(path) == earlier  # the floor did not move
    # back on the earlier console: it opens, writes, and the audit holds every round
    assert played(path, 2, seed=21) == 6
    db = open_table_db(path, create=False)
    assert audit(db).ok
    assert db.execute("SELECT 1 FROM sqlite_master WHERE name = 'later_wagers_seat'"
                      ).fetchone()  # the later console's index is kept, and kept up to date
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with later_console(older_may_open=True):  # and forward again: nothing to apply
        assert played(path, 1, seed=31) == 7
    assert header_floor(path) == earlier


def test_a_later_migration_earlier_consoles_may_not_ignore_closes_it_to_them(
        tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    earlier = table_db.schema_version()
    played(path, 1, seed=1)
    with later_console(older_may_open=False) as later:
        assert played(path, 1, seed=2) == 2
    assert header_floor(path) == later  # what the package's preinst reads
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(LaterSchema, match=rf"later version.*0099_wagers_by_seat.*schema "
                                          rf"{later} or later, this one reads schema {earlier}"):
        open_table_db(path, create=False)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_the_floor_rises_only_for_a_migration_not_declared_safe() -> None:
    later = {("dealer_console", "0099_wagers_by_seat")}
    assert compat.new_floor(previous=7, marked=True, newly=set(), current=9) == 7
    assert compat.new_floor(previous=7, marked=True, newly=later, current=9) == 9
    assert compat.new_floor(previous=0, marked=False, newly=set(), current=9) == 9
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(compat.OLDER_MAY_OPEN, "dealer_console", {"0099_wagers_by_seat": "ok"})
        assert compat.new_floor(previous=7, marked=True, newly=later, current=9) == 7
        assert compat.new_floor(previous=7, marked=True,
                                newly=later | {("dealer_console", "0003_x")}, current=9) == 9


@contextmanager
def console_without(migration: str) -> Iterator[int]:
    """This console as the release before ``migration`` had it; yields its schema version."""
    before = Migrations("dealer_console")
    before._migrations = [m for m in TABLE._migrations if m.name != migration]
    assert len(before._migrations) == len(TABLE._migrations) - 1
    schema = Schema(tuple(before if s is TABLE else s for s in table_db.SCHEMA.sets))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_db, "SCHEMA", schema)
        yield schema.version()


def console_before_the_log_index() -> AbstractContextManager[int]:
    """This console as the release before ``0003_events_by_kind`` had it."""
    return console_without("0003_events_by_kind")


def test_the_log_s_index_by_kind_leaves_the_table_open_to_the_release_before(
        tmp_path: Path) -> None:
    """0003 is the first migration an earlier console may ignore: a table the release before
    played is upgraded with its floor unchanged, the release before plays on it, and the
    self-test's queries of the log by kind use the index."""
    path = tmp_path / "table.db"
    with console_before_the_log_index() as before:
        assert played(path, 2, seed=1) == 2
    assert header_floor(path) == before
    assert played(path, 2, seed=11) == 4  # this console: the index added
    assert header_floor(path) == before
    with console_before_the_log_index():
        assert played(path, 2, seed=21) == 6
    db = open_table_db(path, create=False)
    assert audit(db).ok
    plan = " ".join(str(row[-1]) for row in db.execute(
        "EXPLAIN QUERY PLAN SELECT payload FROM events WHERE kind = 'jackpot_hit'"))
    assert "events_kind" in plan, plan
    db.close()


def _print_plan(db: Database) -> str:
    return " ".join(str(row[-1]) for row in db.execute(
        f"EXPLAIN QUERY PLAN SELECT seq FROM events WHERE {win_prints.IN_INDEX}"
        " AND json_extract(payload, '$.hit_id') = ? ORDER BY seq", [1]))


def test_an_older_table_with_win_prints_gets_their_index_and_stays_open_to_the_release_before(
        tmp_path: Path) -> None:
    """0004 indexes the prints by award: a table whose prints the release before recorded is
    upgraded with its floor unchanged, its prints read and numbered as before, the count of
    an award's earlier prints found by the index (it read every print of the table), and the
    release before goes on printing on it."""
    path = tmp_path / "table.db"
    with console_without("0004_win_prints_by_award") as before:
        db, hit = make_awarded(tmp_path)
        assert [printed(db, hit, None) for _ in range(2)] == [1, 2]
        assert "events_win_prints" not in _print_plan(db)
        db.close()
    assert header_floor(path) == before
    db = open_table_db(path, create=False)  # this console: the index added
    assert "USING INDEX events_win_prints" in _print_plan(db), _print_plan(db)
    assert [p.copy for p in win_prints.prints_of(db, hit)] == [1, 2]
    assert printed(db, hit, None) == 3
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    assert header_floor(path) == before
    with console_without("0004_win_prints_by_award"):  # the release before, on it again
        db = open_table_db(path, create=False)
        assert printed(db, hit, None) == 4
        db.close()
    db = open_table_db(path, create=False)
    assert [p.copy for p in win_prints.prints_of(db, hit)] == [1, 2, 3, 4]  # kept up to date
    assert compat.recorded_safe(db)[("dealer_console", "0004_win_prints_by_award")]
    report = audit(db)
    assert report.ok, report.problems
    db.close()
