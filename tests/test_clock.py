"""The console's one wall clock (``dealer_console/clock.py``): what records or shows a time reads
it, and the galleries hold it still."""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from dealer_console import clock
from dealer_console.storage import eventlog
from dealer_console.table_db import open_table_db

ROOT = Path(__file__).resolve().parents[1]
START = datetime(2031, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_a_held_clock_moves_one_step_a_reading_and_lets_go() -> None:
    with clock.held_at(START, timedelta(seconds=2)):
        assert [clock.now() for _ in range(3)] == [
            START, START + timedelta(seconds=2), START + timedelta(seconds=4)]
        assert clock.stamp("seconds") == "2031-01-02T03:04:11+00:00"
    real = clock.now()
    assert real.tzinfo is not None and abs(real - datetime.now(UTC)) < timedelta(seconds=5)


def test_a_held_clock_is_let_go_after_an_error_and_refuses_what_would_mislead() -> None:
    with pytest.raises(KeyError), clock.held_at(START):
        raise KeyError("a page that failed to build")
    assert clock.now().year != 2031
    with pytest.raises(ValueError, match="not a UTC time"), clock.held_at(
            START.replace(tzinfo=timezone(timedelta(hours=-8)))):
        pass
    with pytest.raises(ValueError, match="must move the clock on"), clock.held_at(
            START, timedelta(0)):
        pass


def test_an_event_is_recorded_at_the_clock_s_time(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    with clock.held_at(START), db.atomic():
        event = eventlog.append(db, "note", {"n": 1}, round_id=None)
    assert event.recorded_at == "2031-01-02T03:04:05.000000+00:00"
    assert [e.recorded_at for e in eventlog.events(db)] == [event.recorded_at]


def _reads_the_machine_clock(path: Path) -> list[str]:
    """Calls that read the wall clock past ``clock.now``: ``datetime.now()``, ``utcnow()``,
    ``date.today()``, ``time.time()``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and (node.func.value.id, node.func.attr) in {
                    ("datetime", "now"), ("datetime", "utcnow"), ("date", "today"),
                    ("time", "time")}):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_nothing_in_the_console_reads_the_machine_s_clock_but_the_clock() -> None:
    offenders = [where for package in ("dealer_console", "dealer_link", "ui")
                 for path in sorted((ROOT / package).rglob("*.py"))
                 if path != ROOT / "dealer_console/clock.py"
                 for where in _reads_the_machine_clock(path)]
    assert offenders == []
