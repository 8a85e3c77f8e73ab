"""Each way of running other code on an installed table PC that issue 26 found passing the
self-test, done to the installed package, fails the self-test with a reason naming the
file: a ``.pth`` file dropped into site-packages, a pyserial and a PySide6 file changed,
poisoned bytecode in ``__pycache__``, the launcher changed, the kiosk script switched to
``--simulated``, a terminal bound to a key in ``sway.conf``; and the other system files
(the unit and its overrides, the udev rules, ``console.env``). What a technician may change
(output names, device serial numbers, the profile) still passes."""

from __future__ import annotations

import hashlib
import os
import py_compile
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.installers.conftest import REPO, Installed, launch

SITE = "lib/python3.11/site-packages/"


@contextmanager
def tampered(path: Path, text: str | None = None, *, append: str = "",
             replace: tuple[str, str] | None = None, data: bytes | None = None
             ) -> Iterator[Path]:
    """``path`` written (a new file, appended to, one string replaced, or raw bytes) for the
    block, then put back as it was (or removed)."""
    original = path.read_bytes() if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    if data is not None:
        path.write_bytes(data)
    elif text is not None:
        path.write_text(text)
    else:
        assert original is not None
        body = original.decode()
        if replace is not None:
            assert replace[0] in body, (path, replace[0])
            body = body.replace(*replace)
        path.write_text(body + append)
    try:
        yield path
    finally:
        if original is None:
            path.unlink()
        else:
            path.write_bytes(original)


def failing(done: subprocess.CompletedProcess[str], item: str) -> str:
    """The self-test's FAIL line for ``item`` (it must have failed)."""
    assert done.returncode == 1, done.stdout + done.stderr
    found = [line for line in done.stdout.splitlines()
             if line.startswith(f"FAIL  {item}: ")]
    assert found, done.stdout
    return found[0]


def test_a_pth_file_dropped_into_site_packages_fails_and_is_never_run(
        installed: Installed, tmp_path: Path) -> None:
    marker = tmp_path / "pth-ran"
    code = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')\n"
    with tampered(installed.site / "zz-extra.pth", code):
        done = installed.self_test()
    assert "not in the manifest: " + SITE + "zz-extra.pth" in failing(done, "program")
    assert not marker.exists()  # the launcher (-S) never executes a .pth file


HIDING = """import os, pathlib
pathlib.Path({marker!r}).write_text("ran")
os.remove(__file__)  # and gone before anything looks
iterdump = None
"""


def test_a_module_an_import_would_find_never_runs_and_is_named(installed: Installed,
                                                                tmp_path: Path) -> None:
    """An outside review dropped ``sqlite_dump.py`` into site-packages (sqlite-utils imports
    it when it is there): it ran before the self-test and removed itself, and the program
    item passed. The launcher now holds the files to the manifest before the release's
    packages are on the path: the module never runs, the failure names it, and ``--log``
    keeps it."""
    marker = tmp_path / "dump-ran"
    log = tmp_path / "self-test.log"
    with tampered(installed.site / "sqlite_dump.py", HIDING.format(marker=str(marker))):
        done = installed.self_test("--log", str(log))
        assert (installed.site / "sqlite_dump.py").exists()
    assert not marker.exists()
    assert "not in the manifest: " + SITE + "sqlite_dump.py" in failing(done, "program")
    assert "SELF-TEST FAILED" in done.stdout
    assert "FAIL  program: not in the manifest: " + SITE + "sqlite_dump.py" in log.read_text()


def test_the_file_check_itself_changed_is_refused_before_it_runs(installed: Installed,
                                                                  tmp_path: Path) -> None:
    """The launcher runs the check only when its file has the digest the build wrote into
    the launcher: a check changed to pass everything never runs."""
    marker = tmp_path / "check-ran"
    check = installed.site / "dealer_console/selftest/program_files.py"
    with tampered(check, append=f"\nimport pathlib; pathlib.Path({str(marker)!r}).touch()\n"):
        done = installed.self_test()
    assert not marker.exists()
    assert "changed: " + SITE + "dealer_console/selftest/program_files.py (the file check " \
        "itself)" in failing(done, "program")


