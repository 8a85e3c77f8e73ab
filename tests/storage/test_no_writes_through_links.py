"""The files the console writes beside a table's database, in the console user's folder,
where root writes too (``audit checkpoint`` at a shift change, a technician's ``sudo
dealer-console upgrade-db``): never through a symbolic link or into a second name of another
file, the log files' rule (``tests/storage/test_log_files.py``). Through a link planted there,
root appended a checkpoint to the file it led to and cut that file's last line when it had no
newline (the checkpoint journal, ``anchor.append``), or emptied the file and wrote its process
number in (the writer's lock file, ``writer_lock``). A backup (``storage/backup.py``) into
such a folder wrote the copy through a link planted at its temporary name, and copied the
file a linked journal led to beside the backup."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.storage import anchor
from dealer_console.storage.anchor import Checkpoint, JournalRefused, journal_for, read_journal
from dealer_console.storage.backup import Backup, backup
from dealer_console.storage.identity import StorageError
from dealer_console.storage.writer_lock import lock_path
from dealer_console.table_db import open_table_db
from tests.storage.test_guard import table_db

ROOTS_OWN = b"root:x:0:0:root:/root:/bin/bash"
"""A file of root's whose last line has no newline: the old append cut that line off."""

POINT = Checkpoint(7, "ab" * 32, None, 2, "2026-11-27T22:00:00Z")


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    path = tmp_path / "etc" / "passwd"
    path.parent.mkdir()
    path.write_bytes(ROOTS_OWN)
    return path


def test_a_plain_journal_gets_the_line_and_a_missing_one_is_made(tmp_path: Path) -> None:
    journal = tmp_path / "table.db.checkpoints"
    anchor.append(journal, POINT)
    journal.write_bytes(journal.read_bytes() + b"seq 8 head 8d2f")  # torn by a power cut
    anchor.append(journal, POINT)
    assert [cp.line() for cp in read_journal(journal)] == [POINT.line(), POINT.line()]
    assert journal.read_bytes() == f"{POINT.line()}\n{POINT.line()}\n".encode()


def test_a_link_at_the_journal_s_name_is_refused_and_its_file_untouched(
        tmp_path: Path, elsewhere: Path) -> None:
    journal = tmp_path / "data" / "table.db.checkpoints"
    journal.parent.mkdir()
    journal.symlink_to(elsewhere)
    with pytest.raises(JournalRefused, match="is a symbolic link: nothing was written"):
        anchor.append(journal, POINT)
    journal.unlink()
    os.link(elsewhere, journal)  # a second name of root's file
    with pytest.raises(JournalRefused, match="not a plain file of its own"):
        anchor.append(journal, POINT)
    assert elsewhere.read_bytes() == ROOTS_OWN


def test_audit_checkpoint_refuses_a_planted_link_and_says_what_to_do(
        tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = table_db(tmp_path / "table.db")
    journal = journal_for(db)
    journal.symlink_to(elsewhere)
    assert main(["audit", "checkpoint", "--db", str(db)]) != 0
    said = capsys.readouterr().err
    assert f"{journal}: cannot write the checkpoint: the checkpoint journal is a symbolic " \
           "link" in said and "put back the table's own journal" in said, said
    assert elsewhere.read_bytes() == ROOTS_OWN
    journal.unlink()
    assert main(["audit", "checkpoint", "--db", str(db)]) == 0
    assert len(read_journal(journal)) == 1


def test_a_link_at_the_lock_file_s_name_is_refused_and_its_file_untouched(
        tmp_path: Path, elsewhere: Path) -> None:
    db = table_db(tmp_path / "table.db")
    lock = lock_path(db)
    lock.unlink()  # the last writer's, left behind as ever
    lock.symlink_to(elsewhere)
    with pytest.raises(StorageError, match=r"its lock file table\.db-lock is a symbolic link: "
                                            "nothing was written through it"):
        open_table_db(db, create=False)
    lock.unlink()
    os.link(elsewhere, lock)
    with pytest.raises(StorageError, match="is not a plain file of its own"):
        open_table_db(db, create=False)
    assert elsewhere.read_bytes() == ROOTS_OWN
    lock.unlink()
    open_table_db(db, create=False).close()  # a plain lock file again: the table opens
    assert lock.is_file() and not lock.is_symlink()


def test_a_backup_never_writes_through_a_link_at_its_temporary_name(
        tmp_path: Path, elsewhere: Path) -> None:
    db = table_db(tmp_path / "table.db")
    target = tmp_path / "backups" / "table-1.db"
    target.parent.mkdir()
    planted = target.with_name(f".{target.name}.partial-{os.getpid()}")
    planted.symlink_to(elsewhere)
    with pytest.raises(StorageError, match=r"something is already there \(a leftover, or a "
                                           r"link\): a backup never writes through it"):
        backup(db, target)
    assert elsewhere.read_bytes() == ROOTS_OWN and not target.exists()
    assert backup(db, target).events == 3  # nothing in the way: the backup is made


def test_a_backup_never_copies_a_linked_journal(tmp_path: Path, elsewhere: Path) -> None:
    db = table_db(tmp_path / "table.db")
    journal_for(db).symlink_to(elsewhere)
    target = tmp_path / "table-1.db"
    with pytest.raises(StorageError, match="is a symbolic link, so it was not copied"):
        backup(db, target)
    assert target.is_file()  # the database's copy is made and verified, and said so
    assert not journal_for(target).exists()
    assert [p.name for p in tmp_path.iterdir() if p.is_file() and not p.is_symlink()
            and p.read_bytes() == ROOTS_OWN] == []


def test_a_pipe_at_the_journal_s_name_does_not_hold_a_backup(tmp_path: Path) -> None:
    """Opened by name to be read, a pipe waits for a writer that never comes."""
    db = table_db(tmp_path / "table.db")
    os.mkfifo(journal_for(db))
    made: list[Backup] = []
    running = threading.Thread(target=lambda: made.append(backup(db, tmp_path / "t-1.db")),
                               daemon=True)
    running.start()
    running.join(30)
    assert made, "the backup still waits on the pipe"
    assert made[0].journal is None and made[0].events == 3
