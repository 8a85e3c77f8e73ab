"""A self-test check that stops on something it did not expect fails its item, named, and the
rest of the self-test still reports: before, the exception left the kiosk with a traceback, no
line in the self-test log and no screen saying why the table stayed closed.

The database check is made to stop here by a stand-in (``monkeypatch``): every way a table's
files made it stop that is known has been mended, so no real file can make it stop now."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.selftest import run as selftest_run
from dealer_console.selftest.run import SelfTestInput, run_self_test


def test_a_database_check_that_stops_fails_its_item_and_the_report_is_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def stops(*_args: object) -> None:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    monkeypatch.setattr(selftest_run, "check_database", stops)
    report = run_self_test(SelfTestInput("washington-face-up", tmp_path / "table.db"), None)
    failed = {c.item: c.detail for c in report.failures}
    assert list(failed) == ["database"], report.lines()
    assert failed["database"].startswith(
        "the check stopped (OverflowError: Python int too large to convert to SQLite INTEGER)")
    assert "keep the table closed" in failed["database"]
    assert report.lines()[-1].startswith("SELF-TEST FAILED")
    assert any(c.item == "profile" and c.ok for c in report.checks)  # the others still ran