def test_a_module_changed_with_its_manifest_line_is_told_before_it_runs(
        installed: Installed, tmp_path: Path) -> None:
    """An outside review changed a module and its line in the manifest: the check passes it,
    it runs, puts both files back and the launcher's result with them, and the self-test's
    own line shows the approved manifest's digest. What it cannot take back is the
    launcher's first line, said before any code of the release ran: the manifest it checked,
    not the approved one."""
    target = installed.site / "drivers/selftest_cmd.py"
    manifest = installed.site / "dealer-console.manifest"
    original, approved = target.read_bytes(), manifest.read_bytes()
    marker = tmp_path / "ran"
    payload = original + f"""
def _put_back():
    import pathlib
    from dealer_console.selftest import program_files as pf
    pathlib.Path({str(marker)!r}).write_text("ran")
    pathlib.Path(__file__).write_bytes({original!r})
    pathlib.Path({str(manifest)!r}).write_bytes({approved!r})
    pf.AT_LAUNCH = pf.check_release(pf.AT_LAUNCH.release_dir, pf.AT_LAUNCH.manifest)
_put_back()
""".encode()
    name = target.relative_to(installed.release).as_posix()
    line = f"{hashlib.sha256(original).hexdigest()}  {name}\n".encode()
    forged = approved.replace(line, f"{hashlib.sha256(payload).hexdigest()}  {name}\n".encode())
    try:
        target.write_bytes(payload)
        manifest.write_bytes(forged)
        done = installed.self_test()
    finally:
        target.write_bytes(original)
        manifest.write_bytes(approved)
    assert marker.exists()  # a changed manifest is the approved digest's to catch
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"NOTE  manifest sha256 {hashlib.sha256(forged).hexdigest()}: "
                            "every file matches it, checked by the launcher before"), first
    assert hashlib.sha256(approved).hexdigest() not in first


def test_a_file_name_that_is_not_utf8_is_named_and_logged(installed: Installed,
                                                          tmp_path: Path) -> None:
    """An outside review added a file whose name is not UTF-8: the refusal broke writing it
    (a traceback, status 1, no log line, so the kiosk showed no reason). It is named with the
    byte escaped, and gui ends as a refusal does."""
    odd = os.path.join(os.fsencode(installed.site), b"odd-\xff.py")
    log = tmp_path / "self-test.log"
    with open(odd, "wb"):
        pass
    try:
        done = installed.run("gui", env={"DEALER_CONSOLE_SELFTEST_LOG": str(log)})
        tested = installed.self_test()
    finally:
        os.remove(odd)
    assert done.returncode == 2, done.stderr
    named = "not in the manifest: " + SITE + "odd-\\xff.py"
    assert named in done.stderr.splitlines()[-1]
    assert named in log.read_text()
    assert named in failing(tested, "program")


@pytest.mark.parametrize("name", ["serial/serialposix.py", "PySide6/__init__.py"])
def test_a_changed_dependency_file_fails(installed: Installed, name: str) -> None:
    with tampered(installed.site / name, append="\nimport os  # changed at the table\n"):
        done = installed.self_test()
    assert "changed: " + SITE + name in failing(done, "program")


def test_a_changed_compiled_module_of_a_dependency_fails(installed: Installed) -> None:
    library = next((installed.site / "shiboken6").glob("Shiboken*.so"))
    original = library.read_bytes()
    with tampered(library, data=original[:-1] + bytes([original[-1] ^ 1])):
        done = installed.self_test()
    assert "changed: " + str(library.relative_to(installed.release)) in failing(done, "program")


