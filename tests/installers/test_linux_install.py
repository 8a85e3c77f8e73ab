"""The .deb installed by dpkg into a throwaway root, and the installed console's self-test
passing there and catching each fault: a changed file, a bad paytable, a broken hash chain,
a missing device; an update keeping the database; removal and purge keeping the data.
(Tampering with the environment and the system files: ``test_tamper.py``.)"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.installers.conftest import LINUX, Installed, dpkg, launch, run_script
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
    assert (root / "opt/dealer-console/current").resolve() == installed.release.resolve()
    # the environment was built at its final path: its scripts name it, not the build folder
    assert installed.console.read_text().startswith(
        "#!/opt/dealer-console/releases/0.1.0/bin/python -BIS\n")
    for script in (installed.release / "bin").iterdir():
        if script.is_file() and not script.is_symlink() and script.read_bytes()[:2] == b"#!":
            first = script.read_text().splitlines()[0]
            assert first.startswith(("#!/opt/dealer-console/releases/0.1.0/bin/python",
                                     "#!/bin/bash")), (script, first)
    assert os.readlink(installed.release / "bin/python3.11") == "/usr/bin/python3.11"
    assert "/opt/dealer-console/releases/0.1.0" in (installed.release / "pyvenv.cfg").read_text()
    assert os.readlink(root / "usr/bin/dealer-console") == \
        "/opt/dealer-console/current/bin/dealer-console"
    assert (installed.release / "bin/dealer-console-kiosk").stat().st_mode & 0o111
    env = (root / "etc/dealer-console/console.env").read_text()
    assert "DEALER_CONSOLE_PROFILE=washington-face-up" in env
    devices = (root / "etc/dealer-console/devices.toml").read_text()
    assert 'port = "/dev/dealer-console/shuffler"' in devices  # the udev rules' names
    assert (root / "etc/dealer-console/audit.key").stat().st_mode & 0o077 == 0
    unit = (root / "usr/lib/systemd/system/dealer-console.service").read_text()
    for setting in ("Type=notify", "WatchdogSec=", "Restart=always", "ExecStart=/usr/bin/sway"):
        assert setting in unit
    assert not (root / "etc/systemd/system/dealer-console.service").exists()
    assert (root / "etc/udev/rules.d/70-dealer-console.rules").is_file()
    assert "/var/log/dealer-console/*.log" in (root / "etc/logrotate.d/dealer-console").read_text()
    assert "NTP=" in (root / "etc/systemd/timesyncd.conf.d/dealer-console.conf").read_text()
    assert "--root: service user dealer-console not made" in installed.install_log


def test_dpkg_owns_and_verifies_every_file_and_keeps_the_configuration_as_conffiles(
        installed: Installed) -> None:
    root = installed.root
    owned = dpkg(root, "-L", "dealer-console").stdout.splitlines()
    assert "/opt/dealer-console/releases/0.1.0/lib/python3.11/site-packages/PySide6/__init__.py" \
        in owned  # the environment is the package's, not a script's leftovers
    assert "/usr/lib/systemd/system/dealer-console.service" in owned
    assert dpkg(root, "--verify", "dealer-console").stdout == ""
    conffiles = (root / "var/lib/dpkg/info/dealer-console.conffiles").read_text().split()
    for name in ("/etc/dealer-console/sway.conf", "/etc/dealer-console/console.env",
                 "/etc/dealer-console/devices.toml", "/etc/udev/rules.d/70-dealer-console.rules",
                 "/etc/logrotate.d/dealer-console",
                 "/etc/systemd/logind.conf.d/dealer-console.conf"):
        assert name in conffiles
    sway = root / "etc/dealer-console/sway.conf"
    original = sway.read_bytes()
    sway.write_text(original.decode().replace("HDMI-A-1", "DP-1"))
    try:  # a technician's edit is what dpkg --verify reports, and a conffile's
        assert "/etc/dealer-console/sway.conf" in dpkg(root, "--verify", check=False).stdout
    finally:
        sway.write_bytes(original)


def test_the_installed_console_passes_its_self_test(installed: Installed) -> None:
    log = installed.root / "var/log/dealer-console/self-test.log"
    done = installed.self_test("--log", str(log))
    assert done.returncode == 0, done.stdout + done.stderr
    manifest = installed.site / "dealer-console.manifest"
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()
    program = lines(done, "program")
    assert program and program[0].startswith("PASS") and digest in program[0]
    assert done.stdout.rstrip().endswith("SELF-TEST PASSED")
    from dealer_console.selftest.clock import clock_synchronised

    synced = clock_synchronised()  # this machine's kernel, as the installed console asks it
    assert ("NOTE  clock: " + ("synchronised" if synced else "NOT synchronised")) in done.stdout
    assert "PASS  program: " in log.read_text() and "SELF-TEST PASSED" in log.read_text()


def test_program_info_gives_the_version_and_the_manifests_digest(installed: Installed) -> None:
    python = installed.release / "bin" / "python"
    done = subprocess.run([str(python), "-BI", "-c", "from dealer_console import program_info "
                           "as p; print(p.version(), p.manifest_digest())"],
                          capture_output=True, text=True, timeout=60, check=True,
                          cwd=installed.root)  # not this folder: its own packages
    digest = hashlib.sha256((installed.site / "dealer-console.manifest").read_bytes())
    assert done.stdout.split() == ["0.1.0", digest.hexdigest()]
    from dealer_console import program_info  # this development copy has none
    assert program_info.manifest_digest() is None


def test_the_manifest_covers_the_program_and_its_paytables(installed: Installed) -> None:
    names = {line.split("  ", 1)[1] for line in
             (installed.site / "dealer-console.manifest").read_text().splitlines()
             if not line.startswith("#")}
    site = "lib/python3.11/site-packages/"
    for name in ("dealer_console/selftest/integrity.py", "ui/app.py", "drivers/assembly.py",
                 "config/paytables/wa-ace-high-1.toml", "serial/serialposix.py",
                 "PySide6/__init__.py"):
        assert site + name in names, name
    assert any(n.startswith(site + "PySide6/") and n.endswith(".so") for n in names)
    assert "bytecode/opt/dealer-console/releases/0.1.0/" + site + \
        "dealer_console/program_info.cpython-311.pyc" in names
    assert not any("__pycache__" in n for n in names)
    for name in ("bin/dealer-console", "bin/dealer-console-kiosk", "bin/python",
                 "system/sway.conf", "system/console.env", "system/70-dealer-console.rules",
                 "system/dealer-console.service", "pyvenv.cfg",
                 "/usr/lib/systemd/system/dealer-console.service",
                 "/opt/dealer-console/current"):
        assert name in names, name
    # every file of the release is listed (the manifest itself aside)
    on_disk = {p.relative_to(installed.release).as_posix()
               for p in installed.release.rglob("*") if p.is_file() or p.is_symlink()}
    assert on_disk - names == {site + "dealer-console.manifest"}


def test_a_changed_program_file_fails_the_self_test(installed: Installed) -> None:
    target = installed.site / "dealer_console" / "settlement" / "settle.py"
    with changed(target, '"""', '"""Changed at the table. '):
        done = installed.self_test()
    assert done.returncode == 1
    [program] = lines(done, "program")
    assert program.startswith("FAIL")
    assert "changed: lib/python3.11/site-packages/dealer_console/settlement/settle.py" in program


def test_a_module_dropped_into_the_program_fails_the_self_test(installed: Installed) -> None:
    extra = installed.site / "drivers" / "extra.py"
    extra.write_text("print('not approved')\n")
    try:
        done = installed.self_test()
    finally:
        extra.unlink()
    assert done.returncode == 1
    assert "not in the manifest: lib/python3.11/site-packages/drivers/extra.py" in \
        lines(done, "program")[0]


def test_a_paytable_raised_at_the_table_fails_the_self_test(installed: Installed) -> None:
    """The Ace-High table's "both" line raised far beyond what any casino pays: a changed
    file of the release, so the launcher's check fails before anything of the release runs
    (the paytables' own verdict, over 100%, is the dev copy's self-test's, in
    tests/math/test_one_verdict.py)."""
    table = installed.site / "config" / "paytables" / "wa-ace-high-1.toml"
    with changed(table, "pays = 8", "pays = 80"):
        done = installed.self_test()
    assert done.returncode == 1
    [program] = lines(done, "program")
    assert program.startswith("FAIL  program: changed: lib/python3.11/site-packages/config/"
                              "paytables/wa-ace-high-1.toml")
    assert lines(done, "paytables") == []  # nothing of the release ran
    assert "NOTE  no other item was run" in done.stdout


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
    [database] = lines(done, "database")  # the guard taken away is named too
    assert database.startswith("FAIL") and "the trigger events_no_update is missing" in database


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
    env = installed.root / "etc/dealer-console/console.env"
    original = env.read_bytes()
    env.write_text(original.decode().replace("=washington-face-up", "=nevada-face-up"))
    backups = db.parent / "backups"
    for n in range(12):  # older backups: the newest ten are kept
        (backups / f"table-before-0.0.{n}-20260101T0000{n:02d}Z.db").write_bytes(b"old")
        os.utime(backups / f"table-before-0.0.{n}-20260101T0000{n:02d}Z.db", (n, n))
    try:
        done = dpkg(installed.root, "-i", str(installed.deb))
        [backup] = backups.glob("table-before-0.1.0-*.db")
        kept = {p.name for p in backups.glob("table-before-0.0.*")}  # with the new, ten
        assert kept == {f"table-before-0.0.{n}-20260101T0000{n:02d}Z.db" for n in range(3, 12)}
        assert f"{events} events" in done.stdout  # `dealer-console backup` verified it
        assert "schema current" in done.stdout
        for copy in (db, backup):
            assert sqlite3.connect(copy).execute("SELECT COUNT(*) FROM events"
                                                 ).fetchone()[0] == events
        assert "DEALER_CONSOLE_PROFILE=nevada-face-up" in env.read_text()  # a conffile, kept
    finally:
        env.write_bytes(original)
        for leftover in [*db.parent.glob("table.db*"), *(db.parent / "backups").glob("*"),
                         installed.root / "etc/dealer-console/table-db.anchor"]:
            leftover.unlink(missing_ok=True)


def test_remove_and_purge_take_the_program_and_keep_the_data(installed: Installed,
                                                             tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(installed.root, root, symlinks=True)
    (root / "var/lib/dealer-console/table.db").write_bytes(b"the table's data")
    dpkg(root, "-r", "dealer-console")
    assert not (root / "opt/dealer-console/releases").exists()
    assert not (root / "usr/lib/systemd/system/dealer-console.service").exists()
    assert (root / "etc/dealer-console/sway.conf").is_file()  # conffiles stay until purge
    assert (root / "var/lib/dealer-console/table.db").read_bytes() == b"the table's data"
    purged = dpkg(root, "--purge", "dealer-console")
    assert not (root / "etc/dealer-console/sway.conf").exists()
    assert not (root / "etc/udev/rules.d/70-dealer-console.rules").exists()
    assert (root / "var/lib/dealer-console/table.db").read_bytes() == b"the table's data"
    assert (root / "etc/dealer-console/audit.key").is_file()  # evidence: never removed
    assert "kept" in purged.stdout and "audit.key" in purged.stdout


def test_a_copy_of_the_installed_root_runs_as_the_original(installed: Installed,
                                                           tmp_path: Path) -> None:
    """A golden image: the tree made in one place runs from another (nothing in it names
    the folder it was built or installed in)."""
    root = tmp_path / "image"
    shutil.copytree(installed.root, root, symlinks=True)
    release = root / "opt/dealer-console/releases/0.1.0"
    for text_file in [*(release / "bin").iterdir(), release / "pyvenv.cfg"]:
        if text_file.is_file() and not text_file.is_symlink():
            assert str(installed.root) not in text_file.read_text(errors="replace")
            assert "/dealer-console-0.1.0/root" not in text_file.read_text(errors="replace")
    done = subprocess.run([*launch(root / "opt/dealer-console/current/bin/dealer-console", root),
                           "self-test", "--profile", "washington-face-up", "--db",
                           str(root / "var/lib/dealer-console/table.db"), "--require-manifest"],
                          capture_output=True, text=True, timeout=120, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS  program" in done.stdout and "PASS  system files" in done.stdout


def test_bad_options_are_one_line_and_change_nothing(tmp_path: Path) -> None:
    for script in ("install.sh", "build.sh", "build-deb.sh"):
        done = subprocess.run(["bash", str(LINUX / script), "--frobnicate"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, script
        assert done.stderr.count("\n") == 1 and "--frobnicate" in done.stderr


def test_the_deb_declares_what_is_true_and_qts_libraries(installed: Installed) -> None:
    listing = subprocess.run(["dpkg-deb", "-c", str(installed.deb)], capture_output=True,
                             text=True, check=True).stdout
    for path in ("./usr/share/dealer-console/install.sh",
                 "./opt/dealer-console/releases/0.1.0/lib/python3.11/site-packages/"
                 "dealer-console.manifest", "./usr/lib/systemd/system/dealer-console.service",
                 "./usr/share/doc/dealer-console/install.md",
                 "./usr/share/doc/dealer-console/copyright"):
        assert path in listing, path
    assert ".whl" not in listing  # nothing is fetched or unpacked on the table PC
    fields = subprocess.run(["dpkg-deb", "-f", str(installed.deb)], capture_output=True,
                            text=True, check=True).stdout
    depends = fields.split("Depends:", 1)[1].split("Description:", 1)[0]
    for library in ("libxcb-cursor0", "libegl1", "sway", "libusb-1.0-0"):
        assert library in depends
    # the environment's compiled modules are CPython 3.11 x86-64 builds: said so exactly
    assert "python3.11," in depends and "python3 (" not in depends
    assert "Architecture: amd64" in fields
    assert "libc6 (>= 2.34)" in depends  # PySide6's manylinux_2_34 wheels
    size_kib = int(fields.split("Installed-Size:", 1)[1].split()[0])
    unpacked = sum(p.stat().st_size for p in installed.release.rglob("*") if p.is_file()
                   and not p.is_symlink()) // 1024
    assert unpacked <= size_kib <= unpacked * 1.2 + 2048
    copyright_text = (installed.root / "usr/share/doc/dealer-console/copyright").read_text()
    assert "LGPL-3.0-only" in copyright_text and "PySide6" in copyright_text
    md5sums = (installed.root / "var/lib/dpkg/info/dealer-console.md5sums").read_text()
    assert "usr/lib/systemd/system/dealer-console.service" in md5sums
    scripts = subprocess.run(["dpkg-deb", "-I", str(installed.deb), "postinst"],
                             capture_output=True, text=True, check=True).stdout
    assert "/usr/share/dealer-console/install.sh" in scripts


def test_the_same_source_builds_the_same_package(installed: Installed, tmp_path: Path) -> None:
    """Reproducible: a second build of the same tree is the same .deb, byte for byte (the
    venv's paths, the scripts' RECORD lines, bytecode, time stamps and gzip headers fixed)."""
    again = run_script(LINUX / "build-deb.sh", "--out", str(tmp_path), "--quick")
    rebuilt = Path(again.stdout.strip().splitlines()[-1])
    assert rebuilt.read_bytes() == installed.deb.read_bytes()


def test_an_older_package_over_a_later_database_is_refused_before_anything_changes(
        installed: Installed) -> None:
    """The preinst reads the database's schema from its header: one a later console wrote
    stops the install before a file is unpacked or the database touched; the installed
    release stays installed and configured."""
    db = installed.db
    _played_table(db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")  # as a later console's schema would say
    conn.commit()
    conn.close()
    before = db.read_bytes()
    try:
        done = dpkg(installed.root, "-i", str(installed.deb), check=False)
        assert done.returncode != 0
        assert "written by a later console (schema 99; this release reads up to" in \
            done.stderr
        assert db.read_bytes() == before
        assert not list((db.parent / "backups").glob("table-before-*"))
        status = dpkg(installed.root, "-s", "dealer-console").stdout
        assert "Status: install ok installed" in status
        assert installed.console.is_file()
    finally:
        for leftover in [*db.parent.glob("table.db*"), *(db.parent / "backups").glob("*")]:
            leftover.unlink(missing_ok=True)


def test_the_install_step_refuses_a_database_owner_who_does_not_exist(installed: Installed
                                                                     ) -> None:
    """``--as-user`` names who runs the database steps (a live install: the service user);
    a name that is no user stops the step before it changes anything."""
    done = subprocess.run(["bash", str(installed.root / "usr/share/dealer-console/install.sh"),
                           "--root", str(installed.root), "--as-user", "no-such-user-here"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "install.sh: --as-user no-such-user-here: no such user" in done.stderr
    assert "release 0.1.0" not in done.stdout
