"""The chain's hash, its body put together as text, writes each field as the canonical JSON
(``allow_nan=False``) does: an outside review found it written with ``json.dumps``' defaults,
which write a non-finite number as ``Infinity`` (not JSON). SQLite keeps 9e999 in an INTEGER
column as a REAL infinity, so a row forged with an infinite round_id or device_seq verified,
where the canonical hash refuses it as a broken chain."""

from __future__ import annotations

import hashlib
import json

import pytest
from sqlite_utils import Database

from dealer_console.storage import eventlog


def reference_hash(prev_hash: str, seq: int, round_id: object, kind: str, payload_json: str,
                   recorded_at: str, device: str | None, device_seq: object) -> str:
    body = eventlog.canonical_json({
        "seq": seq, "round_id": round_id, "kind": kind, "payload": json.loads(payload_json),
        "recorded_at": recorded_at, "device": device, "device_seq": device_seq})
    return hashlib.sha256((prev_hash + body).encode("ascii")).hexdigest()


@pytest.mark.parametrize("round_id, device, device_seq", [
    (float("inf"), None, None), (float("-inf"), None, None), (7, "shuffler", float("inf"))])
def test_a_non_finite_field_is_refused_as_the_canonical_hash_refuses_it(
        round_id: object, device: str | None, device_seq: object) -> None:
    with pytest.raises(ValueError):
        reference_hash(eventlog.GENESIS, 1, round_id, "k", "{}", "t", device, device_seq)
    with pytest.raises(ValueError):
        eventlog.event_hash(eventlog.GENESIS, 1, round_id, "k", "{}", "t", device, device_seq)


def test_a_row_with_an_infinite_round_is_a_break_in_the_chain() -> None:
    db = Database(memory=True)
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, round_id INTEGER, kind TEXT,"
               " payload TEXT, recorded_at TEXT, device TEXT, device_seq INTEGER,"
               " prev_hash TEXT, hash TEXT)")
    # a row written outside the console, its hash computed over the non-JSON text
    digest = hashlib.sha256((eventlog.GENESIS + '{"device":null,"device_seq":null,'
                             '"kind":"round_opened","payload":{},"recorded_at":"t",'
                             '"round_id":Infinity,"seq":1}').encode("ascii")).hexdigest()
    db.execute("INSERT INTO events VALUES (1, 9e999, 'round_opened', '{}', 't', NULL, NULL,"
               " ?, ?)", [eventlog.GENESIS, digest])
    assert db.execute("SELECT typeof(round_id) FROM events").fetchone()[0] == "real"
    assert eventlog.verify_chain(db) != []