def test_poisoned_bytecode_fails_and_is_never_read(installed: Installed,
                                                  tmp_path: Path) -> None:
    """A ``.pyc`` compiled from other source, put where Python would load it by default (a
    module's ``__pycache__``): never read (the launcher reads bytecode only from the
    release's ``bytecode/`` folder), and named. The release's own bytecode changed: named."""
    source = tmp_path / "poison.py"
    source.write_text("print('poisoned')\n")
    poison = Path(py_compile.compile(str(source), cfile=str(tmp_path / "poison.pyc"),
                                     invalidation_mode=py_compile.PycInvalidationMode.
                                     UNCHECKED_HASH)).read_bytes()
    cached = installed.site / "dealer_console/__pycache__/program_info.cpython-311.pyc"
    with tampered(cached, data=poison):
        done = installed.self_test()
    cached.parent.rmdir()
    assert "poisoned" not in done.stdout
    assert "not in the manifest: " + SITE + "dealer_console/__pycache__/program_info." \
        "cpython-311.pyc" in failing(done, "program")
    shipped = next((installed.release / "bytecode/opt").rglob(
        "site-packages/dealer_console/program_info.cpython-311.pyc"))
    with tampered(shipped, data=poison):
        done = installed.self_test()
    assert "changed: " + str(shipped.relative_to(installed.release)) in failing(done, "program")


def test_the_launcher_reads_bytecode_from_the_release_only(installed: Installed) -> None:
    """The standard library's bytecode too comes from the release's (listed) folder."""
    launcher = installed.console.read_text().splitlines()
    setup = "\n".join(line for line in launcher[1:] if not line.startswith(
        ("from dealer_console", "sys.exit", "#")))
    probe = installed.release / "bin/probe-bytecode"
    body = launcher[0] + "\n" + setup + "\nimport json\nprint(json.__spec__.cached)\n"
    with tampered(probe, body):
        done = subprocess.run(launch(probe, installed.root), capture_output=True, text=True,
                              timeout=60, check=True)
    assert done.stdout.strip() == str(installed.release / "bytecode/usr/lib/python3.11/json/"
                                      "__init__.cpython-311.pyc")


def test_a_changed_launcher_fails(installed: Installed) -> None:
    launcher = installed.release / "bin/dealer-console"
    with tampered(launcher, replace=("import sys\n", "import sys\nimport os\n")):
        done = installed.self_test()
    assert "changed: bin/dealer-console" in failing(done, "program")


def test_the_kiosk_script_switched_to_simulated_devices_fails(installed: Installed) -> None:
    kiosk = installed.release / "bin/dealer-console-kiosk"
    with tampered(kiosk, replace=("--devices /etc/dealer-console/devices.toml", "--simulated")):
        done = installed.self_test()
    assert "changed: bin/dealer-console-kiosk" in failing(done, "program")


def test_the_interpreter_link_swapped_fails(installed: Installed, tmp_path: Path) -> None:
    link = installed.release / "bin/python3"
    target = link.readlink()
    link.unlink()
    link.symlink_to(sys.executable)
    try:
        done = installed.self_test()
    finally:
        link.unlink()
        link.symlink_to(target)
    assert "changed: bin/python3" in failing(done, "program")


def test_a_terminal_bound_to_a_key_in_sway_conf_fails(installed: Installed) -> None:
    sway = installed.root / "etc/dealer-console/sway.conf"
    with tampered(sway, append="bindsym Mod4+Return exec foot\n"):
        done = installed.self_test()
    line = failing(done, "system files")
    assert str(sway) in line and "bindsym Mod4+Return exec foot" in line
    with tampered(sway, replace=("exec /opt/dealer-console/current/bin/dealer-console-kiosk",
                                 "exec /usr/bin/foot")):
        done = installed.self_test()
    assert str(sway) in failing(done, "system files")
    shipped = installed.release / "system/sway.conf"  # the reference copy is the manifest's
    with tampered(shipped, append="bindsym Mod4+Return exec foot\n"):
        done = installed.self_test()
    assert "changed: system/sway.conf" in failing(done, "program")


