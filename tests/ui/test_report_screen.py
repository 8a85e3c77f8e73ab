"""The shift report through the supervisor's screens: rounds played by touch, the report's
figures on screen agree with sums over the settlement rows, and its PDF holds them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_console.money import format_cents
from tests.jackpot.test_winpage_and_crash import pdf_text
from ui.gallery.player import ScreenPlayer
from ui.gallery.recall import open_report


@pytest.fixture
def player(qtbot: object, tmp_path: Path) -> Iterator[ScreenPlayer]:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    yield p
    p.close()


def test_the_report_on_screen_and_in_its_pdf(player: ScreenPlayer) -> None:
    assert player.hardware.shuffler is not None
    player.hardware.shuffler.script(seed=21)
    for _ in range(3):
        player.open_round(seats=(2, 3, 5))
        player.until_hands_set()
        player.play_to_end()
        player.end_game()
    rows = player.ctl.table.db.execute(
        "SELECT staked_cents, returned_cents FROM settlement_lines WHERE outcome != 'charge'"
    ).fetchall()
    drop, paid = sum(r[0] for r in rows), sum(r[1] for r in rows)
    assert drop > 0
    screen = open_report(player)
    assert screen.figure("Rounds played") == "3"
    assert screen.figure("Drop in all") == format_cents(drop)
    assert screen.figure("Paid out in all") == format_cents(paid)
    assert screen.figure("Hold (drop minus paid out)") == format_cents(drop - paid, sign=True)
    assert screen.figure("Card swipes").startswith("1 accepted")  # the card that opened it
    player.tap(screen.write_pdf)
    player.wait(lambda: not screen.reader.busy, "the PDF to be written")
    assert screen.written is not None and screen.written.exists()
    assert screen.written.parent == Path(player.ctl.table.db.file).parent / "reports"  # type: ignore[attr-defined]
    assert str(screen.written) in screen.status.text()
    text = pdf_text(screen.written)
    for figure in (format_cents(drop), format_cents(paid), format_cents(drop - paid)):
        assert figure in text


def test_a_range_in_the_past_holds_no_rounds(player: ScreenPlayer) -> None:
    screen = open_report(player)
    player.tap(screen.change)
    for _ in range(2):
        player.tap(screen.picker.start.buttons["- day"])
        player.tap(screen.picker.end.buttons["- day"])
    player.tap(screen.show_button)
    player.wait(lambda: not screen.reader.busy, "the report")
    assert screen.figure("Rounds played") == "0"
    assert screen.figure("Drop in all") == "$0.00"


def test_the_report_lists_the_win_pages_printed_and_one_not_finished(
        player: ScreenPlayer) -> None:
    """The award's page printed by the money bag, then a copy recorded and never printed (as
    a console killed in between leaves it): the screen's rows and lines say both."""
    from ui.gallery.jackpot import left_unfinished, money_bag_print, play_a_jackpot_hit

    play_a_jackpot_hit(player)
    money_bag_print(player)
    player.end_game()
    left_unfinished(player, 1)
    screen = open_report(player)
    assert screen.figure("Win pages printed") == "1: 1 original, 0 copies"
    assert screen.figure("Awards whose win page has copies") == "award 1 (1 copy)"
    assert screen.figure("Win pages NOT FINISHED") == "1 (award 1 COPY 2)"
    details = screen.details.text().splitlines()
    assert details[-1] == ("Award 1's win page: COPY 2 NOT FINISHED (the console stopped "
                           "before printing it): if no page came out, print a copy; it is "
                           "recorded as COPY 3.")
    assert details[-3].startswith("Round 1: win page COPY 2 of award 1 at ")
    assert details[-4].startswith("Round 1: win page ORIGINAL of award 1 at ")
