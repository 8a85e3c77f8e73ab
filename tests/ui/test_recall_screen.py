"""Game recall through the supervisor's screens: rounds played by touch, the area opened by a
supervisor's card, rounds recalled by page, by number and by time, drawn as the database holds
them, under a banner that says RECALL; also while a device is at fault."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import redirect_stdout
from datetime import datetime
from pathlib import Path

import pytest

from dealer_console.cards import parse_cards
from dealer_console.cli import main
from ui.gallery.player import ScreenPlayer
from ui.gallery.recall import open_recall
from ui.supervisor.recall_screen import BANNER, PAGE, RecallScreen


def _play(p: ScreenPlayer, rounds: int) -> None:
    assert p.hardware.shuffler is not None
    p.hardware.shuffler.script(seed=21)
    for _ in range(rounds):
        p.open_round(seats=(2, 3, 5))
        p.until_hands_set()
        p.play_to_end()
        p.end_game()


@pytest.fixture
def player(qtbot: object, tmp_path: Path) -> Iterator[ScreenPlayer]:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    yield p
    p.close()


def _wait(p: ScreenPlayer, screen: RecallScreen) -> None:
    p.wait(lambda: not screen.reader.busy, "recall to be read")


def _hands_in_db(p: ScreenPlayer, round_id: int) -> dict[int, str]:
    """Each seat's cards as the table set them (low then high), or as dealt if not set."""
    rows = p.ctl.table.db.execute(
        "SELECT seat, cards, low, high FROM hands WHERE round_id = ? AND void = 0 AND deal_no ="
        " (SELECT MAX(deal_no) FROM hands WHERE round_id = ?)", [round_id, round_id])
    return {seat: f"{low} {high}" if low else cards for seat, cards, low, high in rows}


def _drawn(screen: RecallScreen, seat: int) -> list[str]:
    from ui.widgets.card import CardRow

    row = screen.view.rows[seat].findChild(CardRow)
    assert row is not None
    return [str(c) for c in row.cards()]


def _assert_drawn_as_stored(p: ScreenPlayer, screen: RecallScreen, round_id: int) -> None:
    assert screen.view.record is not None and screen.view.record["round"] == round_id
    stored = _hands_in_db(p, round_id)
    assert set(screen.view.rows) == set(stored)
    for seat, cards in stored.items():
        assert _drawn(screen, seat) == [str(c) for c in parse_cards(cards)]


def test_the_last_rounds_are_recalled_under_the_banner(player: ScreenPlayer) -> None:
    _play(player, 3)
    screen = open_recall(player)
    assert screen.banner.isVisible() and screen.banner.text() == BANNER
    assert "RECALL" in screen.banner.text()
    assert list(screen.round_buttons) == [1, 2, 3, 4]  # oldest first; 4 is the live round
    assert "live" in screen.round_buttons[4].text()
    _assert_drawn_as_stored(player, screen, 3)  # the newest finished round
    banker_titles = [label.text() for label in screen.view.rows[0].findChildren(
        type(screen.banner))]
    assert "Low hand (House Way)" in banker_titles and "High hand" in banker_titles
    player.tap(screen.round_buttons[1])
    _assert_drawn_as_stored(player, screen, 1)
    wagers = player.ctl.table.db.execute(
        "SELECT seat, amount_cents FROM wagers WHERE round_id = 1 AND kind = 'base'").fetchall()
    for seat, cents in wagers:
        panel_text = " ".join(label.text() for label in screen.view.rows[seat].findChildren(
            type(screen.banner)))
        assert f"Base ${cents // 100}.{cents % 100:02d}" in panel_text


def test_a_round_is_found_by_its_number(player: ScreenPlayer) -> None:
    _play(player, 3)
    screen = open_recall(player)
    player.tap(screen.by_number)
    player.type_number(screen.number_pad, 2)
    _wait(player, screen)
    assert screen.body.currentWidget() is screen.rounds_page
    _assert_drawn_as_stored(player, screen, 2)
    assert screen.round_buttons[2].isChecked()
    player.tap(screen.by_number)
    player.type_number(screen.number_pad, 99)
    _wait(player, screen)
    assert "There is no round 99" in screen.status.text()


def test_rounds_are_found_by_the_time_they_started(player: ScreenPlayer) -> None:
    _play(player, 3)
    opened = dict(player.ctl.table.db.execute(
        "SELECT round_id, recorded_at FROM events WHERE kind = 'round_opened'").fetchall())
    screen = open_recall(player)
    player.tap(screen.by_time)
    screen.picker.set_range(datetime.fromisoformat(opened[2]), datetime.fromisoformat(opened[3]))
    player.tap(screen.find_in_range)
    _wait(player, screen)
    assert list(screen.round_buttons) == [2]
    _assert_drawn_as_stored(player, screen, 2)
    # by touch: the range moved a day back holds nothing, and an end before the start is
    # refused before anything is read
    player.tap(screen.by_time)
    player.tap(screen.picker.start.buttons["- day"])
    player.tap(screen.picker.end.buttons["- day"])
    player.tap(screen.find_in_range)
    _wait(player, screen)
    assert screen.round_buttons == {} and "No rounds ended" in screen.status.text()
    player.tap(screen.by_time)
    player.tap(screen.picker.quick["Last hour"])
    player.tap(screen.find_in_range)
    _wait(player, screen)
    assert list(screen.round_buttons) == [1, 2, 3, 4]
    player.tap(screen.by_time)
    for _ in range(3):
        player.tap(screen.picker.end.buttons["- hour"])
    player.tap(screen.find_in_range)
    assert "end of the range must be after its start" in screen.status.text()


