"""The range picker's "Today" (the shift report's and recall's) starts at local midnight, also
on the days the clocks change: an outside review found it an hour early in spring (the last
hour of yesterday in today's report) and an hour late in autumn (today's first hour missing),
the offset of now taken for midnight's."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtWidgets import QApplication

from dealer_console import clock
from ui.supervisor.time_range import TimeRangePicker

ZONE = "America/Los_Angeles"


@pytest.fixture
def pacific() -> Iterator[None]:
    before = os.environ.get("TZ")
    os.environ["TZ"] = ZONE
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


@pytest.mark.parametrize("now", [
    datetime(2026, 3, 8, 19, 0, tzinfo=UTC),   # 12:00 PDT; the clocks went forward at 02:00
    datetime(2026, 11, 1, 19, 0, tzinfo=UTC),  # 11:00 PST; the clocks went back at 02:00
    datetime(2026, 7, 1, 19, 0, tzinfo=UTC),   # an ordinary summer day
])
def test_today_starts_at_local_midnight(qapp: QApplication, pacific: None,
                                        now: datetime) -> None:
    with clock.held_at(now, timedelta(microseconds=1)):
        picker = TimeRangePicker()
        picker.last(0)
    local = now.astimezone(ZoneInfo(ZONE))
    midnight = datetime(local.year, local.month, local.day, tzinfo=ZoneInfo(ZONE))
    assert picker.start.moment == midnight.astimezone(UTC)


def test_the_hour_the_clocks_go_back_reads_differently_twice(pacific: None) -> None:
    """01:30 comes twice on the night the clocks go back: the report's range and recall's
    round times say which, by the zone (an outside review found the two the same text)."""
    from ui.supervisor.recall_view import clock_time, local_time
    from ui.supervisor.time_range import shown_time

    first = datetime(2026, 11, 1, 8, 30, tzinfo=UTC)  # 01:30 PDT
    second = first + timedelta(hours=1)  # 01:30 PST
    assert shown_time(first).endswith("01:30:00 PDT")
    assert shown_time(second).endswith("01:30:00 PST")
    assert local_time(first.isoformat()) == "01 Nov 2026 01:30:00 PDT"
    assert local_time(second.isoformat()) == "01 Nov 2026 01:30:00 PST"
    # a round's button and the end of its times: the time of day (with its zone at the end)
    assert clock_time(second.isoformat()) == "01:30:00"
    assert clock_time(second.isoformat(), zone=True) == "01:30:00 PST"


@pytest.mark.parametrize("day", [
    datetime(2026, 3, 9, 7, 0, tzinfo=UTC),   # midnight PDT, the day after the spring change
    datetime(2026, 11, 2, 8, 0, tzinfo=UTC),  # midnight PST, the day after the autumn change
    datetime(2026, 3, 8, 8, 0, tzinfo=UTC),   # midnight PST, the spring change's own day
])
def test_a_day_earlier_or_later_is_a_calendar_day(qapp: QApplication, pacific: None,
                                                  day: datetime) -> None:
    """The picker's "- day" and "+ day" keep the time of day across a change of the clocks:
    24 hours from midnight the day after a change landed on 23:00 or 01:00, an hour of the
    wrong day in the report."""
    picker = TimeRangePicker(day)
    picker.start.set_moment(day)
    zone = ZoneInfo(ZONE)
    local = day.astimezone(zone)
    for sign, label in ((-1, "- day"), (1, "+ day")):
        picker.start.set_moment(day)
        picker.start.buttons[label].click()
        moved = picker.start.moment.astimezone(zone)
        assert (moved.hour, moved.minute) == (local.hour, local.minute), label
        assert moved.date() == local.date() + timedelta(days=sign), label
    picker.start.set_moment(day)
    picker.start.buttons["+ hour"].click()  # an hour is elapsed time
    assert picker.start.moment == day + timedelta(hours=1)
