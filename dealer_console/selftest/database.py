"""The table database: SQLite's full integrity check, the schema's migrations all applied and
its tables, indexes and triggers as they make them, the event log's hash chain from the last
checkpoint on, the tables the console pays and authorises from held to their history, and the
last round resumable.

The file is opened read-only: a self-test changes nothing it checks. A database that does not
exist yet is a new table's (the console makes it at its first start)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from dealer_console.employees.audit import verify_staff
from dealer_console.errors import ConsoleError
from dealer_console.jackpot import games
from dealer_console.jackpot.audit import verify_in_the_log, verify_meters
from dealer_console.jackpot.setup import differences_from
from dealer_console.profiles.model import Profile
from dealer_console.round.rules import round_rules
from dealer_console.round.table import load_open_round, load_round
from dealer_console.selftest.report import Report
from dealer_console.storage import anchor
from dealer_console.storage.eventlog import GENESIS, NotAsWritten, event_hash
from dealer_console.storage.identity import (
    NotATableDatabase,
    StorageError,
    check_contents,
    check_path,
    has_log,
    read_header,
)
from dealer_console.storage.schema_check import schema_differences
from dealer_console.table_db import SCHEMA


def check_database(report: Report, db_path: Path, profile: Profile | None,
                   key: bytes | None = None) -> None:
    if not db_path.exists():
        report.add("database", True, f"{db_path}: none yet; a new table database is made at "
                                     "the first start")
        return
    for what, path in (("the file", db_path), ("its folder", db_path.parent)):
        if not os.access(path, os.W_OK):  # refused before anything is opened
            report.add("database", False, f"{db_path}: {what} is read-only, so the table "
                                          "cannot write it (run as the console's user)")
            return
    try:
        db = open_untouched(db_path)
    except StorageError as exc:
        report.add("database", False, str(exc))
        return
    try:
        _check_schema(report, db, db_path)
        _check_chain(report, db, db_path, key)
        _check_records(report, db, profile)
        if profile is not None:
            _check_resumable(report, db, profile)
    finally:
        db.close()


def open_untouched(file: Path) -> Database:
    """The database opened so that nothing is written to it or beside it (``immutable``
    when no write-ahead log is there), after the table's own refusals: not a table database,
    damaged (full ``integrity_check``), from a later console; and migrations this console has
    that it lacks (the installer applies them after a backup: ``upgrade-db``)."""
    check_path(file, must_exist=True)
    read_header(file)
    mode = "mode=ro" if has_log(file) else "mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(f"{file.resolve().as_uri()}?{mode}", uri=True,
                               isolation_level=None)
        conn.execute("PRAGMA query_only=ON")
    except sqlite3.Error as exc:
        raise NotATableDatabase(f"{file}: cannot read the table database: {exc}") from None
    db = Database(conn, execute_plugins=False)
    try:
        check_contents(db, str(file), SCHEMA, writing=True, full=True)
        missing = SCHEMA.missing(db)
    except BaseException:
        db.close()
        raise
    if missing:
        db.close()
        raise StorageError(f"{file}: migrations not applied: {', '.join(missing)}; back it "
                           f"up, then run dealer-console upgrade-db --db {file}")
    return db


def _check_schema(report: Report, db: Database, db_path: Path) -> None:
    """The guards inside the file (the log's and the settlement lines' triggers, each table's
    checks) as the migrations made them, and no trigger of anyone else's
    (``storage/schema_check.py``). The checks after this one still run: what else was
    changed is worth knowing too."""
    problems = schema_differences(db, SCHEMA)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        report.add("database", False, f"{db_path}: {problems[0]}{more}: its schema was "
                                      "changed outside the console, which may have taken "
                                      "away the guards of its records; keep the file as it "
                                      "is, run `dealer-console audit verify` and call the "
                                      "audit department before the table opens")
    else:
        report.add("database", True, f"{db_path}: integrity_check ok, migrations current, "
                                     "schema as they make it")


def _check_chain(report: Report, db: Database, db_path: Path, key: bytes | None) -> None:
    """Verify the chain from the newest checkpoint the journal holds that matches the log, or
    from the start. The events before it are held by the journal's checkpoints (a rewrite
    with its chain recomputed no longer has the hash one recorded); an edit that left the
    chain broken there is ``audit verify``'s to find."""
    journal = anchor.journal_for(db_path)
    try:
        checkpoints = anchor.read_journal(journal) if journal.is_file() else []
    except anchor.AnchorError as exc:
        report.add("hash chain", False, str(exc))
        return
    held = anchor.check(db, checkpoints, key)
    if held.problems:
        report.add("hash chain", False, held.problems[0])
        return
    start_seq, start_hash = 0, GENESIS
    for cp in sorted(checkpoints, key=lambda cp: cp.seq, reverse=True):
        row = db.execute("SELECT hash FROM events WHERE seq = ?", [cp.seq]).fetchone()
        if row is not None and str(row[0]).startswith(cp.head):
            start_seq, start_hash = cp.seq, str(row[0])
            break
    broken = chain_breaks(db, start_seq, start_hash)
    if broken:
        report.add("hash chain", False, f"{broken[0]}: run `dealer-console audit verify`")
    else:
        count = int(db.execute("SELECT COUNT(*) FROM events WHERE seq > ?",
                               [start_seq]).fetchone()[0])
        where = f"checkpoint at event {start_seq}" if start_seq else "the first event"
        report.add("hash chain", True, f"{count} events verified from {where}")


