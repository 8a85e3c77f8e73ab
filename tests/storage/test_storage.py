"""The table database: pragmas on every connection, migrations, the append-only log and its
hash chain, and the upgrade from the first released schema."""

from __future__ import annotations

import itertools
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.storage import eventlog
from dealer_console.storage.connection import StorageError, connect, pragmas
from dealer_console.storage.schema import MIGRATIONS
from dealer_console.table_db import open_table_db

SCHEMAS = Path(__file__).parent / "schemas"
TABLES = {"events", "rounds", "wagers", "fees", "hands", "settlement_lines", "banker_rotation",
          "misdeals", "interventions", "devices"}


def test_every_connection_is_wal_with_full_sync(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    assert pragmas(db) == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1}
    second = connect(tmp_path / "t.db")
    assert pragmas(second) == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1}


def test_schema_tables_and_migrations_are_idempotent(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    assert set(db.table_names()) >= TABLES
    names = [m.name for m in MIGRATIONS.applied(db)]
    assert names == ["0001_initial", "0002_append_only_inserts_and_device_facts",
                     "0003_events_by_kind", "0004_win_prints_by_award"]
    db.close()
    db = open_table_db(tmp_path / "t.db")
    assert [m.name for m in MIGRATIONS.applied(db)] == names


def test_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StorageError, match=r"bad\.db"):
        open_table_db(bad)


def _append(db: object, kind: str, payload: dict[str, object], **kw: object) -> eventlog.Event:
    from sqlite_utils import Database

    assert isinstance(db, Database)
    with db.atomic():
        return eventlog.append(db, kind, payload, round_id=kw.pop("round_id", None),
                               **kw)  # type: ignore[arg-type]


