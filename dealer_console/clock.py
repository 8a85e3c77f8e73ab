"""The console's one wall clock: every time it records (an event, a ledger line, a log entry)
or shows (a report's range, "as of") is read here, so a reader of the code finds in one place
where recorded times come from.

The screenshot galleries hold the clock at one instant (:func:`held_at`), so a picture that
shows a round's time or the shift's date is the same on every day it is drawn. Nothing on a
table holds it. Timings (timeouts, rates, a watchdog) use ``time.monotonic``, never this.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta


def _real() -> datetime:
    return datetime.now(UTC)


_source: Callable[[], datetime] = _real


def now() -> datetime:
    """The time now, in UTC (timezone-aware)."""
    return _source()


def stamp(timespec: str = "microseconds") -> str:
    """The time now as ISO 8601 text in UTC, the form the table database stores."""
    return now().isoformat(timespec=timespec)


@contextmanager
def held_at(instant: datetime, step: timedelta = timedelta(seconds=1)) -> Iterator[None]:
    """The clock starts at ``instant`` (in UTC) and moves ``step`` at every reading, for the
    galleries: what a picture shows depends on what was done, not on when. Recorded times stay
    in order, as the event log's are, and a gallery's few hundred readings span minutes, as a
    table's rounds do. The clock it replaced is back when the block ends."""
    global _source
    if instant.utcoffset() != timedelta(0):
        raise ValueError(f"held_at: {instant!r} is not a UTC time")
    if step <= timedelta(0):
        raise ValueError(f"held_at: the step {step} must move the clock on")
    readings = itertools.count()  # next() on a count is one step under the interpreter's lock
    before = _source
    _source = lambda: instant + step * next(readings)  # noqa: E731
    try:
        yield
    finally:
        _source = before
