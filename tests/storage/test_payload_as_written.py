"""The chain holds each event's payload text, not only its value, to what the console writes
(``eventlog.canonical_payload``). The hash covers the value Python decodes; a text that gave
the same value but was not the console's writing (a key twice, which SQLite's JSON functions
read the other way; spaces; numbers or escapes written otherwise) kept its hash, and an outside
review raised a jackpot meter through it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.storage import eventlog
from dealer_console.table_db import open_table_db
from tests.cli.audit_helpers import guards_off

values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    | st.dictionaries(st.integers(-10**6, 10**6), inner, max_size=4),  # keyed by numbers
    max_leaves=14)


@given(st.dictionaries(st.text(max_size=6), values, max_size=5))
def test_every_payload_the_console_writes_is_as_written(payload: dict[str, object]) -> None:
    """Keys that are numbers are written in their order as numbers (``canonical_json``); the
    check takes that writing too, as the console has always written it."""
    db = open_table_db(":memory:")
    with db.atomic():
        eventlog.append(db, "test", payload, round_id=None)
    stored = str(db.execute("SELECT payload FROM events").fetchone()[0])
    assert eventlog.canonical_payload(stored) == eventlog.canonical_json(json.loads(stored))
    assert eventlog.verify_chain(db) == []


WRITTEN = '{"a":[1,2.5,"x"],"b":{"10":true,"2":null},"c":"A"}'
REWRITTEN = {
    "a key written twice": ('{"a":[9],"a":[1,2.5,"x"],"b":{"10":true,"2":null},"c":"A"}',
                            "a key written twice: 'a'"),
    "its keys out of order": ('{"b":{"10":true,"2":null},"a":[1,2.5,"x"],"c":"A"}',
                              "its keys out of order: 'b', 'a', 'c'"),
    "a space": ('{"a": [1,2.5,"x"],"b":{"10":true,"2":null},"c":"A"}', "compact form"),
    "a number written otherwise": ('{"a":[1,25e-1,"x"],"b":{"10":true,"2":null},"c":"A"}',
                                   "compact form"),
    "an escape written otherwise": ('{"a":[1,2.5,"x"],"b":{"10":true,"2":null},"c":"\\u0041"}',
                                    "compact form"),
}


def test_the_written_form_passes_and_numbers_as_keys_in_their_order() -> None:
    assert eventlog.canonical_payload(WRITTEN) == WRITTEN
    by_number = '{"b":{"2":null,"10":true}}'  # {2: None, 10: True} as the console wrote it
    assert eventlog.canonical_payload(by_number) == '{"b":{"10":true,"2":null}}'
    with pytest.raises(eventlog.NotAsWritten, match="out of order: '10', '02'"):
        eventlog.canonical_payload('{"b":{"10":true,"02":null}}')  # not how a number is written


@pytest.mark.parametrize("how", list(REWRITTEN))
def test_a_payload_rewritten_to_the_same_value_is_named(how: str, tmp_path: Path) -> None:
    text, why = REWRITTEN[how]
    assert json.loads(text) == json.loads(WRITTEN)  # the same value: the same hash
    with pytest.raises(eventlog.NotAsWritten, match=why):
        eventlog.canonical_payload(text)
    path = tmp_path / "table.db"
    db = open_table_db(path)
    with db.atomic():
        eventlog.append(db, "first", {}, round_id=None)
        eventlog.append(db, "test", json.loads(WRITTEN), round_id=None)
        eventlog.append(db, "after", {"n": 1}, round_id=None)
    db.close()
    conn = sqlite3.connect(path)
    with guards_off(conn, "events_no_update"):
        conn.execute("UPDATE events SET payload = ? WHERE seq = 2", [text])
    conn.commit()
    conn.close()
    db = open_table_db(path, create=False)
    problems = eventlog.verify_chain(db)
    db.close()
    assert len(problems) == 1 and problems[0].startswith(
        "event 2 (test): its payload is not as the console writes it ("), problems
    assert why in problems[0]
