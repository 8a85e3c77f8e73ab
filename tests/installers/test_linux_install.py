"""The Linux installer run into a throwaway root from the .deb, and the installed console's
self-test passing there and catching each fault: a changed file, a bad paytable, a broken
hash chain, a missing device."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.installers.conftest import LINUX, Installed, run_script
from tests.round.helpers import make_table, play_round


@contextmanager
def changed(path: Path, old: str, new: str) -> Iterator[None]:
    """``path`` with ``old`` replaced by ``new`` for the block, then restored."""
    original = path.read_bytes()
    text = original.decode()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    try:
        yield
    finally:
        path.write_bytes(original)


def lines(done: subprocess.CompletedProcess[str], item: str) -> list[str]:
    return [line for line in done.stdout.splitlines() if line.split(":")[0].split(None, 1)[-1]
            == item]


def test_the_install_puts_each_part_where_the_table_pc_expects_it(installed: Installed) -> None:
    root = installed.root
    assert (root / "opt/dealer-console/current").resolve().name == "0.1.0"
    assert installed.console.is_file()
    release = (root / "opt/dealer-console/current").resolve()
    assert installed.console.read_text().startswith(f"#!{release}/bin/python")
    assert (release / "bin/python").is_symlink()  # the system's interpreter, not a copy
    assert (root / "opt/dealer-console/current/bin/dealer-console-kiosk").stat().st_mode & 0o111
    env = (root / "etc/dealer-console/console.env").read_text()
    assert "DEALER_CONSOLE_PROFILE=washington-face-up" in env
    devices = (root / "etc/dealer-console/devices.toml").read_text()
    assert 'port = "/dev/dealer-console/shuffler"' in devices  # the udev rules' names
    assert (root / "etc/dealer-console/audit.key").stat().st_mode & 0o077 == 0
    unit = (root / "etc/systemd/system/dealer-console.service").read_text()
    for setting in ("Type=notify", "WatchdogSec=", "Restart=always", "ExecStart=/usr/bin/sway"):
        assert setting in unit
    assert (root / "etc/udev/rules.d/70-dealer-console.rules").is_file()
    assert "/var/log/dealer-console/*.log" in (root / "etc/logrotate.d/dealer-console").read_text()
    assert "NTP=" in (root / "etc/systemd/timesyncd.conf.d/dealer-console.conf").read_text()
    assert "--root: service user dealer-console not made" in installed.install_log


def test_the_installed_console_passes_its_self_test(installed: Installed) -> None:
    log = installed.root / "var/log/dealer-console/self-test.log"
    done = installed.self_test("--log", str(log))
    assert done.returncode == 0, done.stdout + done.stderr
    manifest = installed.site / "dealer-console.manifest"
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()
    program = lines(done, "program")
    assert program and program[0].startswith("PASS") and digest in program[0]
    assert done.stdout.rstrip().endswith("SELF-TEST PASSED")
    assert "PASS  program: " in log.read_text() and "SELF-TEST PASSED" in log.read_text()


def test_program_info_gives_the_version_and_the_manifests_digest(installed: Installed) -> None:
    python = installed.console.parent / "python"
    done = subprocess.run([str(python), "-c", "from dealer_console import program_info as p; "
                           "print(p.version(), p.manifest_digest())"],
                          capture_output=True, text=True, timeout=60, check=True,
                          cwd=installed.root)  # not this folder: its own packages
    digest = hashlib.sha256((installed.site / "dealer-console.manifest").read_bytes())
    assert done.stdout.split() == ["0.1.0", digest.hexdigest()]
    from dealer_console import program_info  # this development copy has none
    assert program_info.manifest_digest() is None


def test_the_manifest_covers_the_program_and_its_paytables(installed: Installed) -> None:
    names = {line.split("  ", 1)[1] for line in
             (installed.site / "dealer-console.manifest").read_text().splitlines()}
    assert "dealer_console/selftest/integrity.py" in names
    assert "ui/app.py" in names and "drivers/assembly.py" in names
    assert "config/paytables/wa-ace-high-1.toml" in names


def test_a_changed_program_file_fails_the_self_test(installed: Installed) -> None:
    target = installed.site / "dealer_console" / "settlement" / "settle.py"
    with changed(target, '"""', '"""Changed at the table. '):
        done = installed.self_test()
    assert done.returncode == 1
    [program] = lines(done, "program")
    assert program.startswith("FAIL") and "changed: dealer_console/settlement/settle.py" in program


def test_a_module_dropped_into_the_program_fails_the_self_test(installed: Installed) -> None:
    extra = installed.site / "drivers" / "extra.py"
    extra.write_text("print('not approved')\n")
    try:
        done = installed.self_test()
    finally:
        extra.unlink()
    assert done.returncode == 1
    assert "not in the manifest: drivers/extra.py" in lines(done, "program")[0]


def test_a_paytable_over_100_percent_fails_the_self_test(installed: Installed) -> None:
    # the Ace-High table's "both" line raised far beyond what any casino pays
    table = installed.site / "config" / "paytables" / "wa-ace-high-1.toml"
    with changed(table, "pays = 8", "pays = 80"):
        done = installed.self_test()
    assert done.returncode == 1
    [paytables] = lines(done, "paytables")
    assert paytables.startswith("FAIL") and "wa-ace-high-1" in paytables
    assert "over 100%" in paytables
    assert lines(done, "program")[0].startswith("FAIL")  # and it is not the approved file


def _played_table(db: Path) -> None:
    table = make_table(db.parent, "washington-face-up", name=db.name)
    play_round(table, seed=5)
    table.db.close()


def test_a_broken_hash_chain_fails_the_self_test(installed: Installed, tmp_path: Path) -> None:
    db = installed.db
    _played_table(db)
    try:
        good = installed.self_test()
        assert lines(good, "hash chain")[0].startswith("PASS"), good.stdout
        assert lines(good, "last round")[0].startswith("PASS"), good.stdout
        conn = sqlite3.connect(db)
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET payload = replace(payload, '1', '2') WHERE seq = 3")
        conn.commit()
        conn.close()
        done = installed.self_test()
    finally:
        for leftover in db.parent.glob("table.db*"):
            leftover.unlink()
    assert done.returncode == 1
    [chain] = lines(done, "hash chain")
    assert chain.startswith("FAIL") and "event 3" in chain


def test_a_device_that_does_not_answer_fails_the_self_test(installed: Installed,
                                                           tmp_path: Path) -> None:
    link = tmp_path / "shuffler"
    devices = tmp_path / "devices.toml"
    devices.write_text(f'[shuffler]\nport = "{link}"\n')
    double = subprocess.Popen([sys.executable, "-m", "dealer_console.cli", "sim", "shuffler",
                               "--link", str(link), "--duration", "60"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(200):
            if link.exists():
                break
            time.sleep(0.05)
        answering = installed.self_test("--devices", str(devices))
    finally:
        double.terminate()
        double.wait(timeout=30)
    assert answering.returncode == 0, answering.stdout
    assert lines(answering, "device shuffler")[0].startswith("PASS")
    link.unlink(missing_ok=True)
    done = installed.self_test("--devices", str(devices), "--wait", "1")
    assert done.returncode == 1
    [shuffler] = lines(done, "device shuffler")
    assert shuffler.startswith("FAIL") and str(link) in shuffler


def test_an_update_keeps_the_database_with_a_verified_backup_first(installed: Installed
                                                                   ) -> None:
    db = installed.db
    _played_table(db)
    events = sqlite3.connect(db).execute("SELECT COUNT(*) FROM events").fetchone()[0]
    try:
        done = run_script(installed.root / "usr/share/dealer-console/install.sh",
                          "--root", str(installed.root), "--reuse-deps", sys.prefix)
        [backup] = (db.parent / "backups").glob("table-before-0.1.0-*.db")
        assert f"{events} events" in done.stdout  # `dealer-console backup` verified it
        assert "schema current" in done.stdout
        for copy in (db, backup):
            assert sqlite3.connect(copy).execute("SELECT COUNT(*) FROM events"
                                                 ).fetchone()[0] == events
        assert "kept " + str(installed.root / "etc/dealer-console/console.env") in done.stdout
    finally:
        for leftover in [*db.parent.glob("table.db*"), *(db.parent / "backups").glob("*")]:
            leftover.unlink()


def test_uninstall_removes_the_program_and_keeps_the_data(installed: Installed,
                                                          tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(installed.root, root, symlinks=True)
    (root / "var/lib/dealer-console/table.db").write_bytes(b"the table's data")
    run_script(LINUX / "uninstall.sh", "--root", str(root))
    assert not (root / "opt/dealer-console").exists()
    assert not (root / "etc/systemd/system/dealer-console.service").exists()
    assert (root / "var/lib/dealer-console/table.db").read_bytes() == b"the table's data"
    assert (root / "etc/dealer-console/audit.key").is_file()


def test_bad_options_are_one_line_and_change_nothing(tmp_path: Path) -> None:
    for script in ("install.sh", "uninstall.sh", "build.sh", "build-deb.sh"):
        done = subprocess.run(["bash", str(LINUX / script), "--frobnicate"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, script
        assert done.stderr.count("\n") == 1 and "--frobnicate" in done.stderr


def test_the_deb_holds_the_payload_and_declares_qts_libraries(installed: Installed) -> None:
    listing = subprocess.run(["dpkg-deb", "-c", str(installed.deb)], capture_output=True,
                             text=True, check=True).stdout
    for path in ("./usr/share/dealer-console/install.sh", "./usr/share/dealer-console/"
                 "dealer-console.manifest", "./usr/share/dealer-console/files/"
                 "dealer-console.service", "./usr/share/doc/dealer-console/install.md"):
        assert path in listing
    assert any(line.endswith(".whl") for line in listing.splitlines())
    control = subprocess.run(["dpkg-deb", "-f", str(installed.deb), "Depends", "Package"],
                             capture_output=True, text=True, check=True).stdout
    for library in ("libxcb-cursor0", "libegl1", "sway", "python3-venv", "libusb-1.0-0"):
        assert library in control
    scripts = subprocess.run(["dpkg-deb", "-I", str(installed.deb), "postinst"],
                             capture_output=True, text=True, check=True).stdout
    assert "/usr/share/dealer-console/install.sh" in scripts
