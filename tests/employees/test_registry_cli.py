"""``dealer-console employees``: set-up once, every other change on an executive's card read
from standard input (never an argument), logged with whoever swiped; card data stored only as a
salted hash, in neither the tables nor the event log."""

from __future__ import annotations

import getpass
import io
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_console.cli import main

EXEC = "6011000012345=2501"
SUP = "6011000099999=2801"
DEALER = "6011000077777=2801"
NEW = "6011000055555=2901"
CLI = [sys.executable, "-m", "dealer_console.cli"]


def run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> str:
    """A table database with its first executive X1 and a supervisor S7 on X1's card."""
    db = str(tmp_path / "table.db")
    assert run(["employees", "setup", "--db", db, "X1", "Ella Exec"], EXEC + "\n",
               monkeypatch, capsys)[0] == 0
    assert run(["employees", "add", "--db", db, "S7", "Pat Boss", "supervisor"],
               f"{EXEC}\n{SUP}\n", monkeypatch, capsys)[0] == 0
    return db


def test_setup_once_then_every_change_on_an_executives_card(
        table: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(["employees", "setup", "--db", table, "X2", "Second"], NEW + "\n",
                         monkeypatch, capsys)
    assert status == 2 and "set up already" in err and err.count("\n") == 1

    status, out, _ = run(["employees", "add", "--db", table, "D1", "Dee Dealer", "dealer"],
                         f";{EXEC}?\n{DEALER}\n", monkeypatch, capsys)  # a reader's sentinels
    assert status == 0
    assert out == "add: D1 Dee Dealer (dealer, enabled), authorised by Ella Exec (X1)\n"

    for argv, stdin, said in (
        (["role", "--db", table, "D1", "supervisor"], EXEC, "role: D1 Dee Dealer (supervisor"),
        (["disable", "--db", table, "d1", "--reason", "on leave"], EXEC, "(supervisor, disabled)"),
        (["enable", "--db", table, "D1"], EXEC, "(supervisor, enabled)"),
        (["recard", "--db", table, "D1"], f"{EXEC}\n{NEW}", "recard: D1 Dee Dealer"),
    ):
        status, out, err = run(["employees", *argv], stdin + "\n", monkeypatch, capsys)
        assert status == 0, err
        assert said in out and out.rstrip().endswith("authorised by Ella Exec (X1)")

    raw = sqlite3.connect(table)
    log = raw.execute("SELECT employee_id, action, actor FROM employee_log ORDER BY entry"
                      ).fetchall()
    assert log == [("X1", "setup", f"setup from login {getpass.getuser()}"),
                   ("S7", "add", "X1"), ("D1", "add", "X1"), ("D1", "role", "X1"),
                   ("D1", "disable", "X1"), ("D1", "enable", "X1"), ("D1", "recard", "X1")]
    dump = "\n".join(raw.iterdump())
    for track in (EXEC, SUP, DEALER, NEW):
        assert track not in dump
    raw.close()


@pytest.mark.parametrize(("authoriser", "message"), [
    (SUP, "Pat Boss is a supervisor; this needs an executive's card"),
    ("5999999999999=2901", "card not recognised: no employee holds it"),
])
def test_a_refused_swipe_changes_nothing_and_is_logged(
        table: str, authoriser: str, message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["employees", "add", "--db", table, "X5", "Mal Ory", "executive"],
                           f"{authoriser}\n{NEW}\n", monkeypatch, capsys)
    assert status == 2 and out == ""
    assert err == f"dealer-console employees: swipe refused (logged): {message}\n"
    raw = sqlite3.connect(table)
    assert raw.execute("SELECT COUNT(*) FROM employees WHERE employee_id = 'X5'"
                       ).fetchone()[0] == 0
    last = raw.execute("SELECT action, detail FROM employee_log ORDER BY entry DESC LIMIT 1"
                       ).fetchone()
    assert last[0] == "swipe_refused" and last[1].startswith("add employee X5 (executive)")
    raw.close()


@pytest.mark.parametrize(("argv", "stdin", "message"), [
    (["add", "S8", "Other", "dealer"], "", "no card data on standard input for the "
     "authorising executive's card"),
    (["add", "S8", "Other", "dealer"], f"{EXEC}\n", "no card data on standard input for the "
     "new employee's card"),
    (["add", "S8", "Other", "dealer"], "abc\n", "the authorising executive's card: card data "
     "must be"),
    (["add", "S8", "Other", "dealer"], f"{EXEC}\n{SUP}\n", "that card already belongs to "
     "employee S7"),
    (["add", "s7", "Other", "dealer"], f"{EXEC}\n{NEW}\n", "s7 is taken by S7"),
    (["add", "S8", "Bad\u202eName", "dealer"], f"{EXEC}\n{NEW}\n", "control or"),
    (["role", "X1", "dealer"], f"{EXEC}\n", "only enabled executive"),
    (["disable", "X1"], f"{EXEC}\n", "only enabled executive"),
    (["disable", "NOPE"], f"{EXEC}\n", "no employee 'NOPE'"),
])
def test_bad_requests_get_one_line_and_exit_2(
        table: str, argv: list[str], stdin: str, message: str,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    before = sqlite3.connect(table).execute("SELECT * FROM employees ORDER BY 1").fetchall()
    status, out, err = run(["employees", argv[0], "--db", table, *argv[1:]], stdin,
                           monkeypatch, capsys)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1
    assert sqlite3.connect(table).execute("SELECT * FROM employees ORDER BY 1"
                                          ).fetchall() == before


def test_an_executive_cannot_change_their_own_role(
        table: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["employees", "add", "--db", table, "X2", "Max Exec", "executive"],
               f"{EXEC}\n{NEW}\n", monkeypatch, capsys)[0] == 0
    status, _, err = run(["employees", "role", "--db", table, "X1", "supervisor"], EXEC + "\n",
                         monkeypatch, capsys)
    assert status == 2
    assert "swipe refused (logged): Ella Exec may not change their own role" in err
    status, out, _ = run(["employees", "role", "--db", table, "X1", "supervisor"], NEW + "\n",
                         monkeypatch, capsys)
    assert status == 0 and out.rstrip().endswith("authorised by Max Exec (X2)")


@pytest.mark.parametrize("argv", [
    ["add", "--by", "admin", "S8", "Other", "dealer"],  # the authoriser is who swiped
    ["add", "S8", "Other", "boss"],
    ["role", "S7", "owner"],
])
def test_unknown_options_and_roles_are_usage_errors(
        table: str, argv: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(["employees", argv[0], "--db", table, *argv[1:]],
                            f"{EXEC}\n{NEW}\n", monkeypatch, capsys)
    assert status == 2 and err.count("\n") == 1  # a usage error: one line, nothing done


def test_changes_need_an_existing_table_database(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "none.db"
    status, _, err = run(["employees", "disable", "--db", str(db), "S1"], EXEC + "\n",
                         monkeypatch, capsys)
    assert status == 2 and "no such table database" in err
    assert not db.exists()


def test_list_reads_without_writing(table: str, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    before = Path(table).read_bytes()
    status, out, _ = run(["employees", "list", "--db", table], "", monkeypatch, capsys)
    assert status == 0
    assert out.splitlines()[1:] == ["S7           supervisor  enabled   Pat Boss",
                                    "X1           executive   enabled   Ella Exec"]
    assert Path(table).read_bytes() == before


def test_the_installed_command_reads_the_cards_from_a_pipe(table: str) -> None:
    done = subprocess.run([*CLI, "employees", "add", "--db", table, "D4", "Dot", "dealer"],
                          input=f"{EXEC}\n{NEW}\n", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "add: D4 Dot (dealer, enabled), authorised by Ella Exec (X1)\n"
    audit = subprocess.run([*CLI, "audit", "verify", "--db", table], capture_output=True,
                           text=True, timeout=60)
    assert audit.returncode == 0, audit.stdout
