"""The supervisor's meter chart draws the ledger: each point is the meter's running total of
the ledger's entries (summed here from the raw rows, not read from the code under test), and
each hit is marked at the amount it was paid from."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_console.jackpot_values.meters import MICRO
from dealer_console.profiles.loader import get_profile
from tests.jackpot.swipes import back_out_by_card
from tests.ui.test_jackpot_panel import EXECUTIVE_TRACK
from ui.gallery.meter import (
    NATURAL_STRAIGHT_FLUSH,
    confirm_hits,
    deal_a_hit,
    start_player,
    two_game_profile,
)
from ui.gallery.player import ScreenPlayer
from ui.supervisor.meter_chart import ClockAxis, MeterChart


@pytest.fixture
def players() -> Iterator[list[ScreenPlayer]]:
    started: list[ScreenPlayer] = []
    yield started
    for p in started:
        p.close()


def _running_meter(p: ScreenPlayer, spot: int, level: str) -> tuple[list[int], list[int]]:
    """The meter after each ledger entry, in cents rounded down (a hit's award and reset, one
    transaction, as one point), and the meter just before each award."""
    rows = p.ctl.table.db.execute(
        "SELECT kind, hit_id, meter_delta_micro FROM jackpot_ledger WHERE spot = ? AND "
        "level = ? ORDER BY entry", [spot, level]).fetchall()
    points: list[int] = []
    before_awards: list[int] = []
    running, last_hit = 0, None
    for kind, hit_id, delta in rows:
        if kind == "award":
            before_awards.append(running // MICRO)
        running += int(delta)
        if kind == "reset" and hit_id is not None and hit_id == last_hit:
            points[-1] = running // MICRO  # the reset a 100% award brings, same transaction
        else:
            points.append(running // MICRO)
        last_hit = hit_id if kind == "award" else None
    return points, before_awards


def _chart(p: ScreenPlayer) -> MeterChart:
    area = p.open_supervisor("supervisor")
    chart = area.show_screen("Meter chart")
    assert isinstance(chart, MeterChart)
    return chart


def _drawn(chart: MeterChart) -> tuple[list[int], list[int]]:
    _x, y = chart.line.getData()
    _hx, hy = chart.marks.getData()
    return [int(v) for v in y], [int(v) for v in hy]


def test_the_line_is_the_ledger_s_running_meter_and_the_hit_is_marked(
        players: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start_player(get_profile("washington-face-up"), tmp_path / "t.db",
                     meter_display=False)
    players.append(p)
    p.open_round(seats=(2, 3))  # a contribution
    p.until_hands_set()
    p.play_to_end()
    confirm_hits(p)  # whatever the shuffle gave
    p.end_game()
    deal_a_hit(p, NATURAL_STRAIGHT_FLUSH)  # contributions from every seat, then 100% paid
    confirm_hits(p)
    chart = _chart(p)
    points, before_awards = _running_meter(p, 1, "main")
    line, marks = _drawn(chart)
    assert line == points
    assert marks == before_awards and len(marks) == 1
    now = p.ctl.table.db.execute("SELECT meter_micro FROM jackpot_levels").fetchone()[0]
    assert line[-1] == int(now) // MICRO < marks[0]  # paid, then reset below the peak
    assert "1 hit" in chart.heading.text()
    p.tap(chart.buttons[(1, "main")])  # the only meter: still drawn the same
    assert _drawn(chart) == (line, marks)


def test_a_button_per_meter_of_both_games(players: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start_player(two_game_profile(tmp_path), tmp_path / "t.db", meter_display=False)
    players.append(p)
    p.bet(2, "Base", 20)
    p.chip(2, spot=2)  # the second game's sensor
    p.start_game()
    chart = _chart(p)
    assert [b.text() for b in chart.buttons.values()] == [
        "Game 1 Jackpot", "Game 2 Mega", "Game 2 Major", "Game 2 Minor"]
    p.tap(chart.buttons[(2, "minor")])
    assert chart.buttons[(2, "minor")].isChecked()
    assert not chart.buttons[(1, "main")].isChecked()
    points = _running_meter(p, 2, "minor")[0]
    assert len(points) == 2 and points[1] > points[0]  # the seed, then a contribution
    assert _drawn(chart)[0] == points


def test_a_table_without_a_jackpot_has_no_history_to_draw(
        players: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start_player(get_profile("california-face-up"), tmp_path / "t.db")
    players.append(p)
    chart = _chart(p)
    assert chart.empty.isVisible()
    assert not chart.buttons


def test_a_backed_out_hit_is_crossed_not_starred_and_its_back_out_is_a_point(
        players: list[ScreenPlayer], tmp_path: Path) -> None:
    """Issue 23: the back-out was merged into the award's point and the hit still starred."""
    p = start_player(get_profile("washington-face-up"), tmp_path / "t.db",
                     meter_display=False)
    players.append(p)
    deal_a_hit(p, NATURAL_STRAIGHT_FLUSH)
    confirm_hits(p)
    p.end_game()
    db = p.ctl.table.db
    hit_id = int(db.execute("SELECT hit_id FROM jackpot_hits WHERE from_meter_cents > 0"
                            ).fetchone()[0])  # the straight flush (the deal may hold tray pays)
    chart = _chart(p)
    points_paid = _running_meter(p, 1, "main")[0]
    assert _drawn(chart)[0] == points_paid
    back_out_by_card(db, hit_id=hit_id, reason="wrong seat", track=EXECUTIVE_TRACK)
    chart.reload()
    points, before_awards = _running_meter(p, 1, "main")
    line, stars = _drawn(chart)
    assert line == points and len(points) == len(points_paid) + 1  # the back-out's own point
    assert line[-1] == before_awards[0]  # the meter has the award back
    assert stars == []  # no star for an award that was taken back
    _cx, crossed = chart.crossed.getData()
    assert [int(v) for v in crossed] == before_awards
    assert any("(backed out)" in label.toPlainText() for label in chart.labels)


def test_the_time_axis_reads_the_clock(qapp: object) -> None:
    """(``qapp``: an axis is a widget; run first on a worker, without an application, the
    test crashed its process.)"""
    from datetime import datetime

    axis = ClockAxis("bottom")
    noon = datetime(2026, 11, 25, 12, 0, 5).timestamp()
    assert axis.tickStrings([noon, noon + 0.5], 1.0, 0.5) == ["12:00:05.0", "12:00:05.5"]
    assert axis.tickStrings([noon], 1.0, 5) == ["12:00:05"]
    assert axis.tickStrings([noon], 1.0, 300) == ["12:00"]
    assert axis.tickStrings([noon], 1.0, 2 * 86_400) == ["25 Nov"]
