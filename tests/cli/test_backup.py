"""``dealer-console backup``: a live table (its newest rounds still in the ``-wal`` file) is
copied whole where a file copy is behind, the copy is verified and audits clean with its
checkpoints, and nothing is overwritten or left half made."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.round.table import Table
from dealer_console.storage import backup as backup_module
from dealer_console.storage.anchor import Journal, journal_for
from dealer_console.storage.identity import StorageError
from tests.round.helpers import make_table, play_round

CLI = [sys.executable, "-m", "dealer_console.cli"]


def _live_table(tmp_path: Path) -> Table:
    """Five rounds, the last three only in ``table.db-wal`` (the table is still open)."""
    table = make_table(tmp_path, "oxford-downs-face-up")
    table.db.execute("PRAGMA wal_autocheckpoint=0")
    journal = Journal(journal_for(tmp_path / "table.db"), None)
    for seed in range(5):
        if seed == 2:
            table.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        play_round(table, seed=seed)
        journal.write(table.db)
    return table


def _rounds(path: Path) -> int:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM rounds WHERE status = 'complete'"
                                ).fetchone()[0])
    finally:
        conn.close()


def test_backup_of_a_live_table_holds_every_round_and_audits_clean(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = _live_table(tmp_path)
    naive = tmp_path / "naive.db"
    shutil.copy(tmp_path / "table.db", naive)
    assert _rounds(naive) == 2  # a file copy misses what is in the -wal
    target = tmp_path / "out" / "backup.db"
    target.parent.mkdir()
    out = subprocess.run([*CLI, "backup", "--db", str(tmp_path / "table.db"), "--to",
                          str(target)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "integrity and hash chain verified" in out.stdout
    table.db.close()
    assert _rounds(target) == 5
    assert journal_for(target).read_text() == journal_for(tmp_path / "table.db").read_text()
    assert main(["audit", "verify", "--db", str(target)]) == 0
    assert "the chain matches its checkpoints" in capsys.readouterr().out
    assert sorted(p.name for p in target.parent.iterdir()) == ["backup.db",
                                                               "backup.db.checkpoints"]


def test_backup_never_overwrites_and_leaves_nothing_when_it_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = make_table(tmp_path, "california-face-up")
    play_round(table)
    table.db.close()
    db = tmp_path / "table.db"
    existing = tmp_path / "existing.db"
    existing.write_text("keep me")
    assert main(["backup", "--db", str(db), "--to", str(existing)]) == 2
    assert "already exists; a backup never overwrites" in capsys.readouterr().err
    assert existing.read_text() == "keep me"
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    out = tmp_path / "out"
    out.mkdir()
    for source, message in ((text, "cannot copy the table database"),
                            (tmp_path / "missing.db", "no such table database")):
        assert main(["backup", "--db", str(source), "--to", str(out / "b.db")]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert list(out.iterdir()) == []
    # a database whose chain was altered is copied by nothing: the copy fails its check
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET payload = replace(payload, '2000', '2100') WHERE seq = 3")
    conn.commit()
    conn.close()
    assert main(["backup", "--db", str(db), "--to", str(out / "b.db")]) == 2
    assert "hash chain is broken" in capsys.readouterr().err
    assert list(out.iterdir()) == []


def test_a_round_ended_during_the_backup_leaves_the_copy_auditing_clean(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """The table goes on while it is backed up: a round that ends after the snapshot writes
    its checkpoint before the journal is copied. Copied whole, the journal made the backup's
    own audit call the copy BEHIND (an outside review); its lines past the copy's
    last event stay out."""
    table = _live_table(tmp_path)
    journal = Journal(journal_for(tmp_path / "table.db"), None)
    snapshot = backup_module.copy_snapshot

    def table_goes_on(source: Path, partial: Path) -> None:
        snapshot(source, partial)
        play_round(table, seed=9)  # ended after the snapshot, before the journal is read
        journal.write(table.db)

    monkeypatch.setattr(backup_module, "copy_snapshot", table_goes_on)
    done = backup_module.backup(tmp_path / "table.db", tmp_path / "b.db")
    table.db.close()
    assert _rounds(tmp_path / "b.db") == 5 and _rounds(tmp_path / "table.db") == 6
    assert done.journal is not None
    live = journal_for(tmp_path / "table.db").read_text().splitlines(keepends=True)
    assert done.journal.read_text() == "".join(live[:5])  # the sixth round's line left out
    assert main(["audit", "verify", "--db", str(tmp_path / "b.db")]) == 0
    assert "the chain matches its checkpoints" in capsys.readouterr().out
    # a journal already at the backup's name belongs to another copy: never overwritten
    (tmp_path / "c.db.checkpoints").write_text("another copy's\n")
    with pytest.raises(StorageError, match=r"c\.db\.checkpoints: already exists"):
        backup_module.backup(tmp_path / "table.db", tmp_path / "c.db")
    assert not (tmp_path / "c.db").exists()
