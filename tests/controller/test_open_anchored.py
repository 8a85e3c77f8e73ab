"""The console opens the database its table's anchor names, or none (``open_table``'s
``table_anchor``): an outside review moved the table's files aside just after the power-on
self-test had passed them, and the console opened a fresh database under the name, its meters
at their seeds; with the files moved back, nothing told of the rounds played in between."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dealer_console.controller import open_table
from dealer_console.controller.table_root import NotTheAnchoredDatabase
from dealer_console.errors import ConsoleError
from dealer_console.profiles.loader import get_profile
from dealer_console.selftest.table_anchor import add
from dealer_link.wiring import start_links

PROFILE = get_profile("washington-face-up")


def made(db: Path) -> None:
    open_table(db, PROFILE, actor="test", links=start_links).close()


def test_only_the_anchored_database_opens(tmp_path: Path) -> None:
    db, anchor = tmp_path / "data" / "table.db", tmp_path / "etc" / "table-db.anchor"
    db.parent.mkdir()
    made(db)
    add(anchor, db, "new", "Ella Exec (X1)")
    open_table(db, PROFILE, actor="test", links=start_links, table_anchor=anchor).close()

    aside = tmp_path / "aside"
    aside.mkdir()
    for file in db.parent.iterdir():  # the table's files moved aside after the self-test
        shutil.move(file, aside / file.name)
    with pytest.raises(ConsoleError):
        open_table(db, PROFILE, actor="test", links=start_links, table_anchor=anchor)
    assert not db.exists()  # and no fresh database was made in its place

    made(db)  # another database under the name
    with pytest.raises(NotTheAnchoredDatabase, match="not this table's database"):
        open_table(db, PROFILE, actor="test", links=start_links, table_anchor=anchor)
    for file in db.parent.iterdir():
        file.unlink()
    for file in aside.iterdir():
        shutil.move(file, db.parent / file.name)
    open_table(db, PROFILE, actor="test", links=start_links, table_anchor=anchor).close()


def test_a_table_without_an_anchor_file_or_line_makes_its_database(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    open_table(db, PROFILE, actor="test", links=start_links,
               table_anchor=tmp_path / "none.anchor").close()
    assert db.exists()
