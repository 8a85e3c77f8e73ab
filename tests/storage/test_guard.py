"""What the console refuses to open, and how it keeps one writer per database: the marks in
the header, files that are not ours, damaged and later databases, the writer's lock, a full
or failing disk, and a read-only folder."""

from __future__ import annotations

import resource
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.cli import main
from dealer_console.jackpot.setup import install_from_profile
from dealer_console.profiles.loader import get_profile
from dealer_console.round.table import Table
from dealer_console.storage import eventlog
from dealer_console.storage.anchor import journal_for
from dealer_console.storage.connection import (
    LaterSchema,
    NotATableDatabase,
    StorageError,
    WriteFailed,
)
from dealer_console.storage.identity import APPLICATION_ID
from dealer_console.storage.writer_lock import DatabaseInUse
from dealer_console.table_db import open_for_reading, open_table_db, schema_version
from tests.round.helpers import make_table, play_round
from tests.storage.readonly import CLI, read_only, run_obeying_permissions

SCHEMAS = Path(__file__).parent / "schemas"


def header_marks(path: Path) -> tuple[int, int]:
    """(user_version, application_id) as the file's header holds them."""
    head = path.read_bytes()[:100]
    user_version, application_id = struct.unpack(">iI", head[60:64] + head[68:72])
    return user_version, application_id


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry of ``folder`` with its bytes (None for a folder): what "untouched" means."""
    return {p.name: (None if p.is_dir() else p.read_bytes()) for p in sorted(folder.iterdir())}


def table_db(path: Path, events: int = 3) -> Path:
    db = open_table_db(path)
    for n in range(events):
        with db.atomic():
            eventlog.append(db, "note", {"n": n}, round_id=None)
    db.close()
    return path


def test_a_new_database_carries_the_marks(tmp_path: Path) -> None:
    path = table_db(tmp_path / "t.db")
    assert header_marks(path) == (schema_version(), APPLICATION_ID)
    assert schema_version() >= 4  # the table's two migrations, the registry's, the jackpot's


def test_a_database_made_before_the_marks_is_read_and_then_marked(tmp_path: Path) -> None:
    path = table_db(tmp_path / "t.db")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("PRAGMA user_version = 0")
    conn.close()
    before = path.read_bytes()
    reader = open_for_reading(path)
    assert [e.payload for e in eventlog.events(reader)] == [{"n": 0}, {"n": 1}, {"n": 2}]
    reader.close()
    assert path.read_bytes() == before  # a reader marks nothing
    open_table_db(path, create=False).close()
    assert header_marks(path) == (schema_version(), APPLICATION_ID)


def test_the_released_schema_still_upgrades_and_is_marked(tmp_path: Path) -> None:
    copy = tmp_path / "v1.db"
    shutil.copy(SCHEMAS / "v1.db", copy)
    assert header_marks(copy)[1] == 0
    db = open_table_db(copy, create=False)
    assert audit(db).ok
    db.close()
    assert header_marks(copy) == (schema_version(), APPLICATION_ID)


def _folder(path: Path) -> None:
    path.mkdir()


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _text(path: Path) -> None:
    path.write_text("round_id,seat,amount\n1,3,2500\n" * 200)


def _other_program(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 305419896")
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()


def _plain_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()


def _truncated_mid_page(path: Path) -> None:
    table_db(path)
    path.write_bytes(path.read_bytes()[:5000])


def _truncated_whole_pages(path: Path) -> None:
    table_db(path)
    path.write_bytes(path.read_bytes()[:4096 * 3])


def _damaged(path: Path) -> None:
    table_db(path, events=200)
    conn = sqlite3.connect(path)
    page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * size:(page - 1) * size + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))


NOT_OURS: dict[str, tuple[Callable[[Path], None], str]] = {
    "folder": (_folder, "is a folder"),
    "empty file": (_empty, "empty file"),
    "text file": (_text, "not an SQLite file"),
    "another program's database": (_other_program, "another program's SQLite database"),
    "SQLite without our schema": (_plain_sqlite, "of another program"),
    "truncated mid-page": (_truncated_mid_page, "truncated"),
    "truncated to whole pages": (_truncated_whole_pages, "truncated"),
    "damaged page": (_damaged, "damaged"),
}


@pytest.mark.parametrize("kind", NOT_OURS)
def test_a_file_that_is_not_a_table_database_is_refused_and_untouched(tmp_path: Path,
                                                                      kind: str) -> None:
    make, reason = NOT_OURS[kind]
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "table.db"
    make(path)
    before = snapshot(folder)
    openers: list[Callable[[], object]] = [
        lambda: open_table_db(path), lambda: open_table_db(path, create=False),
        lambda: open_for_reading(path), lambda: open_for_reading(path, full_check=True)]
    for opener in openers:
        with pytest.raises(NotATableDatabase, match=reason) as info:
            opener()
        assert str(path) in str(info.value)
    assert snapshot(folder) == before  # not a byte written, no -wal, -shm or lock beside it


def test_a_missing_file_is_created_only_by_a_table(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    for opener in (lambda: open_table_db(path, create=False), lambda: open_for_reading(path)):
        with pytest.raises(NotATableDatabase, match="no such table database"):
            opener()
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(StorageError, match="does not exist"):
        open_table_db(tmp_path / "nowhere" / "table.db")


def test_a_later_schema_is_refused_by_writers_and_read_by_readers(tmp_path: Path) -> None:
    path = table_db(tmp_path / "t.db")
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES "
                 "('dealer_console', '0099_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    before = snapshot(tmp_path)
    with pytest.raises(LaterSchema, match=r"later version.*0099_from_the_future"):
        open_table_db(path)
    assert snapshot(tmp_path) == before
    reader = open_for_reading(path)
    assert len(list(eventlog.events(reader))) == 3
    reader.close()
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0099_from_the_future'")
    conn.execute(f"PRAGMA user_version = {schema_version() + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(LaterSchema, match="later version"):
        open_table_db(path)


HOLDER = ("import sys; from dealer_console.table_db import open_table_db; "
          "db = open_table_db(sys.argv[1]); print('open', flush=True); sys.stdin.readline()")


def test_a_second_writer_is_refused_at_once_and_readers_still_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = table_db(tmp_path / "t.db")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(DatabaseInUse, match=f"already open.*process {holder.pid}") as info:
            open_table_db(path)
        assert str(path) in str(info.value)
        assert main(["simulate", "--profile", "washington-face-up", "--devices", "in-process",
                     "--db", str(path), "--resume"]) == 2
        err = capsys.readouterr().err
        assert "already open in another console or simulate" in err and err.count("\n") == 1
        reader = open_for_reading(path)  # an auditor works alongside the table
        assert len(list(eventlog.events(reader))) == 3
        reader.close()
    finally:
        holder.kill()  # like a power cut: the kernel drops the lock with the process
        holder.wait()
    open_table_db(path).close()


def test_a_second_writer_through_another_name_is_refused(tmp_path: Path) -> None:
    """A symbolic link leads to the same lock (and SQLite to the same log and the console to
    the same checkpoint journal); a hard link is refused for writing through either name,
    since each name would get a write-ahead log of its own (an outside review)."""
    path = table_db(tmp_path / "t.db")
    alias = tmp_path / "alias.db"
    alias.symlink_to(path.name)
    assert journal_for(alias) == journal_for(path) == Path(f"{path}.checkpoints")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(DatabaseInUse, match=f"already open.*process {holder.pid}"):
            open_table_db(alias)
    finally:
        holder.kill()
        holder.wait()
    open_table_db(alias).close()  # once the first writer is gone, the link is a fine name
    before = snapshot(tmp_path)
    (tmp_path / "hard.db").hardlink_to(path)
    for name in (path, tmp_path / "hard.db"):
        with pytest.raises(StorageError, match=r"2 names \(hard links\).*Remove the other"):
            open_table_db(name)
    (tmp_path / "hard.db").unlink()
    assert snapshot(tmp_path) == before  # refused before anything was made or written
    open_table_db(path).close()


def test_a_full_disk_stops_the_round_with_nothing_half_written(tmp_path: Path) -> None:
    table = make_table(tmp_path, "washington-face-up")
    play_round(table, seed=1)
    pages = table.db.execute("PRAGMA page_count").fetchone()[0]
    table.db.execute(f"PRAGMA max_page_count = {pages + 2}")  # SQLite: the database is full
    with pytest.raises(WriteFailed, match="disk is full") as info:
        for seed in range(2, 40):
            play_round(table, seed=seed)
    message = str(info.value)
    assert str(tmp_path / "table.db") in message
    assert "nothing of the step in progress was written" in message and "free space" in message
    in_memory = table.state
    table.db.close()
    db = open_table_db(tmp_path / "table.db")
    assert audit(db).ok, audit(db).problems
    last = db.execute("SELECT MAX(seq) FROM events").fetchone()[0]
    assert last == in_memory.last_seq  # the failed step left no event and no state row
    resumed = Table.open(db, table.rules)
    assert resumed.state.phase is in_memory.phase
    assert resumed.state.round_id == in_memory.round_id


def _limit_file_size() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, not kills
    # past a new table database's creation (written whole before it is put in place: its
    # largest file is over 600 KB since the log's index by kind, under 650 KB) and into the
    # first rounds
    resource.setrlimit(resource.RLIMIT_FSIZE, (700_000, 700_000))


def test_a_failing_disk_stops_simulate_cleanly_and_the_run_resumes(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    argv = [*CLI, "simulate", "--profile", "washington-face-up", "--devices", "in-process",
            "--rounds", "60", "--db", str(db)]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=300,
                         preexec_fn=_limit_file_size)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "the disk failed while writing" in out.stderr and str(db) in out.stderr
    assert "check or replace the disk" in out.stderr
    checked = subprocess.run([*CLI, "audit", "verify", "--db", str(db)], capture_output=True,
                             text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout  # every committed step whole, none half
    resumed = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr


def test_a_read_only_folder_serves_the_read_only_commands(tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    table = make_table(folder, "washington-face-up")
    install_from_profile(table.db, get_profile("washington-face-up").jackpots, actor="test")
    for seed in range(3):
        play_round(table, seed=seed)
    table.db.close()
    path = folder / "table.db"
    with read_only(folder):
        before = snapshot(folder)
        for argv in (["recall", "--last", "2"], ["audit", "verify"], ["jackpot", "meters"],
                     ["jackpot", "hits"], ["jackpot", "audit"]):
            out = run_obeying_permissions(*argv, "--db", str(path))
            assert out.returncode == 0, (argv, out.stderr)
            assert argv == ["jackpot", "hits"] or out.stdout.strip(), argv  # no hits yet
        out = run_obeying_permissions("employees", "add", "--db", str(path),
                                      "E1", "Pat", "dealer",
                                      stdin="6011000012345=2501\n6011000099999=2501\n")
        assert out.returncode == 2 and "read-only" in out.stderr, out.stderr
        assert out.stderr.count("\n") == 1
        assert snapshot(folder) == before


def test_a_read_only_folder_with_an_unread_log_says_what_to_do(tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    path = table_db(folder / "table.db")
    writer = open_table_db(path)  # a write still in the -wal, as a copy taken while open
    with writer.atomic():
        eventlog.append(writer, "note", {"n": 3}, round_id=None)
    shutil.copy(path.with_name("table.db-wal"), tmp_path / "saved-wal")
    writer.close()
    shutil.copy(tmp_path / "saved-wal", path.with_name("table.db-wal"))
    with read_only(folder):
        out = run_obeying_permissions("recall", "--db", str(path))
    assert out.returncode == 2
    assert "write-ahead log" in out.stderr and "copy the .db with its -wal" in out.stderr


def test_the_audits_run_the_full_integrity_check(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """An index that no longer matches its table: SQLite's quick_check (every other open)
    does not compare indexes with their tables; the audits' integrity_check does."""
    path = table_db(tmp_path / "t.db")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = replace(sql, '(round_id, seq)', '(kind, seq)')"
                 " WHERE name = 'events_round'")
    conn.commit()
    conn.close()
    open_for_reading(path).close()  # SQLite makes its -wal and -shm as for any reader
    before = snapshot(tmp_path)
    with pytest.raises(NotATableDatabase, match="integrity_check found: row 1 missing from "
                                                "index events_round"):
        open_for_reading(path, full_check=True)
    for argv in (["audit", "verify"], ["jackpot", "audit"]):
        assert main([*argv, "--db", str(path)]) == 2
        err = capsys.readouterr().err
        assert "is damaged" in err and "events_round" in err and err.count("\n") == 1
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("suffix, what, kind", [("-wal", "write-ahead log", "folder"),
                                                ("-shm", "shared-memory file", "folder"),
                                                ("-wal", "write-ahead log", "symbolic link")])
def test_a_folder_where_sqlite_keeps_a_file_is_named_not_called_damage(
        tmp_path: Path, suffix: str, what: str, kind: str) -> None:
    """An outside review: a folder named table.db-wal was said to be a damaged database (whose
    advice, restoring the last backup, loses rounds), and one named table.db-shm passed the
    self-test before the console blamed a read-only folder. Both are named in the self-test's
    words, the database said not to be damaged. So is a symbolic link there (SQLite refuses
    it as "unable to open database file"), and the file it leads to is left alone."""
    from dealer_console.selftest.database import open_untouched
    from dealer_console.storage.identity import StorageError
    from dealer_console.table_db import open_table_db

    db = tmp_path / "table.db"
    open_table_db(db).close()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"precious")
    if kind == "folder":
        Path(f"{db}{suffix}").mkdir()
    else:
        Path(f"{db}{suffix}").symlink_to(elsewhere)
    for opening in (lambda: open_table_db(db, create=False), lambda: open_untouched(db)):
        with pytest.raises(StorageError) as refused:
            opening()
        said = str(refused.value)
        assert f"table.db{suffix}: a {kind} where the table database's {what}" in said
        assert "not damaged" in said and "move" in said
    assert elsewhere.read_bytes() == b"precious"
