"""The append-only event log and its hash chain.

Every transition of a round is one row here, written in the same transaction as the state it
changes (the caller holds ``db.atomic()``). Each row's hash is sha256 over the previous row's
hash and the canonical JSON of the row, so an auditor can tell whether any row was altered,
removed or reordered; triggers refuse UPDATE and DELETE in the first place.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from dealer_console import clock

GENESIS = "0" * 64
"""The ``prev_hash`` of the first event."""

JSON = dict[str, Any]


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False,
                              ensure_ascii=True)
"""One encoder for every call: ``json.dumps`` with these options builds a new one each time,
and the log encodes several values for each event it appends."""


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, no NaN: the same value always gives the same text."""
    return _CANONICAL.encode(value)


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    round_id: int | None
    kind: str
    payload: JSON
    recorded_at: str
    device: str | None
    device_seq: int | None
    prev_hash: str
    hash: str


class NotAsWritten(ValueError):
    """An event's payload text that is not the console's own writing of its value."""


_IN_ORDER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=True)
"""The canonical encoder without its sorting: a payload decoded with its keys in the order it
has them, written again, must give its text back."""

_WHOLE_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)")


def canonical_payload(payload_json: str) -> str:
    """The canonical JSON of a stored payload's value, which its hash covers; NotAsWritten if
    the text is not what :func:`append` writes for that value. The chain hashes the value,
    not the text, so a text with a key written twice (Python reads the last, SQLite's JSON
    functions the first), spaces or numbers written otherwise kept its hash while a reader in
    SQL could find other values in it: an outside review raised a jackpot meter that way."""
    text = canonical_json(json.loads(payload_json))
    if text != payload_json:  # else it is exactly the writing of its value
        _check_as_written(payload_json)  # an earlier payload whose keys were numbers
    return text


