"""What someone who can write a table's database file would do to hide a change: rewrite an
event and recompute the hash chain from there on, or erase the newest rounds outright."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer_console.storage.eventlog import canonical_json, event_hash


def rewrite_event(path: Path, seq: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Change event ``seq``'s payload in place and recompute every hash after it, so the chain
    verifies again."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
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
    for name, in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"
                              ).fetchall():
        conn.execute(f"DROP TRIGGER [{name}]")
    first, = conn.execute("SELECT MIN(seq) FROM events WHERE round_id >= ?",
                          [round_id]).fetchone()
    for table in ("settlement_lines", "wagers", "fees", "hands", "misdeals", "interventions",
                  "banker_rotation", "device_facts", "rounds"):
        conn.execute(f"DELETE FROM {table} WHERE round_id >= ?", [round_id])
    conn.execute("DELETE FROM events WHERE seq >= ?", [first])
    conn.execute("DELETE FROM devices")  # each device's last event, as before those rounds
    conn.execute("INSERT INTO devices SELECT device, device_seq, seq FROM events e WHERE"
                 " device IS NOT NULL AND seq = (SELECT MAX(seq) FROM events"
                 " WHERE device = e.device)")
    conn.commit()
    conn.close()
