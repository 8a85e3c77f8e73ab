"""The unit's sandbox run for real: systemd 252 booted as the first process of new namespaces
(``systemd_boot.sh``) on a root with the package installed by dpkg, running a unit made of
the shipped unit's own ``[Service]`` settings (read from the installed file, so the two cannot
drift) with a probe as its program; beside it the same probe under a unit with only the
service user, as the control that shows each check can fail.

Left out of the probe's unit, and only these: how the kiosk is started and kept (``Type=notify``,
the watchdog, restarts, ``ExecStart`` of sway) and its terminal (``PAMName``, ``TTYPath`` and
the ``TTY*``/``Utmp*`` lines, ``StandardInput=tty-fail``): this machine has no tty7, no seat
and no screen. The kiosk itself starting under sway headless is ``test_kiosk_start.py``,
without systemd; sway under the sandbox is not run here."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.installers.conftest import Installed

HERE = Path(__file__).parent
KIOSK_ONLY = {"Type", "NotifyAccess", "WatchdogSec", "TimeoutStartSec", "Restart", "RestartSec",
              "PAMName", "TTYPath", "TTYReset", "TTYVHangup", "TTYVTDisallocate",
              "StandardInput", "UtmpIdentifier", "UtmpMode", "ExecStart", "Environment"}
CGROUPS = Path("/sys/fs/cgroup")


def _cannot_boot() -> str | None:
    if os.geteuid() != 0:
        return "booting systemd in namespaces needs root (CI runs as root)"
    for tool in ("unshare", "chroot", "useradd"):
        if shutil.which(tool) is None:
            return f"{tool} is missing"
    if not Path("/lib/systemd/systemd").exists():
        return "systemd is not installed"
    return None


def sandbox_settings(unit: str) -> list[str]:
    """The shipped unit's ``[Service]`` lines, less those that start and keep the kiosk."""
    service = unit.split("[Service]", 1)[1].split("[Install]", 1)[0]
    return [line for line in service.splitlines()
            if "=" in line and not line.startswith("#")
            and line.split("=", 1)[0] not in KIOSK_ONLY]


def _units(folder: Path, settings: list[str]) -> None:
    folder.mkdir()
    probe = "ExecStart=/bin/bash /results/sandbox_probe.sh {}\n"
    (folder / "sandbox-probe.service").write_text(
        "[Service]\nType=oneshot\n" + "\n".join(settings) + "\n" + probe.format("sandboxed"))
    (folder / "plain-probe.service").write_text(
        "[Service]\nType=oneshot\nUser=dealer-console\nGroup=dealer-console\n"
        + probe.format("plain"))
    (folder / "sandbox-done.service").write_text(
        "[Unit]\nAfter=sandbox-probe.service plain-probe.service\n"
        "[Service]\nType=oneshot\nExecStart=/bin/systemctl poweroff --no-block\n")
    (folder / "sandbox-test.target").write_text(
        "[Unit]\nRequires=basic.target\nAfter=basic.target\n"
        "Wants=sandbox-probe.service plain-probe.service sandbox-done.service\n")


def _cgroup_dirs() -> set[Path]:
    return {p for p in CGROUPS.glob("*/**") if p.is_dir()} if CGROUPS.is_dir() else set()


def _report(path: Path) -> dict[str, str]:
    assert path.is_file(), f"the probe wrote nothing to {path.name}"
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def test_the_units_sandbox_holds_under_a_real_systemd(installed: Installed,
                                                      tmp_path: Path) -> None:
    why = _cannot_boot()
    if why is not None:
        pytest.skip(why)
    unit = (installed.root / "usr/lib/systemd/system/dealer-console.service").read_text()
    settings = sandbox_settings(unit)
    for setting in ("NoNewPrivileges=yes", "CapabilityBoundingSet=", "ProtectSystem=full",
                    "ProtectHome=yes", "PrivateTmp=yes", "ProtectKernelTunables=yes",
                    "RestrictNamespaces=yes", "User=dealer-console", "UMask=0027"):
        assert setting in settings, setting
    assert any(s.startswith("SystemCallFilter=~@cpu-emulation @debug") for s in settings)
    _units(tmp_path / "units", settings)
    (tmp_path / "results").mkdir()
    shutil.copy(HERE / "sandbox_probe.sh", tmp_path / "results/sandbox_probe.sh")
    data = tmp_path / "data"  # the table's database, made and anchored by the installed console
    data.mkdir()
    for args in (["simulate", "--profile", "washington-face-up", "--rounds", "2", "--devices",
                  "in-process", "--db", str(data / "table.db"), "--audit-key",
                  str(installed.root / "etc/dealer-console/audit.key")],
                 ["table-db", "anchor", "--db", str(data / "table.db"), "--anchor",
                  str(tmp_path / "table-db.anchor")]):
        made = installed.run(*args)
        assert made.returncode == 0, made.stdout + made.stderr
    shutil.move(tmp_path / "table-db.anchor", data / "table-db.anchor")  # the boot's input
    cgroups_before = _cgroup_dirs()
    boot = subprocess.Popen(["unshare", "--pid", "--fork", "--mount", "--uts", "--ipc", "--net",
                             "--kill-child", "bash", str(HERE / "systemd_boot.sh"),
                             str(tmp_path), str(installed.root), str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output, _ = boot.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        boot.kill()  # --kill-child takes systemd and the namespace with it
        output, _ = boot.communicate()
        pytest.fail("systemd did not power off within 180 s:\n" + output)
    finally:  # the cgroups the namespace's systemd made in this machine's hierarchies
        for folder in sorted(_cgroup_dirs() - cgroups_before, key=lambda p: -len(p.parts)):
            with contextlib.suppress(OSError):
                folder.rmdir()
    journal = subprocess.run(["journalctl", "-D", str(tmp_path / "journal"), "--no-pager"],
                             capture_output=True, text=True, timeout=60).stdout
    assert (tmp_path / "results/sandboxed").is_file(), output[-3000:] + journal[-5000:]
    sandboxed = _report(tmp_path / "results/sandboxed")
    plain = _report(tmp_path / "results/plain")
    assert "Journal started" in journal and "sandbox-test" in journal  # systemd's own
    assert sandboxed["user"] == plain["user"] == "dealer-console"
    assert sandboxed["capeff"] == plain["capeff"] == "0000000000000000"
    assert (sandboxed["nonewprivs"], plain["nonewprivs"]) == ("1", "0")
    assert (sandboxed["seccomp"], plain["seccomp"]) == ("2", "0")
    assert (sandboxed["tmp"], plain["tmp"]) == ("private", "shared")
    assert (sandboxed["home"], plain["home"]) == ("hidden", "visible")
    assert (sandboxed["proc_sys"], plain["proc_sys"]) == ("ro", "rw")
    assert sandboxed["debug_syscall"] == "refused errno 1"  # EPERM: SystemCallErrorNumber
    assert plain["debug_syscall"] == "allowed"
    if plain["af_vsock"] == "allowed":  # where the kernel has VM sockets (this machine's has)
        assert sandboxed["af_vsock"] == "refused errno 97"  # EAFNOSUPPORT: not in the list
    # the console's own program runs in the sandbox, and its self-test passes there
    self_test = (tmp_path / "results/sandboxed.self-test").read_text()
    assert sandboxed["self_test"] == "0", self_test
    for item in ("program", "system files", "table database", "database", "hash chain",
                 "records", "last round"):
        assert f"PASS  {item}" in self_test, item
    assert self_test.rstrip().endswith("SELF-TEST PASSED")
