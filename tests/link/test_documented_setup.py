"""``docs/link.md``'s set-up, run as written on a fresh PostgreSQL server of the test's own, then
linked rounds played on the table it sets up (``dealer-console simulate``, jackpot hands
forced): the commands are read from the document itself, so the document cannot drift from
what works.

Only what the card room's machines would differ in is replaced: the server's host (here a
Unix socket of the test's server), the folder ``/etc/dealer-console`` (a temporary one) and
the path of the shipped profile."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_console.profiles.loader import find_profile
from dealer_link.sender import OutboxSender
from dealer_link.settings import LinkError
from tests.link.pg_server import PgServer, find_bin

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "link.md"
MARK = "<!-- set-up commands: tested as written -->"
CLI = [sys.executable, "-m", "dealer_console.cli"]


def documented_commands() -> list[str]:
    """The lines of the set-up block that follows the mark in ``docs/link.md``."""
    text = DOC.read_text()
    block = re.search(re.escape(MARK) + r"\s*```sh\n(.*?)```", text, re.S)
    assert block is not None, "docs/link.md has lost its set-up block"
    return [line for line in block.group(1).splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def _run(argv: list[str], env: dict[str, str], cwd: Path, stdin: str = "") -> str:
    done = subprocess.run(argv, env=env, cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, f"{shlex.join(argv)}: {done.stdout}{done.stderr}"
    return done.stdout


@pytest.mark.slow
def test_the_documented_set_up_works_and_linked_rounds_play(tmp_path: Path) -> None:
    bindir = find_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (installers/setup-dev.sh installs it)")
    pg = PgServer(bindir)  # a fresh server: nothing made by another test
    try:
        _set_up_and_play(pg, bindir, tmp_path)
    finally:
        pg.destroy()


def _set_up_and_play(pg: PgServer, bindir: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    etc = tmp_path / "etc" / "dealer-console"
    admin_password = "the administrator's secret"
    env = dict(os.environ, HOME=str(home), PYTHONUNBUFFERED="1")
    for name in ("DEALER_CONSOLE_LINK_DSN", "DEALER_CONSOLE_TABLE_ID", "PGPASSFILE"):
        env.pop(name, None)
    admin_env: dict[str, str] = {}
    for line in documented_commands():
        line = (line.replace("host=jackpot-db.cardroom port=5432", f"host={pg.root} port=5432")
                .replace("/etc/dealer-console/", f"{etc}/")
                .replace("config/linked/", f"{ROOT}/config/linked/"))
        words = shlex.split(line)
        if words[0] == "export":
            name, _, value = words[1].partition("=")
            env[name] = value
            continue
        if words[0] in ("createuser", "createdb", "psql"):  # as the server's superuser
            run_env = dict(env, PGHOST=str(pg.root), PGPORT="5432", PGUSER=pg.user,
                           PGPASSFILE=str(pg.passfile))
            _run([str(bindir / words[0]), *words[1:]], run_env, tmp_path,
                 stdin=f"{admin_password}\n{admin_password}\n")
            if words[0] == "createuser":  # the administrator's ~/.pgpass, as the doc says
                (home / ".pgpass").write_text(f"{pg.root}:5432:jackpot:linkadmin:"
                                              f"{admin_password}\n")
                (home / ".pgpass").chmod(0o600)
            continue
        if words[0] == "dealer-console":
            _run([*CLI, *words[1:]], env, tmp_path)
            admin_env = dict(env)
            continue
        _run(words, env, tmp_path)
    assert env["DEALER_CONSOLE_TABLE_ID"] == "pit1-t3"
    assert "user=table-pit1-t3" in env["DEALER_CONSOLE_LINK_DSN"]
    profile = f"{ROOT}/config/linked/washington-linked.toml"
    # the simulated table's staff confirm its hits: the administrator adds them, as the doc's
    for employee_id, name, role in (("SIM-S1", "Sim Supervisor", "supervisor"),
                                    ("SIM-X1", "Sim Executive", "executive")):
        _run([*CLI, "link", "add-confirmer", employee_id, "--name", name, "--role", role,
              "--reason", "the simulated table's staff"], admin_env, tmp_path)
    db = tmp_path / "pit1-t3.db"
    _run([*CLI, "simulate", "--profile", profile, "--devices", "in-process", "--faults",
          "jackpot-hands", "--rounds", "10", "--db", str(db), "--seed", "5"], env, tmp_path)
    game = next(g for g in find_profile(profile).jackpots.games if g.linked)  # type: ignore[union-attr]
    sender = OutboxSender(db, link="pit-1", table_id="pit1-t3",
                          dsn=env["DEALER_CONSOLE_LINK_DSN"], game=game)
    try:
        while sender.drain_once():
            pass
    finally:
        sender._close()
    assert "link meters: OK" in _run([*CLI, "link", "audit"], admin_env, tmp_path)
    _run([*CLI, "audit", "verify", "--db", str(db), "--profile", profile], env, tmp_path)
    status = _run([*CLI, "link", "status"], admin_env, tmp_path)
    with sqlite3.connect(db) as conn:
        wagers = conn.execute("SELECT COUNT(*), COALESCE(SUM(wager_cents), 0) FROM "
                              "jackpot_wagers").fetchone()
        hits = conn.execute("SELECT COUNT(*) FROM jackpot_hits WHERE link = 'pit-1'"
                            ).fetchone()[0]
    assert wagers[0] > 0 and hits > 0
    assert "table pit1-t3: last contact" in status
    assert f"{wagers[0]} wagers" in status and f"{hits} hits" in status
    # a second console with this table's name and login is refused while the first is on
    # (the link's owner here is the administrator, not a superuser)
    first = OutboxSender(db, link="pit-1", table_id="pit1-t3",
                         dsn=env["DEALER_CONSOLE_LINK_DSN"], game=game)
    second = OutboxSender(tmp_path / "copy.db", link="pit-1", table_id="pit1-t3",
                          dsn=env["DEALER_CONSOLE_LINK_DSN"], game=game)
    shutil.copy(db, tmp_path / "copy.db")
    try:
        first.drain_once()
        with pytest.raises(LinkError, match="another console is connected"):
            second.drain_once()
    finally:
        first._close()
        second._close()
