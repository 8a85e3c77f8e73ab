"""The console's start: the self-test refusing the table (one line on a terminal, the reasons
full screen in the kiosk), and systemd told READY=1 and pinged from the GUI thread."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dealer_console.selftest import Report
from ui import theme
from ui.power_on import SelfTestFailedScreen
from ui.screenshots import SIZES, render
from ui.watchdog import SystemdWatchdog, ping_interval_ms, sd_notify


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """systemd's end of the notify socket: a datagram socket the test reads."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(20)
    yield sock, path
    sock.close()


def test_sd_notify_sends_one_datagram_and_is_silent_outside_systemd(
        notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    assert sd_notify("READY=1", {"NOTIFY_SOCKET": path})
    assert sock.recv(100) == b"READY=1"
    assert not sd_notify("READY=1", {})
    assert not sd_notify("READY=1", {"NOTIFY_SOCKET": path + "-gone"})


def test_the_watchdog_interval_is_half_the_units() -> None:
    assert ping_interval_ms({"WATCHDOG_USEC": "30000000"}) == 15000
    assert ping_interval_ms({}) is None
    assert ping_interval_ms({"WATCHDOG_USEC": "soon"}) is None


def test_the_gui_threads_timer_pings_the_watchdog(
        qtbot: QtBot, notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    sock.setblocking(False)
    watchdog = SystemdWatchdog({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "100000"})
    received: list[bytes] = []

    def pinged() -> bool:
        with contextlib.suppress(BlockingIOError):
            received.append(sock.recv(100))
        return received.count(b"WATCHDOG=1") >= 2

    qtbot.waitUntil(pinged, timeout=5000)
    watchdog.timer.stop()
    assert watchdog.timer.interval() == 50


def _failed_report() -> Report:
    report = Report()
    report.add("program", False, "changed: dealer_console/settlement/settle.py (manifest "
                                 "sha256 " + "ab" * 32 + ")")
    report.add("profile", True, "washington-face-up")
    report.add("paytables", True, "returns wa-fortune-1 92.00%, wa-ace-high-1 96.41%")
    report.add("database", True, "/var/lib/dealer-console/table.db: integrity_check ok")
    report.add("device shuffler", False, "/dev/dealer-console/shuffler: no answer within 5 s; "
                                         "check its cable, power and devices.toml")
    return report


def test_the_failure_screen_names_each_failure_and_fits_both_sizes(
        themed: QApplication, tmp_path: Path) -> None:
    """(The picture in docs/screenshots is the fullest one: tests/ui/test_screens_fit.py.)"""
    for width, height in SIZES:
        screen = SelfTestFailedScreen(_failed_report())
        texts = [label.text() for label in screen.failure_labels]
        assert len(texts) == 2 and "settle.py" in texts[0] and "shuffler" in texts[1]
        path = render(screen, tmp_path / f"self-test-failed-{width}x{height}.png",
                      (width, height))
        image = QImage(str(path))
        assert (image.width(), image.height()) == (width, height)
        colours = {image.pixelColor(x, y).name() for x in range(0, width, 7)
                   for y in range(0, height, 7)}
        assert theme.FAULT_RED in colours and theme.BACKGROUND in colours
        screen.close()


def _gui(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dealer_console.cli", "gui", *args],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen", **env))


def test_a_failed_self_test_keeps_the_table_closed(
        tmp_path: Path, notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    db = tmp_path / "table.db"
    log = tmp_path / "self-test.log"
    # a development copy has no manifest: the installed unit's setting makes that a failure
    env = {"DEALER_CONSOLE_REQUIRE_MANIFEST": "1", "DEALER_CONSOLE_SELFTEST_LOG": str(log)}
    terminal = _gui("--db", str(db), "--quit-after", "0.2", env=env)
    assert terminal.returncode == 2
    assert terminal.stderr.startswith("dealer-console gui: ")
    assert "self-test failed, table not opened: program: no manifest" in terminal.stderr
    assert not db.exists()  # the table was never opened
    kiosk = _gui("--db", str(db), "--full-screen", "--quit-after", "0.5",
                 env={**env, "NOTIFY_SOCKET": path})
    assert kiosk.returncode == 1, kiosk.stderr
    assert sock.recv(200).startswith(b"READY=1\nSTATUS=table closed: self-test failed")
    assert not db.exists()
    assert log.read_text().count("SELF-TEST FAILED") == 2


def test_a_passing_self_test_opens_the_table_and_says_ready(
        tmp_path: Path, notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    db = tmp_path / "table.db"
    log = tmp_path / "self-test.log"
    done = _gui("--db", str(db), "--simulated", "--full-screen", "--quit-after", "0.5",
                env={"NOTIFY_SOCKET": path, "DEALER_CONSOLE_SELFTEST_LOG": str(log)})
    assert done.returncode == 0, done.stderr
    assert sock.recv(200) == b"READY=1\nSTATUS=table open: washington-face-up"
    assert db.is_file()
    assert log.read_text().rstrip().endswith("SELF-TEST PASSED")


def test_the_table_says_it_is_starting_while_the_self_test_runs(
        themed: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kiosk's screen stayed black while the self-test ran (longer as a table's records
    grow): now it says the table is starting, and that screen is gone once the check has
    answered, here by failing outright. (No event loop is run here: an application that has
    run and quit stops later tests' threads and timers in this process.)"""
    import ui.app
    from dealer_console.profiles.loader import get_profile
    from ui.power_on import CheckingScreen

    shown: list[tuple[str, bool]] = []

    class CheckBroke(Exception):
        pass

    def check(*args: object, **kwargs: object) -> Report:
        shown.extend((w.title.text(), w.isFullScreen()) for w in QApplication.topLevelWidgets()
                     if isinstance(w, CheckingScreen) and w.isVisible())
        raise CheckBroke

    monkeypatch.setattr(ui.app, "power_on_check", check)
    db = tmp_path / "table.db"
    with pytest.raises(CheckBroke):
        ui.app.run_app(get_profile("washington-face-up"), True, str(db), full_screen=True)
    assert shown == [("Starting the table", True)]
    assert not [w for w in QApplication.topLevelWidgets()
                if isinstance(w, CheckingScreen) and w.isVisible()]
    assert not db.exists()
