"""What someone who can write a table's database file would do to hide a change: rewrite an
event and recompute the hash chain from there on, or erase the newest rounds outright. Each
takes the file's guards (its triggers) away for the change and puts them back as they were,
so the schema holds what the migrations make (``storage/schema_check.py``) and only the
records can give the change away."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dealer_console.storage.eventlog import canonical_json, event_hash


def copied(played: Path, folder: Path) -> Path:
    """A test's own copy of a table database played once for its module."""
    copy = folder / "table.db"
    shutil.copy(played, copy)
    return copy


def tamper(path: Path, *sql: str) -> None:
    """Each statement run straight on the file, as anyone who can write it could."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in sql:
            conn.execute(statement)
    finally:
        conn.close()


@contextmanager
def guards_off(conn: sqlite3.Connection, like: str = "%") -> Iterator[None]:
    """The triggers whose names match ``like`` dropped, then made again as they were."""
    kept = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND "
                        "name LIKE ?", [like]).fetchall()
    for name, _sql in kept:
        conn.execute(f"DROP TRIGGER [{name}]")
    yield
    for _name, sql in kept:
        conn.execute(sql)


def rewrite_event(path: Path, seq: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Change event ``seq``'s payload in place and recompute every hash after it, so the chain
    verifies again."""
    conn = sqlite3.connect(path)
    with guards_off(conn, "events_no_update"):
        payload, = conn.execute("SELECT payload FROM events WHERE seq = ?", [seq]).fetchone()
        data = json.loads(payload)
        change(data)
        conn.execute("UPDATE events SET payload = ? WHERE seq = ?", [canonical_json(data), seq])
        rechain(conn, seq)
    conn.commit()
    conn.close()


def rechain(conn: sqlite3.Connection, start: int) -> None:
    prev, = conn.execute("SELECT COALESCE((SELECT hash FROM events WHERE seq = ?), ?)",
                         [start - 1, "0" * 64]).fetchone()
    rows = conn.execute("SELECT seq, round_id, kind, payload, recorded_at, device, device_seq"
                        " FROM events WHERE seq >= ? ORDER BY seq", [start]).fetchall()
    for seq, round_id, kind, payload, at, device, device_seq in rows:
        digest = event_hash(prev, seq, round_id, kind, payload, at, device, device_seq)
        conn.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?",
                     [prev, digest, seq])
        prev = digest


def erase_rounds_from(path: Path, round_id: int) -> None:
    """Remove round ``round_id`` and every later one: events, state rows, jackpot rows."""
    conn = sqlite3.connect(path)
    with guards_off(conn):
        first, = conn.execute("SELECT MIN(seq) FROM events WHERE round_id >= ?",
                              [round_id]).fetchone()
        for table in ("settlement_lines", "wagers", "fees", "hands", "misdeals",
                      "interventions", "banker_rotation", "device_facts", "rounds"):
            conn.execute(f"DELETE FROM {table} WHERE round_id >= ?", [round_id])
        conn.execute("DELETE FROM events WHERE seq >= ?", [first])
        conn.execute("DELETE FROM devices")  # each device's last event, as before those rounds
        conn.execute("INSERT INTO devices SELECT device, device_seq, seq FROM events e WHERE"
                     " device IS NOT NULL AND seq = (SELECT MAX(seq) FROM events"
                     " WHERE device = e.device)")
    conn.commit()
    conn.close()


def append_event(path: Path, kind: str, payload: dict[str, Any], round_id: int | None) -> None:
    """An event added at the end of the chain, its hash chained on as the console would."""
    conn = sqlite3.connect(path)
    seq, prev = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"
                             ).fetchone()
    at = conn.execute("SELECT recorded_at FROM events WHERE seq = ?", [seq]).fetchone()[0]
    body = canonical_json(payload)
    digest = event_hash(prev, seq + 1, round_id, kind, body, at, None, None)
    conn.execute("INSERT INTO events (seq, round_id, kind, payload, recorded_at, device, "
                 "device_seq, prev_hash, hash) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?)",
                 [seq + 1, round_id, kind, body, at, prev, digest])
    conn.commit()
    conn.close()


def resync_tables(path: Path) -> None:
    """Every table the audit rebuilds from the log replaced by its rebuilt twin: the tables
    then agree with a forged log, and only the audit's rules can tell."""
    from dealer_console.audit.rebuild import JACKPOT_TABLES, ROUND_TABLES, rebuild
    from dealer_console.audit.verify import _rules_source
    from dealer_console.storage.connection import connect

    db = connect(path)
    built = rebuild(db, _rules_source(()))
    db.close()
    conn = sqlite3.connect(path)
    with guards_off(conn):
        for table in (*ROUND_TABLES, *JACKPOT_TABLES):
            conn.execute(f"DELETE FROM [{table}]")
            rows = built.shadow.execute(f"SELECT * FROM [{table}]").fetchall()
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                conn.executemany(f"INSERT INTO [{table}] VALUES ({marks})", rows)
    conn.commit()
    conn.close()