def test_recall_opens_while_a_device_is_at_fault(player: ScreenPlayer) -> None:
    _play(player, 2)
    player.hardware.unplug("shuffler")
    player.wait(lambda: not next(d for d in player.ctl.snapshot().devices
                                 if d.name == "shuffler").connected, "the shuffler's fault")
    screen = open_recall(player)
    assert screen.banner.isVisible()
    _assert_drawn_as_stored(player, screen, 2)


def test_older_rounds_are_paged_back(qtbot: object, tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    with redirect_stdout(io.StringIO()):
        assert main(["simulate", "--devices", "in-process", "--rounds", "14", "--profile",
                     "washington-face-up", "--db", str(db), "--seed", "2"]) == 0
    p = ScreenPlayer.start("washington-face-up", db)
    try:
        screen = open_recall(p)
        newest = list(screen.round_buttons)
        assert len(newest) == PAGE and newest[-1] == 15
        assert not screen.newer.isEnabled()
        p.tap(screen.older)
        _wait(p, screen)
        assert list(screen.round_buttons) == list(range(1, newest[0]))
        assert not screen.older.isEnabled()
        _assert_drawn_as_stored(p, screen, newest[0] - 1)
        p.tap(screen.newer)
        _wait(p, screen)
        assert list(screen.round_buttons) == newest
    finally:
        p.close()


def test_an_intervention_s_amount_is_shown_in_dollars_and_stored_as_written(
        player: ScreenPlayer) -> None:
    """Issue 23: the round's log said "250045 cents". The stored words stay (the audit hashes
    them); the recall screen and the command line show dollars."""
    from PySide6.QtWidgets import QLabel

    from dealer_console.money import format_cents
    from ui.gallery.jackpot import play_a_jackpot_hit

    play_a_jackpot_hit(player)
    player.end_game()
    (stored, cents) = player.ctl.table.db.execute(
        "SELECT i.detail, h.amount_cents FROM interventions i, jackpot_hits h"
        " WHERE i.kind = 'jackpot_confirmed'").fetchone()
    assert stored.endswith(f": {cents} cents")  # as written when it happened
    screen = open_recall(player)
    shown = [label.text() for label in screen.view.findChildren(QLabel)
             if "Jackpot confirmed by" in label.text()]
    assert shown and all("cents" not in text for text in shown), shown
    assert any(text.endswith(f": seat 2 line 1: {format_cents(cents)}") for text in shown), shown
    out = io.StringIO()
    with redirect_stdout(out):
        main(["recall", "--db", str(player.console.opened.db_path), "--last", "2"])
    assert f"line 1: {format_cents(cents)}" in out.getvalue()
    assert f"{cents} cents" not in out.getvalue()


def test_dollars_in_text_reads_each_amount() -> None:
    from dealer_console.money import dollars_in_text

    assert dollars_in_text("seat 2 line 1: 250045 cents") == "seat 2 line 1: $2,500.45"
    assert dollars_in_text("0 cents and 5 cents") == "$0.00 and $0.05"
    assert dollars_in_text("no amounts, 12 centsless") == "no amounts, 12 centsless"


def test_a_warning_the_dealer_was_given_is_shown_with_its_time(player: ScreenPlayer) -> None:
    """The round's warnings about its evidence are kept in the log (``round/notices.py``)
    and the recall screen shows each with the time the dealer read it."""
    from PySide6.QtWidgets import QLabel

    from ui.supervisor.recall_view import clock_time

    player.open_round(seats=(2, 3))  # seat 2's jackpot chip taken at START GAME
    assert player.hardware.bus is not None
    player.hardware.bus.take(2, 1)
    player.wait(lambda: "taken off its sensor" in str(player.ctl.snapshot().notice),
                "the warning")
    player.until_hands_set()
    player.play_to_end()
    player.end_game()
    (told,) = player.ctl.table.db.execute(
        "SELECT json_extract(payload, '$.told_at') FROM events WHERE kind = 'dealer_notice'"
        ).fetchone()
    screen = open_recall(player)
    shown = [label.text() for label in screen.view.findChildren(QLabel)
             if "The dealer was warned" in label.text()]
    assert shown and (f"The dealer was warned at {clock_time(told, zone=True)}: the jackpot "
                      "chip of seat 2 was taken off its sensor: the wager stands (put the chip "
                      "back on the sensor)") in shown[0], shown


def test_recall_lists_each_print_of_an_award_and_names_one_not_finished(
        player: ScreenPlayer) -> None:
    """Each print of the round's award under it (when, who asked, which copy, where it
    went), and a print the console recorded and never printed (as a console killed in
    between leaves it) named above the seats with what to do."""
    from ui.gallery.jackpot import left_unfinished, money_bag_print, play_a_jackpot_hit

    play_a_jackpot_hit(player)
    money_bag_print(player)
    player.end_game()
    assert left_unfinished(player, 1) == 2
    screen = open_recall(player)
    assert screen.view.record is not None and screen.view.record["round"] == 1
    after = screen.view.after.text().splitlines()
    [original, copy] = [line for line in after if line.startswith("\N{BULLET} Win page ")]
    assert original.startswith("\N{BULLET} Win page ORIGINAL of award 1 at ")
    assert original.endswith("asked by the dealer, by the keypad's money bag (no card): "
                             "printed to the file win-pages/win-page-1.pdf")
    assert copy.startswith("\N{BULLET} Win page COPY 2 of award 1 at ")
    assert copy.endswith(": NOT FINISHED (the console stopped before the page was printed)")
    assert after.index(original) == 1 + next(i for i, line in enumerate(after)
                                             if line.startswith("Jackpot award, game 1"))
    assert screen.view.attention.isVisibleTo(screen)
    assert screen.view.attention.text() == (
        "Jackpot award 1's win page: COPY 2 NOT FINISHED (the console stopped before "
        "printing it): if no page came out, print a copy; it is recorded as COPY 3.")
