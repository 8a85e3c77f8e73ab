"""``dealer-console table-db new|anchor|restore|show``: which database this table keeps.

A table that has had a database refuses to start without it (the self-test's ``table
database`` item, against the anchor kept outside the database's folder:
:mod:`dealer_console.selftest.table_anchor`). Starting a new table database is therefore an
explicit act: ``table-db new`` on the card of the executive who becomes its first executive,
recorded in the new database's event log, in the anchor's history and in the self-test log.
Putting a backup back (``table-db restore``) is one too, on an executive's card: a copy over
the file by hand would let SQLite write the old ``-wal`` over it (``storage/restore.py``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dealer_console import clock
from dealer_console.cli import CommandError
from dealer_console.cli.checks import file_path, label

_ANCHOR_HELP = "the table's anchor file (default: $DEALER_CONSOLE_TABLE_ANCHOR)"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("table-db", help="start or anchor the table's database")
    actions = parser.add_subparsers(dest="table_db_action", metavar="ACTION", required=True)
    new = actions.add_parser(
        "new", help="start a new table database on an executive's card (stdin), who becomes "
                    "its first executive; logged and anchored",
        description="Makes the table database, puts the executive on file with the card read "
                    "from standard input, and adds the new database to the anchor's history. "
                    "Refused when the file exists: a table database is evidence and is never "
                    "replaced by this command.")
    new.add_argument("--db", required=True, type=file_path, help="the new database's file")
    new.add_argument("--anchor", type=file_path, default=None, help=_ANCHOR_HELP)
    new.add_argument("employee_id", type=label(64), help="the executive's employee id")
    new.add_argument("name", type=label(80), help="the executive's name")
    anchor = actions.add_parser(
        "anchor", help="anchor an existing table database (the install step, at an update "
                       "from a console without anchors)")
    anchor.add_argument("--db", required=True, type=file_path, help="the table's database")
    anchor.add_argument("--anchor", type=file_path, default=None, help=_ANCHOR_HELP)
    restore = actions.add_parser(
        "restore", help="put the table's backup back in place of its database, on an "
                        "executive's card (stdin); what was there is kept aside, logged",
        description="Copies the backup beside the database and checks the copy (SQLite's "
                    "integrity check, the hash chain, the backup's checkpoint journal, that "
                    "it is this table's database by the anchor, and that the card is an "
                    "executive's on its staff list); then moves the database, its -wal, -shm "
                    "and checkpoint journal into a folder table.db.replaced-TIME beside it and "
                    "puts the copy and its journal in their place. Refused while a console "
                    "or simulate has the database open. Never copy a backup over table.db by "
                    "hand: SQLite would write the old -wal over it.")
    restore.add_argument("--from", dest="backup", required=True, type=file_path,
                         help="the backup file (made by dealer-console backup)")
    restore.add_argument("--db", required=True, type=file_path, help="the table's database")
    restore.add_argument("--anchor", type=file_path, default=None, help=_ANCHOR_HELP)
    show = actions.add_parser("show", help="print the anchor's history")
    show.add_argument("--anchor", type=file_path, default=None, help=_ANCHOR_HELP)
    for action in (new, anchor, restore, show):
        action.set_defaults(func=run)


def _anchor_file(option: str | None) -> Path:
    from dealer_console.selftest.table_anchor import ANCHOR_ENV, anchor_path

    chosen = Path(option) if option else anchor_path()
    if chosen is None:
        raise CommandError(f"no anchor file: give --anchor FILE or set {ANCHOR_ENV}")
    return chosen


def run(args: argparse.Namespace) -> int:
    from dealer_console.selftest.table_anchor import TableAnchorError

    anchor = _anchor_file(args.anchor)
    try:
        if args.table_db_action == "show":
            return _show(anchor)
        if args.table_db_action == "anchor":
            return _anchor(anchor, Path(args.db))
        if args.table_db_action == "restore":
            return _restore(anchor, Path(args.backup), Path(args.db))
        return _new(anchor, Path(args.db), args.employee_id, args.name)
    except TableAnchorError as exc:
        raise CommandError(str(exc)) from None


def _show(anchor: Path) -> int:
    from dealer_console.selftest.table_anchor import read_anchors

    anchors = read_anchors(anchor)
    if not anchors:
        print(f"{anchor}: no table database anchored yet")
    for a in anchors:
        print(f"{a.at}  {a.act:8}  {a.database}  first event {a.first_event[:16]}  by {a.by}")
    return 0


def _anchor(anchor: Path, db: Path) -> int:
    from dealer_console.selftest.table_anchor import add, current, first_event_hash

    if not db.is_file():
        raise CommandError(f"--db {db}: no such table database")
    held = current(anchor)
    if held is not None:
        if held.first_event == first_event_hash(db):
            print(f"{db}: already anchored ({held.act} {held.at} by {held.by})")
            return 0
        raise CommandError(f"{anchor} anchors another database (started {held.at} by "
                           f"{held.by}); a new table database is `table-db new`")
    made = add(anchor, db, "anchored", "the install step")
    print(f"{db}: anchored in {anchor} (first event {made.first_event[:16]})")
    return 0


def _new(anchor: Path, db: Path, employee_id: str, name: str) -> int:
    from dealer_console.cli.employees_cmd import read_card
    from dealer_console.employees.changes import setup
    from dealer_console.employees.registry import RegistryError, check_track
    from dealer_console.selftest.table_anchor import add, current
    from dealer_console.storage.connection import StorageError
    from dealer_console.table_db import open_table_db

    if db.exists():
        raise CommandError(f"--db {db}: exists; a table database is evidence and is never "
                           "replaced: move it away (keep it) before starting a new one")
    before = current(anchor)
    track = read_card("the executive's card")
    try:
        check_track(track)  # before anything is made
    except RegistryError as exc:
        raise CommandError(f"the executive's card: {exc}") from None
    try:
        table = open_table_db(db, create=True)
    except (StorageError, OSError) as exc:
        raise CommandError(str(exc)) from None
    try:
        setup(table, employee_id, name, track, actor="table-db new")
    except RegistryError as exc:
        table.close()
        for leftover in (db, *db.parent.glob(db.name + "-*")):
            leftover.unlink(missing_ok=True)
        raise CommandError(str(exc)) from None
    table.close()
    _give_to_folder_owner(db)
    made = add(anchor, db, "new", f"{name} ({employee_id})")
    replaced = (f", replacing the database started {before.at} by {before.by}"
                if before is not None else "")
    _note(f"table-db new: {db} started by {name} ({employee_id}), executive{replaced}; "
          f"anchored in {anchor} (first event {made.first_event[:16]})", "new")
    return 0


def _restore(anchor: Path, backup: Path, db: Path) -> int:
    from dealer_console.cli.employees_cmd import read_card
    from dealer_console.employees.authorize import Refused, check
    from dealer_console.employees.registry import Role
    from dealer_console.selftest.table_anchor import add, current
    from dealer_console.storage.connection import StorageError
    from dealer_console.storage.restore import staged

    held = current(anchor)
    if held is None:
        raise CommandError(f"{anchor} anchors no database: this table has none on record to "
                           "restore; anchor it (`table-db anchor`) or start one "
                           "(`table-db new`)")
    track = read_card("the executive's card")
    try:
        with staged(backup, db) as stage:
            first = stage.first_event()
            if first != held.first_event:
                raise CommandError(
                    f"{backup}: not this table's database (its first event is "
                    f"{(first or 'none')[:16]}, the anchor's {held.first_event[:16]}, started "
                    f"{held.at} by {held.by}); nothing was changed")
            with stage.read() as copy:
                who = check(copy, track, Role.EXECUTIVE, "a restore replaces the table's "
                                                         "database")
            if isinstance(who, Refused):
                raise CommandError(f"the executive's card: {who} (on the backup's staff list); "
                                   "nothing was changed")
            restored = stage.put_in_place()
    except StorageError as exc:
        raise CommandError(f"{exc}; nothing was changed") from None
    _give_to_folder_owner(db)
    add(anchor, db, "restored", f"{who.name} ({who.employee_id}), from {backup}")
    kept = (f"; what was there is kept in {restored.kept}" if restored.kept is not None
            else "; no database was there")
    journal = ("with its checkpoint journal" if restored.journal
               else f"its checkpoint journal not written: {restored.journal_problem}"
               if restored.journal_problem else "with no checkpoint journal")
    _note(f"table-db restore: {db} restored from {backup} ({restored.events} events, up to "
          f"event {restored.head_seq}, {journal}) by {who.name} ({who.employee_id}), "
          f"executive{kept}", "restore")
    return 0


def _note(line: str, act: str) -> None:
    """The act's line in the self-test log (where the table's starts are told) and printed."""
    import os

    log = os.environ.get("DEALER_CONSOLE_SELFTEST_LOG")
    if log:
        from dealer_console.storage.log_files import append_line

        try:
            append_line(Path(log), f"{clock.stamp('seconds')} NOTE  {line}\n")
        except OSError as exc:  # the act is done all the same
            print(f"table-db {act}: the self-test log was not written: {exc.strerror or exc}",
                  file=sys.stderr)
    print(line)


def _give_to_folder_owner(db: Path) -> None:
    """Run as root (the anchor is root's), the files this command made are given to the owner
    of the database's folder (the service user's), so the console can write them: by their
    own names only, never through a link, and only a plain file of its own. An outside review
    left a link ``table.db-x`` to a file of root's in the folder, and a chown of every name
    beginning ``table.db`` gave that file to the service user."""
    import os
    import stat

    from dealer_console.storage.anchor import journal_for
    from dealer_console.storage.identity import SQLITE_COMPANIONS
    from dealer_console.storage.writer_lock import lock_path

    if sys.platform == "win32" or os.geteuid() != 0:  # no root, no owners to hand over
        return
    folder = db.parent.stat()
    for made in (db, *(db.with_name(db.name + s) for s, _what in SQLITE_COMPANIONS),
                 journal_for(db), lock_path(db)):
        try:
            st = os.lstat(made)
        except FileNotFoundError:
            continue
        if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
            os.chown(made, folder.st_uid, folder.st_gid, follow_symlinks=False)
