"""The power-on self-test at the console's start (``dealer_console/selftest``), and the
screen that says why the table stays closed when it fails.

The installed table PC's unit sets ``DEALER_CONSOLE_REQUIRE_MANIFEST`` (no manifest is a
failure there) and ``DEALER_CONSOLE_SELFTEST_LOG`` (each result appended to it)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from dealer_console.errors import ConsoleError
from dealer_console.profiles.model import Profile
from dealer_console.selftest import Report, SelfTestInput, run_self_test
from dealer_console.selftest.table_anchor import anchor_path
from dealer_console.storage.anchor import key_path, load_key
from ui import theme
from ui.watchdog import SystemdWatchdog
from ui.widgets.touch import kinetic


class SelfTestFailed(ConsoleError):
    """The self-test failed: the table is not opened (the message: the first failure)."""

    def __init__(self, report: Report) -> None:
        first = report.failures[0]
        more = len(report.failures) - 1
        super().__init__(f"self-test failed, table not opened: {first.item}: {first.detail}"
                         + (f" (and {more} more; run dealer-console self-test)" if more else ""))
        self.report = report


def power_on_check(profile: Profile, db_path: str | Path, devices_file: str | Path | None,
                   *, simulated: bool, environ: Mapping[str, str] = os.environ) -> Report:
    """Run the self-test before the table opens; the simulated doubles start afterwards, so
    devices are only tried for a real devices file."""
    from drivers.selftest_probe import probe_devices

    key_file = key_path(None)
    report = run_self_test(SelfTestInput(
        profile=profile.name, db=Path(db_path),
        devices=Path(devices_file) if devices_file is not None else None,
        require_manifest=environ.get("DEALER_CONSOLE_REQUIRE_MANIFEST") == "1",
        audit_key=load_key(key_file) if key_file is not None else None,
        table_anchor=anchor_path(environ)),
        None if simulated else probe_devices)
    log = environ.get("DEALER_CONSOLE_SELFTEST_LOG")
    if log:
        try:
            report.append_to_log(Path(log))
        except OSError as exc:
            report.add("self-test log", False,
                       f"{log}: cannot write: {exc.strerror}" if exc.strerror else str(exc))
    return report


def _power_on_page(page: QWidget, window_title: str) -> QVBoxLayout:
    """The two power-on screens' page: the console's colours, wide margins; its layout."""
    page.setWindowTitle(window_title)
    page.setStyleSheet(f"background: {theme.BACKGROUND}; color: {theme.TEXT};")
    layout = QVBoxLayout(page)
    layout.setContentsMargins(48, 48, 48, 48)
    layout.setSpacing(theme.SPACING * 2)
    return layout


class CheckingScreen(QWidget):
    """Shown while the power-on self-test runs, before the table opens. The screen stayed
    black meanwhile: about 0.4 s on a new table, longer as its records grow (the database's
    checks read them all), which a dealer could take for a console that is broken."""

    def __init__(self, profile_title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = _power_on_page(self, "Dealer Console - starting: checking the table")
        layout.addStretch(1)
        self.title = QLabel("Starting the table")
        self.title.setStyleSheet(f"font-size: {theme.FONT_AMOUNT}px; font-weight: bold;")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.title)
        table = QLabel(profile_title)
        table.setWordWrap(True)
        table.setAlignment(Qt.AlignmentFlag.AlignCenter)
        table.setStyleSheet(f"font-size: {theme.FONT_HEADING}px; color: {theme.TEXT_MUTED};")
        layout.addWidget(table)
        what = QLabel("Checking the program, the profile, the paytables and the table's "
                      "records before the table opens. It takes a few seconds; nothing needs "
                      "a touch.")
        what.setWordWrap(True)
        what.setAlignment(Qt.AlignmentFlag.AlignCenter)
        what.setStyleSheet(f"font-size: {theme.FONT_HEADING}px;")
        layout.addWidget(what)
        layout.addStretch(2)


EXPOSE_WAIT_S = 0.2
"""The longest the start waits for the compositor to show the checking screen."""


def show_checking(app: QApplication, profile: Profile) -> CheckingScreen:
    """The checking screen full screen, drawn before the self-test takes the GUI thread (the
    event loop runs only once the table opens)."""
    theme.apply_theme(app)
    screen = CheckingScreen(profile.title)
    screen.showFullScreen()
    handle = screen.windowHandle()
    deadline = time.monotonic() + EXPOSE_WAIT_S
    while True:  # a compositor shows the window a round trip after it is asked to
        QApplication.processEvents()
        if handle is None or handle.isExposed() or time.monotonic() > deadline:
            break
        time.sleep(0.005)
    screen.repaint()
    return screen


class SelfTestFailedScreen(QWidget):
    """Full screen at the table: the table is closed, each failed item in plain words, and
    who to call. Nothing on it can be touched: only a technician's fix and a restart open the
    table."""

    def __init__(self, report: Report, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = _power_on_page(self, "Dealer Console - table closed: self-test failed")
        title = QLabel("Table closed: the start-up check failed")
        title.setStyleSheet(f"font-size: {theme.FONT_AMOUNT}px; font-weight: bold; "
                            f"color: {theme.ON_FILL}; background: {theme.FAULT_RED}; "
                            "padding: 16px; border-radius: 10px;")
        title.setWordWrap(True)
        layout.addWidget(title)
        advice = QLabel("Call a technician. Do not take wagers at this table.")
        advice.setStyleSheet(f"font-size: {theme.FONT_HEADING}px;")
        advice.setWordWrap(True)
        layout.addWidget(advice)
        self.failure_labels: list[QLabel] = []
        # every failure shows, however many: past the screen's height they scroll (issue 22:
        # a page never needs more than its screen)
        listing = QWidget()
        failures = QVBoxLayout(listing)
        failures.setContentsMargins(0, 0, 0, 0)
        failures.setSpacing(theme.SPACING)
        scroll = QScrollArea()
        scroll.setWidget(listing)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        kinetic(scroll)
        for check in report.failures:
            label = QLabel(f"\u2716  {check.item}: {check.detail}")
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            label.setStyleSheet(f"font-size: {theme.FONT_LABEL}px; color: {theme.TEXT}; "
                                f"background: {theme.SURFACE}; padding: 12px; "
                                "border-radius: 10px;")
            failures.addWidget(label)
            self.failure_labels.append(label)
        passed = [c.item for c in report.checks if c.ok]
        if passed:
            ok = QLabel("Passed: " + ", ".join(passed))
            ok.setWordWrap(True)
            ok.setStyleSheet(f"font-size: {theme.FONT_SMALL}px; color: {theme.TEXT_MUTED};")
            failures.addWidget(ok)
        failures.addStretch(1)
        layout.addWidget(scroll, 1)
        hint = QLabel("Technician: dealer-console self-test prints every item; "
                      "docs/install.md says what each line means.")
        hint.setWordWrap(True)
        hint.setStyleSheet(f"font-size: {theme.FONT_SMALL}px; color: {theme.TEXT_MUTED};")
        layout.addWidget(hint)


def show_self_test_failure(app: QCoreApplication, report: Report, watchdog: SystemdWatchdog,
                           quit_after: float | None = None) -> int:
    """The kiosk's answer to a failed self-test: the reasons full screen, the event loop kept
    running (and pinging the watchdog, so systemd does not restart it in a loop), status 1
    when it ends."""
    assert isinstance(app, QApplication)
    theme.apply_theme(app)
    screen = SelfTestFailedScreen(report)
    screen.showFullScreen()
    watchdog.ready("table closed: self-test failed")
    if quit_after is not None:
        QTimer.singleShot(int(quit_after * 1000), app.quit)
    app.exec()
    return 1