def test_a_changed_or_overridden_unit_fails(installed: Installed) -> None:
    unit = installed.root / "usr/lib/systemd/system/dealer-console.service"
    with tampered(unit, replace=("User=dealer-console", "User=root")):
        done = installed.self_test()
    assert "changed: /usr/lib/systemd/system/dealer-console.service" in failing(done, "program")
    drop_in = installed.root / "etc/systemd/system/dealer-console.service.d/local.conf"
    with tampered(drop_in, "[Service]\nExecStartPre=/bin/sh -c 'id > /tmp/x'\n"):
        done = installed.self_test()
    drop_in.parent.rmdir()
    assert "/etc/systemd/system/dealer-console.service.d overrides" in \
        failing(done, "system files")


def test_a_udev_rule_that_runs_a_program_fails(installed: Installed) -> None:
    rules = installed.root / "etc/udev/rules.d/70-dealer-console.rules"
    with tampered(rules, append='SUBSYSTEM=="tty", RUN+="/bin/sh -c id"\n'):
        done = installed.self_test()
    line = failing(done, "system files")
    assert str(rules) in line and "RUN+=" in line


def test_a_variable_added_to_console_env_fails(installed: Installed) -> None:
    env = installed.root / "etc/dealer-console/console.env"
    with tampered(env, append="LD_PRELOAD=/tmp/hook.so\n"):
        done = installed.self_test()
    line = failing(done, "system files")
    assert str(env) in line and "LD_PRELOAD" in line


def test_what_a_technician_sets_still_passes(installed: Installed) -> None:
    etc = installed.root / "etc"
    with tampered(etc / "dealer-console/sway.conf",
                  replace=("set $dealer HDMI-A-1", "set $dealer DP-2"),
                  append="output DP-2 resolution 1920x1080 transform 90\n"), \
            tampered(etc / "udev/rules.d/70-dealer-console.rules",
                     replace=('"SHUFFLER0001"', '"A10K3Z9Q"')), \
            tampered(etc / "dealer-console/console.env",
                     replace=("=washington-face-up", "=nevada-face-up")):
        done = installed.self_test()
    assert done.returncode == 0, done.stdout
    assert "PASS  system files" in done.stdout


def test_the_manifest_names_the_release_version_build_and_lock(installed: Installed,
                                                               tmp_path: Path) -> None:
    manifest = (installed.site / "dealer-console.manifest").read_text().splitlines()
    header = dict(line[2:].split(" ", 1) for line in manifest if line.startswith("# "))
    assert header["version"] == "0.1.0"
    assert header["build"]
    lock = (REPO / "requirements.lock").read_bytes()
    assert header["lock-sha256"] == hashlib.sha256(lock).hexdigest()
    # the same files as another version, or on another lock, give another digest
    make = REPO / "installers/linux/make_manifest.py"
    digests = set()
    other_lock = tmp_path / "other.lock"
    other_lock.write_bytes(lock + b"# one more line\n")
    for version, lock_file in (("0.1.0", REPO / "requirements.lock"), ("0.1.1",
                               REPO / "requirements.lock"), ("0.1.0", other_lock)):
        out = tmp_path / f"{version}-{lock_file.name}.manifest"
        subprocess.run([sys.executable, str(make), "--stage", str(installed.root), "--release",
                        "/opt/dealer-console/releases/0.1.0", "--version", version, "--build",
                        header["build"], "--lock", str(lock_file), "--out", str(out)],
                       check=True, capture_output=True, timeout=300)
        digests.add(hashlib.sha256(out.read_bytes()).hexdigest())
    assert len(digests) == 3


def test_the_release_holds_exactly_the_locked_distributions(installed: Installed) -> None:
    locked = {}
    for line in (REPO / "requirements.lock").read_text().splitlines():
        if "==" in line:
            name, version = line.split(" ")[0].split("==")
            locked[name] = version
    assert all("--hash=sha256:" in chunk for chunk in
               (REPO / "requirements.lock").read_text().split("==")[1:])
    found = {}
    for meta in installed.site.glob("*.dist-info/METADATA"):
        fields = dict(line.split(": ", 1) for line in meta.read_text().splitlines()[:5]
                      if ": " in line)
        name = fields["Name"].lower().replace("_", "-").replace(".", "-")
        found[name] = fields["Version"]
    assert found.pop("dealer-console") == "0.1.0"
    assert found == locked
