"""Never open a table on the wrong database: the installed console's self-test holds the
database to the anchor kept outside its folder (``/etc/dealer-console/table-db.anchor``).
A table that has had a database refuses to start without it or on another one; starting a
new one is ``dealer-console table-db new`` on an executive's card, logged and anchored; the
install step anchors a database from before anchors; and the console itself (the dealer's
screen) stays closed on a missing database instead of making a fresh one."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.installers.conftest import Installed, dpkg, launch

CARD = ";6006001234567890=2812?\n"


@pytest.fixture
def table(installed: Installed) -> Iterator[Installed]:
    """The installed table PC with no database and no anchor, left so afterwards."""
    anchor = installed.root / "etc/dealer-console/table-db.anchor"

    def clear() -> None:
        for leftover in [anchor, *installed.db.parent.glob("table.db*"),
                         *(installed.db.parent / "backups").glob("*")]:
            leftover.unlink(missing_ok=True)

    clear()
    yield installed
    clear()


def anchor_of(installed: Installed) -> Path:
    return installed.root / "etc/dealer-console/table-db.anchor"


def checked(installed: Installed) -> subprocess.CompletedProcess[str]:
    return installed.self_test("--anchor", str(anchor_of(installed)))


def item(done: subprocess.CompletedProcess[str], name: str) -> str:
    [line] = [x for x in done.stdout.splitlines() if x.split(":")[0][6:] == name]
    return line


def new_db(installed: Installed, db: Path, employee: str = "E100",
           name: str = "Pat Executive", card: str = CARD) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*launch(installed.console, installed.root), "table-db", "new",
                           "--db", str(db), "--anchor", str(anchor_of(installed)), employee,
                           name], input=card, capture_output=True, text=True, timeout=120)


def test_a_table_without_a_database_stays_closed_until_an_executive_starts_one(
        table: Installed) -> None:
    done = checked(table)
    assert done.returncode == 1
    assert item(done, "table database").startswith("FAIL") and "table-db new" in \
        item(done, "table database")
    made = new_db(table, table.db)
    assert made.returncode == 0, made.stderr
    assert "started by Pat Executive (E100), executive" in made.stdout
    [line] = anchor_of(table).read_text().splitlines()
    anchor = json.loads(line)
    assert anchor["act"] == "new" and anchor["by"] == "Pat Executive (E100)"
    first = sqlite3.connect(table.db).execute(
        "SELECT hash, payload FROM events ORDER BY seq LIMIT 1").fetchone()
    assert anchor["first_event"] == first[0]
    assert "table-db new" in first[1]  # the act is in the database's own event log
    done = checked(table)
    assert done.returncode == 0, done.stdout
    assert item(done, "table database").startswith("PASS")


def test_a_deleted_database_fails_even_with_its_journal_gone(table: Installed) -> None:
    assert new_db(table, table.db).returncode == 0
    for file in table.db.parent.glob("table.db*"):
        file.unlink()
    done = checked(table)
    line = item(done, "table database")
    assert done.returncode == 1 and line.startswith("FAIL")
    assert "missing, and this table has had a database" in line and "Pat Executive" in line


def test_another_tables_database_in_its_place_fails(table: Installed, tmp_path: Path) -> None:
    assert new_db(table, table.db).returncode == 0
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    other_anchor = tmp_path / "other.anchor"
    done = subprocess.run([*launch(table.console, table.root), "table-db", "new", "--db",
                           str(elsewhere / "table.db"), "--anchor", str(other_anchor), "E9",
                           "Sam Other"], input=CARD, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    shutil.copyfile(elsewhere / "table.db", table.db)
    done = checked(table)
    assert done.returncode == 1
    assert "not this table's database" in item(done, "table database")


def test_a_new_database_never_replaces_one_and_a_replacement_is_kept_in_the_history(
        table: Installed) -> None:
    assert new_db(table, table.db).returncode == 0
    again = new_db(table, table.db, "E200", "Lee Second")
    assert again.returncode != 0 and "never replaced" in again.stderr
    table.db.rename(table.db.with_name("table-lost.db"))
    for file in table.db.parent.glob("table.db-*"):
        file.unlink()
    again = new_db(table, table.db, "E200", "Lee Second")
    assert again.returncode == 0, again.stderr
    assert "replacing the database started" in again.stdout and "Pat Executive" in again.stdout
    history = [json.loads(x) for x in anchor_of(table).read_text().splitlines()]
    assert [h["by"] for h in history] == ["Pat Executive (E100)", "Lee Second (E200)"]
    assert checked(table).returncode == 0
    table.db.with_name("table-lost.db").unlink()


def test_a_card_that_is_not_a_card_starts_nothing(table: Installed) -> None:
    done = new_db(table, table.db, card="\n")
    assert done.returncode != 0
    assert not table.db.exists() and not anchor_of(table).exists()


def test_the_update_anchors_a_database_from_before_anchors(table: Installed) -> None:
    from tests.round.helpers import make_table, play_round

    played = make_table(table.db.parent, "washington-face-up", name=table.db.name)
    play_round(played, seed=3)
    played.db.close()
    assert "not anchored" in item(checked(table), "table database")
    done = dpkg(table.root, "-i", str(table.deb))
    assert "anchored in" in done.stdout
    assert checked(table).returncode == 0
    again = dpkg(table.root, "-i", str(table.deb))
    assert "already anchored" in again.stdout


def test_the_console_stays_closed_on_a_missing_database(tmp_path: Path) -> None:
    """The dealer's screen (the development copy, same code): with an anchor set, a missing
    database is the self-test's failure and no fresh file is made."""
    anchor = tmp_path / "etc" / "table-db.anchor"
    anchor.parent.mkdir()
    db = tmp_path / "data" / "table.db"
    db.parent.mkdir()
    done = subprocess.run([sys.executable, "-m", "dealer_console.cli", "gui", "--db", str(db),
                           "--quit-after", "0.2"], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen",
                                   DEALER_CONSOLE_TABLE_ANCHOR=str(anchor)))
    assert done.returncode == 2, done.stderr
    assert "table database" in done.stderr and "table-db new" in done.stderr
    assert not db.exists()
