"""``dealer-console table-db restore``: a table's backup put back in place of its database.

An outside review restored a backup the way the self-test said to, with a file copy, over a
table killed mid-play: SQLite wrote the dead table's ``table.db-wal`` over the restored file,
and the self-test called it damaged and said to restore the backup again. Here a real table
(``simulate``) is backed up, plays on, is killed with SIGKILL, and is restored; the command's
refusals change nothing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer_console.storage import writer_lock
from drivers.sim.table.choices import SIM_STAFF, UNKNOWN_CARD

CLI = [sys.executable, "-m", "dealer_console.cli"]
PROFILE = "california-face-up"
CARDS = {role: track for _id, _name, role, track in SIM_STAFF}


def cli(*args: str, card: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], input=card, capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))


def simulate(db: Path, key: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLI, "simulate", "--profile", PROFILE, "--seed", "5", "--devices", "in-process",
         "--db", str(db), "--audit-key", str(key), *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def complete(db: Path) -> int:
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM rounds WHERE status = 'complete'"
                                ).fetchone()[0])
    finally:
        conn.close()


def files(folder: Path) -> dict[str, bytes]:
    """Every file's bytes, but the writer's lock (it names whoever took it last)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith("-lock")}


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """A table of 4 rounds, anchored and backed up, then played on and killed mid-play:
    ``(database, its backup, the anchor, the audit key)``."""
    data, etc = tmp_path / "data", tmp_path / "etc"
    data.mkdir()
    etc.mkdir()
    key, anchor, db = etc / "audit.key", etc / "table-db.anchor", data / "table.db"
    assert cli("audit", "init-key", "--key", str(key)).returncode == 0
    first = simulate(db, key, "--rounds", "4")
    assert first.wait(300) == 0, first.stderr.read() if first.stderr else ""
    assert cli("table-db", "anchor", "--db", str(db), "--anchor", str(anchor)).returncode == 0
    backups = tmp_path / "backups"
    backups.mkdir()
    copy = backups / "table-4-rounds.db"
    made = cli("backup", "--db", str(db), "--to", str(copy))
    assert made.returncode == 0, made.stderr
    on = simulate(db, key, "--rounds", "400", "--resume")
    deadline = time.monotonic() + 120
    while complete(db) < 7 and time.monotonic() < deadline:
        time.sleep(0.05)
    on.send_signal(signal.SIGKILL)
    on.wait(30)
    assert complete(db) >= 7
    assert Path(f"{db}-wal").stat().st_size > 0  # the dead table's last pages are there
    return db, copy, anchor, key


def restore(db: Path, copy: Path, anchor: Path, card: str = CARDS["executive"]
            ) -> subprocess.CompletedProcess[str]:
    return cli("table-db", "restore", "--from", str(copy), "--db", str(db), "--anchor",
               str(anchor), card=f";{card}?\n")


def test_a_killed_table_is_restored_whole_and_what_was_there_is_kept(
        table: tuple[Path, Path, Path, Path]) -> None:
    db, copy, anchor, key = table
    before = files(db.parent)
    done = restore(db, copy, anchor)
    assert done.returncode == 0, done.stderr
    kept = next(db.parent.glob("table.db.replaced-*"))
    assert done.stdout.startswith(f"table-db restore: {db} restored from {copy} (") and \
        f"what was there is kept in {kept}" in done.stdout, done.stdout
    assert "by Sim Executive (SIM-X1), executive" in done.stdout
    moved = files(kept)
    assert {"table.db", "table.db-wal", "table.db.checkpoints"} <= set(moved)
    assert all(moved[name] == before[name] for name in moved)  # evidence, byte for byte
    assert not Path(f"{db}-wal").exists()  # nothing of the dead table is left beside it
    assert complete(db) == complete(copy) == 4
    audit = cli("audit", "verify", "--db", str(db), "--key", str(key))
    assert audit.returncode == 0 and audit.stdout.startswith("OK"), audit.stdout + audit.stderr
    test = cli("self-test", "--profile", PROFILE, "--db", str(db), "--key", str(key),
               "--anchor", str(anchor))
    assert "SELF-TEST PASSED" in test.stdout, test.stdout + test.stderr
    history = cli("table-db", "show", "--anchor", str(anchor)).stdout.splitlines()
    assert "  restored  " in history[-1] and f"Sim Executive (SIM-X1), from {copy}" in \
        history[-1], history
    played = simulate(db, key, "--rounds", "6", "--resume")  # the table plays on from it
    assert played.wait(300) == 0, played.stderr.read() if played.stderr else ""
    assert complete(db) == 6


def test_each_refusal_changes_nothing(table: tuple[Path, Path, Path, Path],
                                      tmp_path: Path) -> None:
    db, copy, anchor, key = table
    before, backed_up = files(db.parent), files(copy.parent)

    def refused(done: subprocess.CompletedProcess[str], why: str) -> None:
        assert done.returncode != 0 and why in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert files(db.parent) == before and files(copy.parent) == backed_up
        assert not list(db.parent.glob("table.db.replaced-*"))

    refused(restore(db, copy, anchor, CARDS["supervisor"]),
            "this needs an executive's card: a restore replaces the table's database")
    refused(restore(db, copy, anchor, UNKNOWN_CARD), "card not recognised")
    lock = writer_lock.acquire(db)  # a console has the table open
    try:
        refused(restore(db, copy, anchor), "is already open in another console or simulate")
    finally:
        lock.release()
    other = tmp_path / "other" / "table.db"  # another table's backup
    other.parent.mkdir()
    assert simulate(other, key, "--rounds", "1").wait(300) == 0
    refused(restore(db, other, anchor), "not this table's database")
    damaged = tmp_path / "damaged.db"
    data = bytearray(copy.read_bytes())
    data[len(data) // 2:len(data) // 2 + 4096] = b"\xff" * 4096
    damaged.write_bytes(bytes(data))
    refused(restore(db, damaged, anchor), "nothing was changed")
    behind = tmp_path / "behind.db"  # a backup given a journal of rounds it does not hold
    behind.write_bytes(copy.read_bytes())
    Path(f"{behind}.checkpoints").write_bytes(Path(f"{db}.checkpoints").read_bytes())
    refused(restore(db, behind, anchor), "the backup does not match its checkpoint journal")
    refused(restore(db, copy, tmp_path / "no.anchor"), "anchors no database")
    refused(restore(db, tmp_path / "none.db", anchor), "no such backup file")


@pytest.mark.skipif(os.geteuid() != 0, reason="the act is root's")
def test_as_root_in_the_service_user_s_folder_it_gives_only_its_own_files_back(
        table: tuple[Path, Path, Path, Path], tmp_path: Path) -> None:
    """As ``table-db new``: the restored files go to the folder's owner (the service user) by
    their own names; what they planted there is never followed; the replaced files' folder
    stays root's, out of the service user's reach."""
    db, copy, anchor, _key = table
    service = 65534
    for path in (db.parent, *db.parent.iterdir()):
        os.chown(path, service, service, follow_symlinks=False)
    precious = tmp_path / "shadow"  # stands for any file of root's
    precious.write_text("root:x:19000:0:99999:7:::\n")
    (db.parent / "table.db-x").symlink_to(precious)
    done = restore(db, copy, anchor)
    assert done.returncode == 0, done.stderr
    assert precious.stat().st_uid == 0 and precious.read_text().startswith("root:")
    assert db.stat().st_uid == service
    assert Path(f"{db}.checkpoints").stat().st_uid == service
    kept = next(db.parent.glob("table.db.replaced-*"))
    assert kept.stat().st_uid == 0 and (kept.stat().st_mode & 0o777) == 0o750
