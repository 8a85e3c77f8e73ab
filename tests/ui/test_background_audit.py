"""The full audit while the table plays (``ui/background_audit.py``): on a thread of its own,
never the GUI thread; a change to history the power-on test does not look at (before the last
checkpoint) is found, logged and shown on the window; a clean table is logged as such."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

import ui.background_audit as background
from dealer_console.audit.verify import AuditReport
from tests.round.helpers import make_table, play_round


def _played(folder: Path) -> Path:
    table = make_table(folder, "washington-face-up")
    for seed in range(2):
        play_round(table, seed=seed)
    table.db.close()
    return folder / "table.db"


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the thread each audit ran on (the real audit, recorded)."""
    seen: list[str] = []
    real = background.full_audit

    def recorded(db_file: str) -> AuditReport:
        seen.append(threading.current_thread().name)
        return real(db_file)

    monkeypatch.setattr(background, "full_audit", recorded)
    return seen


def test_a_changed_wager_in_history_is_found_logged_and_shown(
        themed: QApplication, qtbot: QtBot, tmp_path: Path, threads: list[str]) -> None:
    db = _played(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    seq = conn.execute("SELECT seq FROM events WHERE payload LIKE '%100%' ORDER BY seq"
                       " LIMIT 1").fetchone()[0]
    conn.execute("UPDATE events SET payload = replace(payload, '100', '200') WHERE seq = ?",
                 [seq])
    conn.commit()
    conn.close()
    window = QWidget()
    window.resize(1280, 800)
    qtbot.addWidget(window)
    window.show()
    log = tmp_path / "self-test.log"
    audits = background.BackgroundAudit(str(db), log, 3600, window)
    with qtbot.waitSignal(audits.finished, timeout=60_000) as done:
        audits.run_now()
    report = done.args[0]
    assert isinstance(report, AuditReport) and not report.ok
    assert threads and threads[0] == "background-audit"
    assert threads[0] != threading.main_thread().name
    written = log.read_text()
    assert "AUDIT FAILED" in written and f"event {seq}" in written
    assert "schema: the trigger events_no_update is missing" in written  # the guard, too
    assert audits.strip is not None and audits.strip.isVisible()
    assert "Call the supervisor" in audits.strip.text()


def test_a_clean_table_is_logged_and_nothing_is_shown(
        themed: QApplication, qtbot: QtBot, tmp_path: Path, threads: list[str]) -> None:
    db = _played(tmp_path)
    log = tmp_path / "self-test.log"
    window = QWidget()
    qtbot.addWidget(window)
    audits = background.BackgroundAudit(str(db), log, 3600, window)
    with qtbot.waitSignal(audits.finished, timeout=60_000) as done:
        audits.run_now()
    assert done.args[0].ok
    assert "AUDIT OK" in log.read_text() and audits.strip is None


def test_the_schedule_runs_it_again(themed: QApplication, qtbot: QtBot, tmp_path: Path,
                                    threads: list[str]) -> None:
    db = _played(tmp_path)
    audits = background.BackgroundAudit(str(db), None, 0.2, None)
    audits.start(first_after_s=0.0)
    try:
        qtbot.waitUntil(lambda: len(threads) >= 2, timeout=30_000)
    finally:
        audits.stop()
