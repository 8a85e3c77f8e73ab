"""The pit's commands: ``link init`` installs the pit's part; ``pit add-login`` makes the
podium's login; ``pit staff`` changes the staff list on an executive's card (``--first``: the
administrator's first executive); ``pit card-attempts`` and ``pit unlock-cards`` show and lift
the guesses at a card; ``pit`` opens the screen."""

from __future__ import annotations

import io
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from psycopg.conninfo import make_conninfo

from dealer_console.cli import main
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.settings import DSN_VARIABLE
from tests.link.helpers import linked_profile_file, table_dsn
from tests.pit.helpers import as_table, report

ROOT = Path(__file__).resolve().parents[2]


def test_the_pit_set_up_by_its_commands(tmp_path: Path, link_dsn: str,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    profile = linked_profile_file(tmp_path, "pit-1")
    assert main(["link", "init", "--profile", str(profile), "--dsn", link_dsn]) == 0
    assert "pit schema: applied" in capsys.readouterr().out
    assert main(["link", "init", "--profile", str(profile), "--dsn", link_dsn]) == 0
    assert "pit schema: up to date" in capsys.readouterr().out
    monkeypatch.setenv(DSN_VARIABLE, link_dsn)
    credentials = tmp_path / "podium.pgpass"
    login = f"{link_dsn.split('dbname=')[1].split()[0]}-podium".replace("_", "-")
    assert main(["pit", "add-login", login, "--credentials", str(credentials)]) == 0
    assert stat.S_IMODE(credentials.stat().st_mode) == 0o600
    assert main(["pit", "add-login", login, "--credentials", str(credentials)]) == 2
    # the first executive by the administrator; then a supervisor on her card
    monkeypatch.setattr("sys.stdin", io.StringIO(";1010101010?\n"))
    assert main(["pit", "staff", "X1", "--name", "Ella Exec", "--role", "executive",
                 "--new-card", "--first", "--reason", "the casino's first executive"]) == 0
    assert "X1 (Ella Exec, executive) recorded as change" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(";1010101010?\n;2020202020?\n"))
    assert main(["pit", "staff", "S1", "--name", "Sam Super", "--role", "supervisor",
                 "--new-card", "--reason", "hired"]) == 0
    # a PIN typed twice, sent as its hash only; two that differ change nothing
    monkeypatch.setattr("sys.stdin", io.StringIO(";1010101010?\n4821\n4821\n"))
    assert main(["pit", "staff", "S1", "--name", "Sam Super", "--role", "supervisor",
                 "--new-pin", "--reason", "his PIN for jackpots"]) == 0
    assert "S1 (Sam Super, supervisor, new PIN) recorded" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(";1010101010?\n4821\n4822\n"))
    assert main(["pit", "staff", "S1", "--name", "Sam Super", "--role", "supervisor",
                 "--new-pin", "--reason", "typo"]) == 2
    assert "the two PINs differ" in capsys.readouterr().err
    with link_server.connect(link_dsn) as admin:
        logged = [str(r[0]) for r in admin.execute(
            b"SELECT detail FROM pit_staff_log WHERE employee_id = 'S1' ORDER BY entry")]
        assert len(logged) == 2 and "new PIN" in logged[1]
        # the PIN nowhere in the log as itself (four digits of a time or a hash are not it)
        clear = re.compile(r"(?<![0-9a-f])4821(?![0-9a-f])")
        assert not [value for row in admin.execute(b"SELECT * FROM pit_staff_log")
                    for value in row if clear.search(str(value))]
    # a table's login cannot put anyone on the list without an executive's card
    monkeypatch.setenv(DSN_VARIABLE, table_dsn(link_dsn, "t1"))
    monkeypatch.setattr("sys.stdin", io.StringIO(";3030303030?\n"))
    assert main(["pit", "staff", "D9", "--name", "Dee", "--role", "executive", "--new-card",
                 "--first", "--reason", "a table alone"]) == 2
    assert "changed on an executive's card" in capsys.readouterr().err
    assert main(["pit", "add-login", "another-podium", "--credentials",
                 str(tmp_path / "another.pgpass")]) == 2  # a table makes no login
    assert "permission denied" in capsys.readouterr().err
    assert not (tmp_path / "another.pgpass").exists()
    # the administrator reads the refused attempts and lifts a login's lock, with a reason
    monkeypatch.setenv(DSN_VARIABLE, link_dsn)
    assert main(["pit", "card-attempts"]) == 0
    listed = capsys.readouterr().out
    assert "(table t1): staff change of D9 (executive): the staff list is changed on an " \
        "executive's card [not counted]" in listed and "3030303030" not in listed
    with link_server.connect(table_dsn(link_dsn, "t1")) as t1_conn:
        t1_login = t1_conn.info.user
    assert main(["pit", "unlock-cards", t1_login, "--reason", "checked"]) == 0
    assert f"login {t1_login}: unlocked" in capsys.readouterr().out
    assert main(["pit", "unlock-cards", t1_login, "--reason", " "]) == 2
    assert "--reason: must not be empty" in capsys.readouterr().err
    # the podium's login reads the table's report; the supervisor's card acknowledges
    with as_table(link_dsn, "t1") as t1:
        server.send_report(t1, report(jackpots_waiting=1))
    pit_dsn = make_conninfo(link_dsn, user=login, passfile=str(credentials))
    with link_server.connect(pit_dsn) as pit:
        assert server.acknowledge(pit, "t1", "jackpot", ";2020202020?") == "Sam Super"
        assert server.read_reports(pit)[0].acks["jackpot"].employee_id == "S1"
    # the screen opens and closes with the podium's login
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **{DSN_VARIABLE: pit_dsn})
    done = subprocess.run([sys.executable, "-m", "dealer_console.cli", "pit", "--quit-after",
                           "1.5"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
