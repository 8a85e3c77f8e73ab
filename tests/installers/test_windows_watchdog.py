"""The Windows kiosk's keeper (``installers/windows/kiosk_watchdog.py``) run here with real
child processes: a console that keeps ending is started again up to the limit and then given
up with the reason and exit status 1; one that stops answering (here: stopped, the POSIX
stand-in for Windows' "not responding") is killed and started again. Its Windows half, asking
``IsHungAppWindow`` and showing a message box, has not been run (no Windows here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.installers.conftest import REPO

WATCHDOG = REPO / "installers" / "windows" / "kiosk_watchdog.py"


def watchdog(log: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(WATCHDOG), "--log", str(log), *args],
                          capture_output=True, text=True, timeout=120)


def test_a_console_that_keeps_ending_is_restarted_up_to_the_limit_then_given_up(
        tmp_path: Path) -> None:
    log = tmp_path / "watchdog.log"
    done = watchdog(log, "--limit", "3", "--delay", "0", "--",
                    sys.executable, "-c", "raise SystemExit(3)")
    assert done.returncode == 1
    assert "Table closed: the console was started 3 times in 600 s" in done.stderr
    events = [line.split(" ", 2)[1] for line in log.read_text().splitlines()]
    assert events == ["START", "ENDED:"] * 3 + ["GAVE"]
    assert log.read_text().count("exit code 3") == 3


def test_a_console_that_stops_answering_is_killed_and_started_again(tmp_path: Path) -> None:
    log = tmp_path / "watchdog.log"
    freeze = "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"
    done = watchdog(log, "--limit", "2", "--delay", "0", "--hang", "0.5", "--",
                    sys.executable, "-c", freeze)
    assert done.returncode == 1
    text = log.read_text()
    assert text.count("HUNG: killed pid") == 2 and text.count("after 0.5 s not answering") == 2
    assert text.count("START ") == 2 and "GAVE UP" in text


def test_bad_usage_is_status_2(tmp_path: Path) -> None:
    assert watchdog(tmp_path / "l", "--limit", "0", "--", "x").returncode == 2
    assert watchdog(tmp_path / "l").returncode == 2
    assert not (tmp_path / "l").exists()


LOCKDOWN = REPO / "installers" / "windows" / "kiosk_lockdown.py"
SID = "S-1-5-21-1004336348-1177238915-682003330-1001"


def lockdown(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LOCKDOWN), *args], capture_output=True,
                          text=True, timeout=60)


def test_the_lockdown_writes_a_reg_file_of_the_kiosk_shell_and_policies() -> None:
    done = subprocess.run([sys.executable, str(LOCKDOWN), "--sid", SID, "--profile",
                           "catfish-bend-fortune", "--print"], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().split("\r\n")
    assert "\n" not in "".join(lines)  # CRLF line ends throughout
    assert lines[0] == "Windows Registry Editor Version 5.00"
    values: dict[tuple[str, str], str] = {}
    key = ""
    for line in lines[1:]:  # the .reg grammar: [key] headers, "name"=value lines, blanks
        if line.startswith("["):
            assert line.endswith("]") and line.startswith(f"[HKEY_USERS\\{SID}\\"), line
            key = line[len(SID) + 13:-1]
        elif line:
            name, sep, value = line.partition("=")
            assert sep and name.startswith('"') and name.endswith('"'), line
            assert value.startswith(("dword:", '"')), line
            values[(key, name.strip('"'))] = value
    policies = "Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\"
    for name in ("DisableTaskMgr", "DisableLockWorkstation", "DisableChangePassword"):
        assert values[(policies + "System", name)] == "dword:00000001"
    for name in ("NoLogoff", "NoClose", "NoWinKeys", "NoRun"):
        assert values[(policies + "Explorer", name)] == "dword:00000001"
    shell = values[("Software\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon", "Shell")]
    # the .reg escaping: every backslash doubled, every quote escaped
    assert shell.startswith('"\\"C:\\\\Program Files\\\\DealerConsole\\\\dealer-console-kiosk')
    assert "watchdog --log" in shell and "--profile catfish-bend-fortune" in shell
    assert values[("Environment", "DEALER_CONSOLE_REQUIRE_MANIFEST")] == '"1"'


def test_the_lockdown_exit_codes() -> None:
    here = lockdown("--sid", SID)  # applying needs Windows
    assert here.returncode == 1 and "applies only on Windows" in here.stderr
    for bad in (["--print"], ["--sid", "x;y", "--print"], ["--sid", SID, "--profile", "a b"],
                ["--sid", SID, "--print", "--undo"]):
        assert lockdown(*bad).returncode == 2, bad
