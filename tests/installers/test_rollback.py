"""Upgrades that can be undone (``dealer-console-release``, ``storage/compat.py``): release A
installed by dpkg into a throwaway root plays rounds; B, a later release with a migration,
is staged and proven on a copy of the database before it is installed, and plays rounds; the
rollback to A proves A on a copy first, then installs it, and every round of both is there
and A's audit verifies. A later release whose migration A may not ignore makes the rollback
refused before anything changes.

B is this tree built again as 0.1.1 with one more migration (an index), declared safe for
earlier consoles to ignore or not: exactly what a real later release would carry."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.installers.conftest import LINUX, REPO, dpkg, launch, new_root, run_script

TOOL = LINUX / "dealer-console-release"
MIGRATION = '''

@MIGRATIONS(name="0005_wagers_by_seat")
def wagers_by_seat(db: Database) -> None:
    """Release 0.1.1's migration (the rollback test's)."""
    db.execute("CREATE INDEX wagers_seat ON wagers (seat)")
'''


def later_release(out: Path, *, older_may_open: bool) -> Path:
    """This tree as release 0.1.1 with one more migration; its .deb."""
    tree = out / "tree"
    files = subprocess.run(["git", "-C", str(REPO), "ls-files", "-co", "--exclude-standard",
                            "-z"], capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (REPO / name).is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, tree / name)
    pyproject = tree / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('version = "0.1.0"', 'version = "0.1.1"',
                                                       1))
    schema = tree / "dealer_console/storage/schema.py"
    schema.write_text(schema.read_text() + MIGRATION)
    if older_may_open:
        compat = tree / "dealer_console/storage/compat.py"
        text = compat.read_text()
        opening = 'OLDER_MAY_OPEN: dict[str, dict[str, str]] = {"dealer_console": {\n'
        declared = opening + ('    "0005_wagers_by_seat": "an index: earlier consoles never '
                              'notice it",\n')
        compat.write_text(text.replace(opening, declared, 1))
        assert declared in compat.read_text()
    built = run_script(tree / "installers/linux/build-deb.sh", "--out", str(out),
                       "--uncompressed")  # unpacked by check, upgrade and dpkg: no gzip
    return Path(built.stdout.strip().splitlines()[-1])


@pytest.fixture
def later_safe(tmp_path_factory: pytest.TempPathFactory, deb: Path) -> Path:
    return later_release(tmp_path_factory.mktemp("later-safe"), older_may_open=True)


@pytest.fixture
def later_unsafe(tmp_path_factory: pytest.TempPathFactory, deb: Path) -> Path:
    return later_release(tmp_path_factory.mktemp("later-unsafe"), older_may_open=False)


class TablePC:
    """A throwaway root with the package installed by dpkg and a table database in it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = root / "var/lib/dealer-console/table.db"
        self.anchor = root / "etc/dealer-console/table-db.anchor"
        self.key = root / "etc/dealer-console/audit.key"  # the table's, as console.env names it

    def console(self, *args: str) -> subprocess.CompletedProcess[str]:
        script = self.root / "opt/dealer-console/current/bin/dealer-console"
        return subprocess.run([*launch(script, self.root), *args], capture_output=True,
                              text=True, timeout=300, cwd=self.root)

    def play(self, rounds: int, *, resume: bool) -> None:
        """Rounds played by the installed release, until ``rounds`` are complete in all."""
        done = self.console("simulate", "--profile", "washington-face-up", "--rounds",
                            str(rounds), "--seed", "7", "--devices", "in-process", "--db",
                            str(self.db), "--audit-key", str(self.key),
                            *(["--resume"] if resume else []))
        assert done.returncode == 0, done.stdout + done.stderr

    def release(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", str(TOOL), "--root", str(self.root), *args],
                              capture_output=True, text=True, timeout=900)

    def version(self) -> str:
        status = dpkg(self.root, "-s", "dealer-console").stdout
        assert "Status: install ok installed" in status
        return status.split("Version: ", 1)[1].split()[0]

    def rounds(self) -> list[tuple[int, str, str]]:
        conn = sqlite3.connect(self.db)
        try:
            return [(int(r), str(s), str(h)) for r, s, h in conn.execute(
                "SELECT r.round_id, r.status, e.hash FROM rounds r "
                "JOIN events e ON e.seq = r.last_seq ORDER BY r.round_id")]
        finally:
            conn.close()

    def log(self) -> str:
        return (self.root / "var/log/dealer-console-release/release.log").read_text()


def table_pc(root: Path, deb: Path) -> TablePC:
    pc = TablePC(new_root(root))
    dpkg(pc.root, "-i", str(deb))
    pc.play(3, resume=False)
    anchored = pc.console("table-db", "anchor", "--db", str(pc.db), "--anchor", str(pc.anchor))
    assert anchored.returncode == 0, anchored.stdout + anchored.stderr
    return pc


def files(folder: Path) -> dict[Path, bytes]:
    """Every file under ``folder`` with its bytes, but SQLite's shared-memory index, which
    any reader of a WAL database makes (the staging's backup reads the live database)."""
    found = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    return {p: data for p, data in found.items()
            if not p.name.endswith("-shm") and not (p.name.endswith("-wal") and not data)}


def complete(rounds: list[tuple[int, str, str]]) -> int:
    return sum(1 for _, status, _ in rounds if status == "complete")


