"""The employee registry through its command: add, disable, enable, re-card, list, all logged;
card data stored only as a salted hash."""

from __future__ import annotations

import argparse
import io
import sqlite3
from pathlib import Path

import pytest

from dealer_console.cli import CommandError
from dealer_console.cli.employees_cmd import register
from dealer_console.employees import registry
from dealer_console.employees.authorize import RefusalReason, Refused, authorise
from dealer_console.employees.registry import Role
from dealer_console.storage.connection import connect, open_table_db

SUP = "6011000012345=2501"
NEW = "6011000099999=2801"


def run(argv: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    result: int = args.func(args)
    return result


def test_the_registry_from_its_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    db_path = str(tmp_path / "table.db")
    open_table_db(db_path).close()  # the console's first start makes the table's database
    base = ["--db", db_path, "--by", "admin"]
    assert run(["employees", "add", *base, "S7", "Pat Boss", "supervisor"], SUP + "\n",
               monkeypatch) == 0
    with pytest.raises(CommandError, match="already belongs to employee S7"):
        run(["employees", "add", *base, "S8", "Other", "executive"], SUP + "\n", monkeypatch)
    with pytest.raises(CommandError, match="track-2"):
        run(["employees", "add", *base, "S9", "Bad Card", "dealer"], "abc\n", monkeypatch)
    capsys.readouterr()
    assert run(["employees", "list", *base]) == 0
    listing = capsys.readouterr().out
    assert "S7" in listing and "supervisor" in listing and "enabled" in listing
    assert "S8" not in listing and "S9" not in listing

    raw = sqlite3.connect(db_path)
    stored = raw.execute("SELECT card_hash, card_tag FROM employees").fetchone()
    dump = "\n".join(raw.iterdump())
    assert SUP not in dump and stored[0].startswith("scrypt$")

    db = connect(db_path)
    assert authorise(db, SUP, Role.SUPERVISOR, "test").employee_id == "S7"
    assert run(["employees", "disable", *base, "S7", "--reason", "on leave"]) == 0
    with pytest.raises(Refused) as info:
        authorise(db, SUP, Role.SUPERVISOR, "test")
    assert info.value.reason is RefusalReason.DISABLED
    with pytest.raises(CommandError, match="already disabled"):
        run(["employees", "disable", *base, "S7"])
    assert run(["employees", "enable", *base, "S7"]) == 0
    assert run(["employees", "recard", *base, "S7"], NEW + "\n", monkeypatch) == 0
    with pytest.raises(Refused) as info:
        authorise(db, SUP, Role.SUPERVISOR, "test")
    assert info.value.reason is RefusalReason.UNKNOWN_CARD
    assert authorise(db, NEW, Role.SUPERVISOR, "test").employee_id == "S7"
    with pytest.raises(CommandError, match="no employee"):
        run(["employees", "disable", *base, "NOPE"])

    actions = [r[0] for r in raw.execute("SELECT action FROM employee_log ORDER BY entry")]
    assert [a for a in actions if not a.startswith("swipe")] == [
        "add", "disable", "enable", "recard"]
    assert actions.count("swipe_refused") == 2
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("DELETE FROM employee_log")
    assert registry.get(db, "S7").enabled
