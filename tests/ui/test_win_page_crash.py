"""A console killed between recording a win page's print and printing it (the record comes
first: never paper without a record), then started again on its database: the awards screen
names the print NOT FINISHED with what to do, the copy printed from it is recorded as the next
number and settles it, and the audit holds (the unfinished print a note). Also the screen's
words when the unfinished page is another award's than the one chosen."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.storage import eventlog
from tests.ui.child_console import console_child
from tests.ui.test_jackpot_screen import pdf_text
from ui.gallery.jackpot import NATURAL_SF, WILD_SF, hit_round, jackpot_screen, left_unfinished
from ui.gallery.player import ScreenPlayer

TODO = ("ORIGINAL NOT FINISHED (the console stopped before printing it): if no page came out, "
        "print a copy; it is recorded as COPY 2.")


def start(play: list[ScreenPlayer], db: Path) -> ScreenPlayer:
    player = ScreenPlayer.start("washington-face-up", db)
    play.append(player)
    return player


def test_a_console_killed_before_the_page_is_printed_shows_it_not_finished_and_a_copy_settles_it(
        play: list[ScreenPlayer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEALER_CONSOLE_PRINTER", raising=False)
    db = tmp_path / "table.db"
    with console_child("tests.ui.win_page_kill_child", db, "printing") as child:
        child.wait(timeout=60)  # it kills itself where the page would print
    assert child.returncode == -signal.SIGKILL
    assert not (tmp_path / "win-pages").exists()  # no page written
    again = start(play, db)
    kinds = [(e.kind, e.payload.get("copy")) for e in eventlog.events(again.ctl.table.db)
             if e.kind.startswith("win_page_")]
    assert kinds == [("win_page_printed", 1)]  # recorded, and nothing after it
    again.end_game()
    screen = jackpot_screen(again)
    assert screen.table.item(0, 5).text() == "paid\nwin page ORIGINAL NOT FINISHED"
    assert "Paid. Win page asked once, the last (ORIGINAL) at " in screen.detail.text()
    assert screen.detail.text().endswith(
        " for the dealer, by the keypad's money bag (no card). " + TODO)
    assert not screen.unfinished.isVisibleTo(screen)  # the chosen award's: said under the list
    report = audit(again.console.opened.db)
    assert report.ok, report.problems
    assert any("ORIGINAL of award 1" in n and "NOT FINISHED" in n for n in report.notes)
    # what the screen says to do: print a copy
    again.tap(screen.print_page)
    desk = again.window.win_pages
    again.wait(lambda: desk.printed is not None, "the copy")
    assert desk.printed is not None and desk.printed.pdf is not None
    assert desk.printed.pdf.name == "win-page-1-copy-2.pdf"
    assert "COPY 2" in pdf_text(desk.printed.pdf)
    assert not (tmp_path / "win-pages" / "win-page-1.pdf").exists()  # the ORIGINAL never was
    assert desk.dialog is not None
    desk.dialog.accept()
    again.wait(lambda: "a print now is COPY 3." in screen.detail.text(), "the copy said")
    assert "not finished: ORIGINAL (the console stopped), a page printed since" in (
        screen.detail.text())
    assert screen.table.item(0, 5).text() == "paid"
    kinds = [(e.kind, e.payload.get("copy")) for e in eventlog.events(again.ctl.table.db)
             if e.kind.startswith("win_page_")]
    assert kinds == [("win_page_printed", 1), ("win_page_printed", 2),
                     ("win_page_print_finished", 2)]
    report = audit(again.console.opened.db)
    assert report.ok, report.problems


def test_another_award_s_unfinished_page_is_named_above_the_list(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, tmp_path / "table.db")
    hit_round(p, NATURAL_SF)
    hit_round(p, WILD_SF)
    assert left_unfinished(p, 1) == 1  # as a console killed while printing it leaves it
    screen = jackpot_screen(p)
    assert [e.hit.hit_id for e in screen.entries] == [2, 1]  # award 2 chosen, the newest
    assert screen.unfinished.isVisibleTo(screen)
    assert screen.unfinished.text() == f"Award 1's win page: {TODO}"
    assert screen.table.item(1, 5).text() == "paid\nwin page ORIGINAL NOT FINISHED"
    assert screen.table.item(0, 5).text() == "paid"
    screen.table.selectRow(1)  # award 1 chosen: its words under the list, none above
    assert not screen.unfinished.isVisibleTo(screen)
    assert screen.detail.text().endswith(TODO)
