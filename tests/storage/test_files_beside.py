"""The files SQLite keeps beside ``table.db`` taken away while a table plays (a clean-up
script, a technician tidying the folder; an outside review): every step the table reported
done is still there after a power cut, and the table stops saying why."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.table_db import open_for_reading
from tests.storage.readonly import CLI

PLAY = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from dealer_console.round.table import Table
    from tests.round.helpers import make_table, play_round
    folder, gone = Path(sys.argv[1]), sys.argv[2].split(",")
    table = make_table(folder, "washington-face-up")
    play_round(table, seed=1)
    play_round(table, seed=2)
    for companion in gone:  # taken away while the table plays
        os.unlink(folder / f"table.db{companion}")
    handle = Table.handle
    def at_a_tables_pace(self, *args, **kwargs):  # a dealer's touch, a shuffler's next hand
        time.sleep(0.025)
        return handle(self, *args, **kwargs)
    Table.handle = at_a_tables_pace
    try:
        play_round(table, seed=3)
    except Exception as exc:
        print(f"STOPPED {type(exc).__name__}: {exc}", flush=True)
    print(f"COMMITTED {table.state.round_id - 1}", flush=True)
    os._exit(0)  # then the power goes: nothing closed
""")


@pytest.mark.parametrize("gone", ["-wal,-shm", "-wal", "-shm"])
def test_a_log_taken_away_in_play_loses_nothing_reported_done(tmp_path: Path,
                                                               gone: str) -> None:
    """docs/storage.md: a step the console reports done is on the disk. Before, SQLite went
    on committing into the unlinked log and a power cut lost every round of it. The files
    are looked at before a write at most every 20 ms: the round after their removal is
    played at a table's pace, its steps further apart than that."""
    played = subprocess.run([sys.executable, "-c", PLAY, str(tmp_path), gone],
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    assert "STOPPED WriteFailed" in played.stdout, played.stdout
    assert "removed or replaced while the table played" in played.stdout
    assert "every step saved so far is now in the database file itself" in played.stdout
    committed = int(played.stdout.split("COMMITTED ")[1].split()[0])
    assert committed >= 2
    db = open_for_reading(tmp_path / "table.db")
    try:
        on_disk = int(db.execute("SELECT COUNT(*) FROM rounds WHERE status = 'complete'"
                                 ).fetchone()[0])
        assert on_disk == committed
        assert audit(db).ok
    finally:
        db.close()


def test_a_second_writer_is_refused_after_the_lock_file_was_tidied_away(
        tmp_path: Path) -> None:
    """docs/storage.md: the lock file stays after a crash and may be removed. Removed while
    a table plays, it let ``simulate --resume`` write the live table's database, and the
    table's next step then died on a constraint no screen shows."""
    from tests.round.helpers import make_table, play_round

    table = make_table(tmp_path, "washington-face-up")
    try:
        play_round(table, seed=1)
        (tmp_path / "table.db-lock").unlink()
        second = subprocess.run(
            [*CLI, "simulate", "--profile", "washington-face-up", "--devices", "in-process",
             "--rounds", "4", "--resume", "--db", str(tmp_path / "table.db")],
            capture_output=True, text=True, timeout=300)
        assert second.returncode == 2, second.stdout + second.stderr
        assert "is already open in another console or simulate" in second.stderr
        assert "lock file table.db-lock was removed" in second.stderr
        play_round(table, seed=2)  # the table goes on, alone
        assert audit(table.db).ok
    finally:
        table.db.close()
    reopened = make_table(tmp_path, "washington-face-up")  # every lock released at close
    reopened.db.close()


READER_AFTER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from dealer_console.table_db import check_table_file
    from tests.round.helpers import make_table, play_round
    folder = Path(sys.argv[1])
    check_table_file(folder / "table.db")  # the console started again opens and closes first
    print("WAL", (folder / "table.db-wal").exists(), flush=True)
    table = make_table(folder, "washington-face-up")
    play_round(table, seed=7)
    table.db.close()
""")


def test_a_reader_kept_open_past_the_writers_close_keeps_its_files(tmp_path: Path) -> None:
    """The writer's own handle on the database (the lock that outlives a tidied lock file)
    closed with the last writer, while a reader of the same process (the meter display's,
    the background audit's) was still open: its SQLite locks went with it, another process
    then took itself for the last user and removed the log under the reader, which read a
    "malformed" database (an outside review)."""
    from tests.round.helpers import make_table, play_round

    table = make_table(tmp_path, "washington-face-up")
    play_round(table, seed=1)
    reader = open_for_reading(tmp_path / "table.db")
    try:
        table.db.close()  # the table's writer closes first (the console closing, a reopen)
        other = subprocess.run([sys.executable, "-c", READER_AFTER, str(tmp_path)],
                               capture_output=True, text=True, timeout=120)
        assert other.returncode == 0, other.stderr
        assert "WAL True" in other.stdout  # the reader's log was left in place
        assert reader.execute("SELECT COUNT(*) FROM rounds WHERE status = 'complete'"
                              ).fetchone()[0] == 2
    finally:
        reader.close()
