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