def _check_records(report: Report, db: Database, profile: Profile | None) -> None:
    """Each jackpot meter held to its ledger (and the ledger to the wagers taken and the hits
    paid), those wagers, hits and back-outs to the log, the installed jackpot games to the
    profile (as the console holds them when it starts), the staff list to its events. An
    outside review raised a meter by $50,000 with one UPDATE: the self-test passed, and the
    console would have paid percentages of it until an audit. The whole rebuild from the log
    is ``audit verify``'s (too long for every start)."""
    problems = verify_meters(db) + verify_in_the_log(db) + verify_staff(db)
    if profile is not None and games.spots(db):
        wanted = profile.jackpots.games if profile.jackpots is not None else ()
        problems += [f"jackpot game {d}" for d in differences_from(db, wanted)]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        report.add("records", False, f"{problems[0]}{more}: the table database (or its "
                                     "profile) was changed outside the console; run "
                                     "`dealer-console audit verify`")
    else:
        report.add("records", True, "jackpot meters follow their ledger, the games their "
                                    "profile, the staff list its events")


def chain_breaks(db: Database, after_seq: int, after_hash: str) -> list[str]:
    """Every break in the chain after event ``after_seq`` (whose hash is ``after_hash``)."""
    problems: list[str] = []
    prev_hash, expected = after_hash, after_seq + 1
    rows = db.execute("SELECT seq, round_id, kind, payload, recorded_at, device, device_seq,"
                      " prev_hash, hash FROM events WHERE seq > ? ORDER BY seq", [after_seq])
    for seq, round_id, kind, payload, at, device, device_seq, stored_prev, stored in rows:
        if seq != expected:
            problems.append(f"event {seq}: expected event {expected} (a gap)")
        if stored_prev != prev_hash:
            problems.append(f"event {seq}: does not follow the hash of event {seq - 1}")
        try:
            digest = event_hash(stored_prev, seq, round_id, kind, payload, at, device,
                                device_seq)
        except NotAsWritten as exc:
            problems.append(f"event {seq} ({kind}): its payload is not as the console writes "
                            f"it ({exc})")
            digest = event_hash(stored_prev, seq, round_id, kind, payload, at, device,
                                device_seq, as_written=False)
        except (ValueError, TypeError):
            digest = ""
        if digest != stored:
            problems.append(f"event {seq} ({kind}): its hash does not match its content")
        prev_hash, expected = stored, seq + 1
    return problems


def _check_resumable(report: Report, db: Database, profile: Profile) -> None:
    """The round the table would resume (or the last one) rebuilt from its events."""
    row = db.execute("SELECT round_id, profile, status FROM rounds"
                     " ORDER BY round_id DESC LIMIT 1").fetchone()
    if row is None:
        report.add("last round", True, "no round played yet")
        return
    round_id, stored_profile, status = int(row[0]), str(row[1]), str(row[2])
    try:
        rules = round_rules(profile)
        if stored_profile != rules.name:
            report.add("last round", False, f"this database holds a {stored_profile!r} table, "
                                            f"not {rules.name!r}: wrong profile or database")
            return
        state = load_open_round(db, rules) or load_round(db, rules, round_id)
    except (ConsoleError, ValueError, KeyError, TypeError) as exc:
        report.add("last round", False, f"round {round_id} cannot be rebuilt from its events "
                                        f"({exc})")
        return
    report.add("last round", True, f"round {state.round_id} ({status}, phase "
                                   f"{state.phase.value}) rebuilt from its events")