def _check_as_written(payload_json: str) -> None:
    """Raise NotAsWritten unless ``payload_json`` is :func:`canonical_json` of some value:
    each object's keys once each and sorted (as text, or as numbers where every key is a whole
    number: a payload keyed by numbers was written so), nothing else but the compact form."""

    def in_order(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            twice = sorted({k for k in keys if keys.count(k) > 1})
            raise NotAsWritten(f"a key written twice: {', '.join(map(repr, twice))}")
        numbers = all(_WHOLE_NUMBER.fullmatch(k) for k in keys)
        if keys != sorted(keys) and not (numbers and keys == sorted(keys, key=int)):
            raise NotAsWritten(f"its keys out of order: {', '.join(map(repr, keys))}")
        return dict(pairs)

    if _IN_ORDER.encode(json.loads(payload_json, object_pairs_hook=in_order)) != payload_json:
        raise NotAsWritten("not in the console's compact form (spaces, escapes or numbers "
                           "written otherwise)")


def event_hash(
    prev_hash: str,
    seq: int,
    round_id: int | None,
    kind: str,
    payload_json: str,
    recorded_at: str,
    device: str | None,
    device_seq: int | None,
    *,
    as_written: bool = True,
) -> str:
    """The chain's hash of one event: SHA-256 of the previous hash and the canonical JSON of
    the event's fields (its payload decoded and encoded canonically); NotAsWritten when the
    payload's text is not the console's writing of it (:func:`canonical_payload`), unless
    ``as_written`` is False (the hash of its value all the same, for a verifier that has
    already said so)."""
    payload = (canonical_payload(payload_json) if as_written
               else canonical_json(json.loads(payload_json)))
    return _digest(prev_hash, seq, round_id, kind, payload, recorded_at, device, device_seq)


def _digest(prev_hash: str, seq: int, round_id: int | None, kind: str, payload_canonical: str,
            recorded_at: str, device: str | None, device_seq: int | None) -> str:
    """:func:`event_hash` of a payload already decoded and encoded canonically. The body is
    the canonical JSON of the event's fields, its keys in sorted order, put together as text,
    so :func:`append` encodes the payload once rather than again inside the whole."""
    field = canonical_json  # each field as the canonical JSON of the whole would write it
    body = (f'{{"device":{field(device)},"device_seq":{field(device_seq)},'
            f'"kind":{field(kind)},"payload":{payload_canonical},'
            f'"recorded_at":{field(recorded_at)},"round_id":{field(round_id)},'
            f'"seq":{field(seq)}}}')
    return hashlib.sha256((prev_hash + body).encode("ascii")).hexdigest()


def has_log(db: Database) -> bool:
    """Whether ``db`` holds an event log (a table database does; a bare jackpot or registry
    database made by a test does not)."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'"
                      ).fetchone() is not None


def last_event(db: Database) -> tuple[int, str]:
    """``(seq, hash)`` of the newest event, or ``(0, GENESIS)`` for an empty log."""
    row = db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:
        return 0, GENESIS
    return int(row[0]), str(row[1])


def append(
    db: Database,
    kind: str,
    payload: Mapping[str, Any],
    *,
    round_id: int | None,
    device: str | None = None,
    device_seq: int | None = None,
    recorded_at: str | None = None,
) -> Event:
    """Append one event; must run inside the caller's transaction."""
    if not db.conn.in_transaction:
        raise RuntimeError("append() must run inside db.atomic() with the state it changes")
    prev_seq, prev_hash = last_event(db)
    seq = prev_seq + 1
    payload_json = canonical_json(dict(payload))
    at = recorded_at or clock.stamp()
    stored = json.loads(payload_json)  # what a reader of the log gets back
    digest = _digest(prev_hash, seq, round_id, kind, canonical_json(stored), at, device,
                     device_seq)
    db.execute(
        "INSERT INTO events (seq, round_id, kind, payload, recorded_at, device, device_seq,"
        " prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [seq, round_id, kind, payload_json, at, device, device_seq, prev_hash, digest],
    )
    return Event(seq, round_id, kind, stored, at, device, device_seq, prev_hash, digest)


def _row_event(row: tuple[Any, ...]) -> Event:
    seq, round_id, kind, payload, at, device, device_seq, prev_hash, digest = row
    return Event(int(seq), round_id, kind, json.loads(payload), at, device, device_seq,
                 prev_hash, digest)


_COLUMNS = "seq, round_id, kind, payload, recorded_at, device, device_seq, prev_hash, hash"


def events(db: Database, round_id: int | None = None, after: int = 0) -> Iterator[Event]:
    """Events in order, optionally of one round only."""
    if round_id is None:
        cursor = db.execute(f"SELECT {_COLUMNS} FROM events WHERE seq > ? ORDER BY seq", [after])
    else:
        cursor = db.execute(
            f"SELECT {_COLUMNS} FROM events WHERE round_id = ? AND seq > ? ORDER BY seq",
            [round_id, after],
        )
    for row in cursor:
        yield _row_event(tuple(row))


def device_event_applied(db: Database, device: str, device_seq: int) -> bool:
    row = db.execute(
        "SELECT 1 FROM events WHERE device = ? AND device_seq = ?", [device, device_seq]
    ).fetchone()
    return row is not None


def device_fact_applied(db: Database, round_id: int, device: str, fact: str) -> bool:
    """Whether ``device`` already reported ``fact`` (its event key as text) in this round."""
    row = db.execute(
        "SELECT 1 FROM device_facts WHERE round_id = ? AND device = ? AND fact = ?",
        [round_id, device, fact]).fetchone()
    return row is not None


def verify_chain(db: Database) -> list[str]:
    """Every break in the hash chain, described; empty when the log is intact."""
    problems: list[str] = []
    prev_hash = GENESIS
    expected_seq = 1
    cursor = db.execute(
        "SELECT seq, round_id, kind, payload, recorded_at, device, device_seq, prev_hash, hash"
        " FROM events ORDER BY seq"
    )
    for seq, round_id, kind, payload, at, device, device_seq, stored_prev, stored in cursor:
        if seq != expected_seq:
            problems.append(f"event {seq}: expected sequence number {expected_seq} (gap)")
        if stored_prev != prev_hash:
            problems.append(f"event {seq}: prev_hash does not match the hash of event {seq - 1}")
        try:
            digest = event_hash(stored_prev, seq, round_id, kind, payload, at, device,
                                device_seq)
        except NotAsWritten as exc:
            problems.append(f"event {seq} ({kind}): its payload is not as the console writes "
                            f"it ({exc}): SQL could read other values in it than its hash "
                            "covers")
            digest = event_hash(stored_prev, seq, round_id, kind, payload, at, device,
                                device_seq, as_written=False)
        except (ValueError, TypeError) as exc:
            problems.append(f"event {seq}: payload is not valid JSON ({exc})")
            digest = ""
        if digest != stored:
            problems.append(f"event {seq} ({kind}): hash does not match its content")
        prev_hash = stored
        expected_seq = seq + 1
    return problems
