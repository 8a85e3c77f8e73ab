"""Issue 23: one table name on every page: the configured id, else the database file's name;
and times on paper in local time with their zone, to the second."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.table_name import table_name
from tests.jackpot.test_winpage_and_crash import pdf_text


def test_the_configured_id_names_the_table_else_its_file() -> None:
    assert table_name("var/pit-3.db", {"DEALER_CONSOLE_TABLE_ID": "PG-3"}) == "PG-3"
    assert table_name("var/pit-3.db", {"DEALER_CONSOLE_TABLE_ID": "  "}) == "pit-3"
    assert table_name(Path("/x/table.db"), {}) == "table"


def test_the_shift_report_names_the_table_and_its_range_in_local_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "table.db"
    with redirect_stdout(io.StringIO()):
        assert main(["simulate", "--devices", "in-process", "--rounds", "3",
                     "--profile", "washington-face-up", "--db", str(db)]) == 0
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "PG-3")
    out = io.StringIO()
    pdf = tmp_path / "shift.pdf"
    with redirect_stdout(out):
        assert main(["report", "--db", str(db), "--from", "2026-01-01T00:00+00:00",
                     "--to", "2099-01-01T00:00+00:00", "--pdf", str(pdf)]) == 0
    first = out.getvalue().splitlines()[0]
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+"
    assert re.fullmatch(rf"Shift report of table PG-3, rounds ended from {stamp} to {stamp}",
                        first), first
    text = pdf_text(pdf)
    assert "Table: PG-3" in text and "cents" not in text
    assert re.search(rf"From {stamp}", text), text[:300]