def test_append_needs_a_transaction(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    with pytest.raises(RuntimeError, match="atomic"):
        eventlog.append(db, "x", {}, round_id=None)


def test_the_log_refuses_update_and_delete(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    _append(db, "a", {"n": 1})
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE events SET kind = 'b'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM events")
    db.execute("INSERT INTO rounds (round_id, profile, phase, status, banker_seat, banker_kind,"
               " first_seq, last_seq) VALUES (1, 'p', 'end', 'open', 0, 'house', 1, 1)")
    db.execute("INSERT INTO settlement_lines VALUES (1, 1, 1, 'base', 'win', 100, 200, 0, -100,"
               " '')")
    with pytest.raises(sqlite3.IntegrityError, match="final"):
        db.execute("UPDATE settlement_lines SET returned_cents = 0")
    with pytest.raises(sqlite3.IntegrityError, match="final"):
        db.execute("DELETE FROM settlement_lines")
    with pytest.raises(sqlite3.IntegrityError):  # the same wager settled twice
        db.execute("INSERT INTO settlement_lines VALUES (1, 2, 1, 'base', 'win', 100, 200, 0,"
                   " -100, '')")


def _plain_connection(path: Path) -> sqlite3.Connection:
    """Any client an operator might use: recursive triggers off, so REPLACE fires no DELETE
    trigger (SQLite, "ON CONFLICT": REPLACE)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA recursive_triggers = OFF")
    return conn


def test_insert_or_replace_cannot_rewrite_an_event(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    first = _append(db, "wager", {"cents": 100})
    _append(db, "wager", {"cents": 200}, device="shuffler", device_seq=3)
    before = list(db.execute("SELECT * FROM events ORDER BY seq"))
    conn = _plain_connection(tmp_path / "t.db")
    cols = "(seq, round_id, kind, payload, recorded_at, device, device_seq, prev_hash, hash)"
    for values in [  # collide on seq, on hash, on the device number; or leave a gap
        (1, None, "wager", '{"cents":99999}', "t", None, None, "0", "h1"),
        (3, None, "wager", "{}", "t", None, None, "0", first.hash),
        (3, None, "wager", "{}", "t", "shuffler", 3, "0", "h3"),
        (9, None, "wager", "{}", "t", None, None, "0", "h9"),
    ]:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(f"INSERT OR REPLACE INTO events {cols} VALUES (?,?,?,?,?,?,?,?,?)",
                         values)
    assert list(db.execute("SELECT * FROM events ORDER BY seq")) == before
    assert eventlog.verify_chain(db) == []


def test_insert_or_replace_cannot_rewrite_a_settlement_line(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    _append(db, "round_opened", {})
    db.execute("INSERT INTO rounds (round_id, profile, phase, status, banker_seat, banker_kind,"
               " first_seq, last_seq) VALUES (1, 'p', 'end', 'open', 0, 'house', 1, 1)")
    db.execute("INSERT INTO settlement_lines VALUES (1, 1, 1, 'base', 'win', 100, 200, 0, -100,"
               " '')")
    conn = _plain_connection(tmp_path / "t.db")
    for line in [(1, 1, 1, "base", "loss", 100, 0, 0, 100, ""),  # same line number
                 (1, 2, 1, "base", "loss", 100, 0, 0, 100, "")]:  # same wager
        with pytest.raises(sqlite3.IntegrityError, match="final"):
            conn.execute("INSERT OR REPLACE INTO settlement_lines VALUES (?,?,?,?,?,?,?,?,?,?)",
                         line)
    rows = list(db.execute("SELECT outcome, returned_cents FROM settlement_lines"))
    assert rows == [("win", 200)]


def test_money_columns_refuse_floats(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    _append(db, "round_opened", {})
    db.execute("INSERT INTO rounds (round_id, profile, phase, status, banker_seat, banker_kind,"
               " first_seq, last_seq) VALUES (1, 'p', 'betting', 'open', 0, 'house', 1, 1)")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO wagers (round_id, seat, kind, amount_cents) VALUES"
                   " (1, 1, 'base', 10.5)")


def test_a_device_sequence_number_is_unique(tmp_path: Path) -> None:
    db = open_table_db(tmp_path / "t.db")
    _append(db, "hand", {}, device="shuffler", device_seq=7)
    assert eventlog.device_event_applied(db, "shuffler", 7)
    assert not eventlog.device_event_applied(db, "shuffler", 8)
    with pytest.raises(sqlite3.IntegrityError):
        _append(db, "hand", {}, device="shuffler", device_seq=7)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]),
                          st.dictionaries(st.text(max_size=8), json_values, max_size=4)),
                min_size=1, max_size=12))
def test_the_chain_verifies_and_links(events: list[tuple[str, dict[str, object]]]) -> None:
    db = open_table_db(":memory:")
    written = [_append(db, k, p) for k, p in events]
    assert eventlog.verify_chain(db) == []
    assert written[0].prev_hash == eventlog.GENESIS
    for before, after in itertools.pairwise(written):
        assert after.prev_hash == before.hash
    assert [e.payload for e in eventlog.events(db)] == [w.payload for w in written]


def _tamper(db: object, sql: str) -> None:
    from sqlite_utils import Database

    assert isinstance(db, Database)
    db.execute("DROP TRIGGER events_no_update")
    db.execute("DROP TRIGGER events_no_delete")
    db.execute(sql)


@pytest.mark.parametrize(("sql", "message"), [
    ("UPDATE events SET payload = '{\"cents\":999}' WHERE seq = 2", "hash does not match"),
    ("DELETE FROM events WHERE seq = 2", "gap"),
    ("UPDATE events SET recorded_at = '2020-01-01' WHERE seq = 3", "event 3"),
])
def test_tampering_breaks_the_chain(tmp_path: Path, sql: str, message: str) -> None:
    db = open_table_db(tmp_path / "t.db")
    for i in range(4):
        _append(db, "wager", {"cents": 100 * i})
    _tamper(db, sql)
    problems = eventlog.verify_chain(db)
    assert any(message in p for p in problems), problems


def test_first_released_schema_upgrades_and_keeps_its_data(tmp_path: Path) -> None:
    """``schemas/v1.db`` was written by the first schema with two rounds played; opening it
    applies any later migration and keeps every row and the hash chain."""
    copy = tmp_path / "v1.db"
    shutil.copy(SCHEMAS / "v1.db", copy)
    db = open_table_db(copy)
    assert eventlog.verify_chain(db) == []
    assert next(m.name for m in MIGRATIONS.applied(db)) == "0001_initial"
    done = db.execute("SELECT COUNT(*) FROM rounds WHERE status = 'complete'").fetchone()[0]
    assert done >= 2
    assert set(db.table_names()) >= TABLES
    # the current code still replays the first schema's event log exactly
    from dealer_console.audit.verify import audit

    report = audit(db)
    assert report.ok, report.problems


def test_a_new_table_database_appears_whole_or_not_at_all(tmp_path: Path) -> None:
    """A table killed while its file was being made left an empty file under the name, which
    no start could open again (the crash test found it). The file is made beside its name and
    moved into place whole; a half-made one left beside it is only a leftover."""
    from dealer_console.table_db import open_table_db

    half = tmp_path / ".t.db.new"
    half.write_bytes(b"")  # a start killed while making it
    db = open_table_db(tmp_path / "t.db")
    db.close()
    assert not half.exists()
    assert not list(tmp_path.glob(".t.db.new*"))
    again = open_table_db(tmp_path / "t.db", create=False)  # whole: it opens as a table's
    again.close()


def reference_hash(prev_hash: str, seq: int, round_id: int | None, kind: str,
                   payload_json: str, recorded_at: str, device: str | None,
                   device_seq: int | None) -> str:
    """The chain's hash as docs/storage.md defines it: the canonical JSON of the event's
    fields as one object (the form every earlier console wrote)."""
    import hashlib
    import json

    body = eventlog.canonical_json({
        "seq": seq, "round_id": round_id, "kind": kind, "payload": json.loads(payload_json),
        "recorded_at": recorded_at, "device": device, "device_seq": device_seq})
    return hashlib.sha256((prev_hash + body).encode("ascii")).hexdigest()


@given(st.integers(1, 2**62), st.none() | st.integers(0, 2**62), st.text(max_size=12),
       st.dictionaries(st.text(max_size=8) | st.integers().map(str), json_values, max_size=5),
       st.text(min_size=1, max_size=30), st.none() | st.text(max_size=10),
       st.integers(1, 2**40))
def test_the_hash_put_together_as_text_is_the_canonical_one(
        seq: int, round_id: int | None, kind: str, payload: dict[str, object], at: str,
        device: str | None, number: int) -> None:
    device_seq = None if device is None else number
    text = eventlog.canonical_json(payload)
    prev = "ab" * 32
    assert eventlog.event_hash(prev, seq, round_id, kind, text, at, device, device_seq) == \
        reference_hash(prev, seq, round_id, kind, text, at, device, device_seq)
    # and an append writes the hash a verifier recomputes from the stored row
    from sqlite_utils import Database

    db = Database(memory=True)
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, round_id INTEGER, kind TEXT,"
               " payload TEXT, recorded_at TEXT, device TEXT, device_seq INTEGER,"
               " prev_hash TEXT, hash TEXT)")
    with db.atomic():
        event = eventlog.append(db, kind, payload, round_id=round_id, device=device,
                                device_seq=device_seq, recorded_at=at)
    assert event.hash == reference_hash(eventlog.GENESIS, 1, round_id, kind, text, at, device,
                                        device_seq)
    assert eventlog.verify_chain(db) == []