def test_upgrade_then_rollback_keeps_every_round_and_the_audit_verifies(
        deb: Path, later_safe: Path, tmp_path: Path) -> None:
    pc = table_pc(tmp_path / "root", deb)
    assert pc.version() == "0.1.0"
    played_on_a = pc.rounds()
    assert complete(played_on_a) == 3

    up = pc.release("upgrade", str(later_safe))
    assert up.returncode == 0, up.stdout + up.stderr
    assert "staged 0.1.1: database: schema current" in up.stdout
    assert "self-test passed" in up.stdout and "audit: " in up.stdout
    assert pc.version() == "0.1.1"
    assert not (pc.root / "opt/dealer-console/releases/0.1.0").exists()
    backups = sorted((pc.db.parent / "backups").glob("table-before-0.1.1-*.db"))
    assert len(backups) == 1  # the postinst's own backup, before it migrated
    pc.play(6, resume=True)
    played_on_b = pc.rounds()
    assert complete(played_on_b) == 6
    assert played_on_b[:len(played_on_a) - 1] == played_on_a[:-1]  # A's complete rounds kept

    back = pc.release("rollback", str(deb))
    assert back.returncode == 0, back.stdout + back.stderr
    assert "staged 0.1.0: database: schema current" in back.stdout
    assert "rollback to 0.1.0 done: the installed release's self-test passed" in back.stdout
    assert pc.version() == "0.1.0"
    assert not (pc.root / "opt/dealer-console/releases/0.1.1").exists()
    assert pc.rounds() == played_on_b  # every round of both releases, as they were
    conn = sqlite3.connect(pc.db)
    assert conn.execute("SELECT name FROM _migrations_older_may_open ORDER BY name"
                        ).fetchall() == [("0003_events_by_kind",), ("0004_win_prints_by_award",),
                                         ("0005_wagers_by_seat",)]
    conn.close()
    audit = pc.console("audit", "verify", "--db", str(pc.db), "--key", str(pc.key))
    assert audit.returncode == 0, audit.stdout + audit.stderr
    pc.play(8, resume=True)  # and release A goes on writing to it
    assert complete(pc.rounds()) == 8
    log = pc.log().splitlines()
    assert [line.split()[1:5] for line in log] == [
        ["UPGRADE", "0.1.0", "->", "0.1.1"], ["UPGRADE", "0.1.0", "->", "0.1.1"],
        ["ROLLBACK", "0.1.1", "->", "0.1.0"], ["ROLLBACK", "0.1.1", "->", "0.1.0"]]
    assert log[-1].endswith("DONE: the installed release's self-test passed")
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", log[0])


def test_a_rollback_the_database_forbids_is_refused_before_anything_changes(
        deb: Path, later_unsafe: Path, tmp_path: Path) -> None:
    pc = table_pc(tmp_path / "root", deb)
    up = pc.release("upgrade", str(later_unsafe))
    assert up.returncode == 0, up.stdout + up.stderr
    pc.play(4, resume=True)
    before = files(pc.db.parent)
    release_b = sorted(p.relative_to(pc.root) for p in
                       (pc.root / "opt/dealer-console/releases/0.1.1").rglob("*"))
    back = pc.release("rollback", str(deb))
    assert back.returncode == 1
    assert "rollback 0.1.1 -> 0.1.0 refused, nothing changed: release 0.1.0 will not use " \
        "this table's database" in back.stderr
    assert "0005_wagers_by_seat" in back.stderr and "reads schema" in back.stderr
    assert pc.version() == "0.1.1"
    assert files(pc.db.parent) == before
    assert sorted(p.relative_to(pc.root) for p in
                  (pc.root / "opt/dealer-console/releases/0.1.1").rglob("*")) == release_b
    assert "ROLLBACK 0.1.1 -> 0.1.0 by " in pc.log() and "REFUSED: release 0.1.0" in pc.log()
    # the package's own preinst holds the same line for one who skips the tool
    direct = dpkg(pc.root, "-i", str(deb), check=False)
    assert direct.returncode != 0 and "written by a later console" in direct.stderr
    assert pc.version() == "0.1.1"


def test_the_wrong_direction_and_bad_usage_are_refused(deb: Path, tmp_path: Path) -> None:
    pc = table_pc(tmp_path / "root", deb)
    same = pc.release("upgrade", str(deb))
    assert same.returncode == 1
    assert "0.1.0 is not later than the installed 0.1.0 (use rollback)" in same.stderr
    assert pc.release("rollback", str(deb)).returncode == 1
    for bad in (["--frobnicate"], ["upgrade"], []):
        done = pc.release(*bad)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, bad
    assert pc.release("log").stdout.count("REFUSED") == 2


def test_the_release_log_is_never_written_through_a_link(deb: Path, tmp_path: Path) -> None:
    """An outside review: the release log was in the console's log folder, the service
    user's; a link left there as release.log had root (the tool runs with sudo) append its
    line to whatever it named, /etc/ld.so.preload included. The log is in a folder of root's
    now, and a link there is not written through either."""
    pc = table_pc(tmp_path / "root", deb)
    target = tmp_path / "ld.so.preload"  # stands for a file of root's elsewhere
    target.write_text("")
    old = pc.root / "var/log/dealer-console/release.log"
    old.parent.mkdir(parents=True, exist_ok=True)
    old.symlink_to(target)  # the service user's folder: the tool no longer writes there
    assert pc.release("upgrade", str(deb)).returncode == 1
    assert target.read_text() == "" and "REFUSED" in pc.log()
    logfile = pc.root / "var/log/dealer-console-release/release.log"
    logfile.unlink()
    logfile.symlink_to(target)
    refused = pc.release("upgrade", str(deb))
    assert refused.returncode == 1 and "the line is in the journal only" in refused.stderr
    assert target.read_text() == ""
