"""What needs a person first: the pit's one rule for alerts and the order of tiles."""

from __future__ import annotations

from dealer_link.pit.alerts import (
    HEARTBEAT_LOST_MS,
    alerts_of,
    natural,
    pit_alerts,
)
from dealer_link.pit.report import DeviceState
from dealer_link.pit.server import Ack, ReportRow
from tests.pit.helpers import report


def row(table: str, age_ms: int = 100, acks: dict[str, Ack] | None = None,
        **changes: object) -> ReportRow:
    return ReportRow(report(table_id=table, **changes), age_ms, acks or {})


def test_each_alert_is_found_and_said() -> None:
    quiet = row("t1")
    assert alerts_of(quiet) == []
    loud = row("t1", age_ms=HEARTBEAT_LOST_MS + 1, jackpots_waiting=2, table_open=False,
               self_test="the bet sensors failed", link_state="refused: no such table",
               devices=(DeviceState("Shuffler", False, "unplugged"),
                        DeviceState("Bet sensors", True)))
    found = alerts_of(loud)
    assert [a.kind for a in found] == ["jackpot", "closed", "device", "heartbeat", "link"]
    words = [a.words for a in found]
    assert "2 jackpot hands wait" in words[0]
    assert "the bet sensors failed" in words[1]
    assert words[2] == "Shuffler down: unplugged"
    assert "no word from the table for 10 s" in words[3]
    assert "refused: no such table" in words[4]
    assert alerts_of(row("t1", age_ms=HEARTBEAT_LOST_MS)) == []  # at the bound: not lost
    assert alerts_of(row("t1", link_state="none")) == []  # an unlinked table: no link alert


def test_the_loud_come_first_by_urgency_then_the_acknowledged() -> None:
    seen = Ack("S1", "Sam Super", "21:00:00")
    rows = [row("t10", link_state="down"), row("t2", age_ms=HEARTBEAT_LOST_MS * 2),
            row("t3", jackpots_waiting=1, acks={"jackpot": seen}),
            row("t9", jackpots_waiting=1), row("t1"),
            row("t4", devices=(DeviceState("Keypad", False),))]
    assert [(a.table_id, a.kind) for a in pit_alerts(rows)] == [
        ("t9", "jackpot"), ("t4", "device"), ("t2", "heartbeat"), ("t10", "link"),
        ("t3", "jackpot")]


def test_tables_sort_as_people_count() -> None:
    names = ["pit1-t10", "pit1-t2", "pit2-t1", "pit1-t1"]
    assert sorted(names, key=natural) == ["pit1-t1", "pit1-t2", "pit1-t10", "pit2-t1"]
