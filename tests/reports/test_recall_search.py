"""Recall's searches over a simulated table: pages that join up, a time range that holds
exactly the rounds ended in it (each opens as the one before ends), and each round's jackpot
awards as the event log has them."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import redirect_stdout

import pytest

from dealer_console.cli import main
from dealer_console.round.recall import (
    format_round,
    recall,
    recall_between,
    recall_page,
    round_numbers,
)
from dealer_console.storage.connection import TableDatabase
from dealer_console.table_db import open_for_reading


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableDatabase]:
    path = tmp_path_factory.mktemp("recall") / "table.db"
    with redirect_stdout(io.StringIO()):
        assert main(["simulate", "--devices", "in-process", "--rounds", "30", "--profile",
                     "washington-face-up", "--faults", "jackpot-hands,misdeal", "--seed", "4",
                     "--db", str(path)]) == 0
    db = open_for_reading(path)
    yield db
    db.close()


def _opened(db: TableDatabase) -> dict[int, str]:
    return {int(r): str(at) for r, at in db.execute(
        "SELECT round_id, recorded_at FROM events WHERE kind = 'round_opened'")}


def test_pages_join_up_without_a_gap_or_an_overlap(table: TableDatabase) -> None:
    span = round_numbers(table)
    assert span is not None
    seen: list[int] = []
    page = recall_page(table, count=10)
    assert [r["round"] for r in page] == [r["round"] for r in recall(table, 10)]
    while page:
        seen = [r["round"] for r in page] + seen
        page = recall_page(table, before=page[0]["round"], count=10)
    assert seen == list(range(span[0], span[1] + 1))


def test_a_time_range_holds_the_rounds_ended_in_it(table: TableDatabase) -> None:
    opened = _opened(table)
    found = recall_between(table, opened[5], opened[12])
    assert [r["round"] for r in found] == list(range(5, 12))
    assert [r["round"] for r in recall_between(table, opened[5], opened[12], limit=3)] == [5, 6, 7]
    assert recall_between(table, "2000-01-01T00:00:00+00:00", opened[1]) == []


def test_each_round_lists_its_jackpot_awards(table: TableDatabase) -> None:
    hits: dict[int, list[tuple[int, int]]] = {}
    for rid, payload in table.execute(
            "SELECT round_id, payload FROM events WHERE kind = 'jackpot_hit' ORDER BY seq"):
        p = json.loads(payload)
        hits.setdefault(rid, []).append((p["seat"], p["award_cents"]))
    assert hits, "the simulated shift was meant to hold jackpot hits"
    rounds = recall_page(table, count=100)
    for r in rounds:
        assert [(j["seat"], j["cents"]) for j in r["jackpots"]] == hits.get(r["round"], [])
    with_hit = next(r for r in rounds if r["jackpots"])
    assert "jackpot game 1" in format_round(with_hit)
