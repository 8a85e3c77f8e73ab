"""The supervisor's jackpot screens through the real console: a round played by touch on the
simulated devices with a stacked seven-card straight flush at seat 2, the hit (found by the
console) confirmed with CONFIRM and a card on the simulated keypad and reader; then the win
page printed (the keypad's money bag and the screen's button) and the award backed out on an
executive's card with a typed reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader
from pytestqt.qtbot import QtBot

from dealer_console.audit.verify import audit
from dealer_console.controller.view import Level
from dealer_console.devices.keypad import Button
from dealer_console.jackpot import games, hits
from dealer_console.jackpot_values.meters import MICRO, MeterState
from dealer_console.money import format_cents
from dealer_console.storage import eventlog
from dealer_console.table_name import table_name
from drivers.sim.table.choices import SIM_STAFF
from tests.ui.shown_cards import NOTATION, shown_cards
from ui.gallery.jackpot import NATURAL_SF, jackpot_screen, play_a_jackpot_hit, press
from ui.gallery.player import ScreenPlayer
from ui.supervisor.jackpot_screen import JackpotScreen
from ui.supervisor.meter_history_screen import MeterHistoryList

NAMES = {role: name for _id, name, role, _track in SIM_STAFF}


@pytest.fixture
def player(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[ScreenPlayer]:
    monkeypatch.delenv("DEALER_CONSOLE_PRINTER", raising=False)
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    yield p
    p.close()


def meters(p: ScreenPlayer) -> dict[str, MeterState]:
    return games.meter_states(p.ctl.table.db, 1)


def pdf_text(path: Path) -> str:
    """The PDF's words, each gap one space (Qt's PDF places words apart: pypdf reads tabs)."""
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


def test_the_money_bag_key_prints_the_round_s_award_and_shows_it(player: ScreenPlayer,
                                                                tmp_path: Path) -> None:
    before = play_a_jackpot_hit(player)
    press(player, Button.MONEY_BAG)
    desk = player.window.win_pages
    player.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
    assert desk.printed is not None and desk.printed.pdf is not None
    pdf = desk.printed.pdf
    assert pdf.parent.parent == tmp_path and pdf.name == "win-page-1.pdf"
    text = pdf_text(pdf)
    # a 100% award pays the meter as it stood, rounded down to the cent
    assert format_cents(before.meter_micro // MICRO) in text
    assert NAMES["executive"] in text
    # the table by its one name (issue 23): here its database file's, no id configured
    assert f"Table {table_name(player.ctl.about.db_path)} " in text
    assert NATURAL_SF in text
    assert desk.dialog is not None and desk.dialog.preview.hit.hit_id == 1
    assert "win-page-1.pdf" in desk.dialog.where.text()


def test_the_money_bag_with_no_award_in_the_round_says_so(player: ScreenPlayer) -> None:
    press(player, Button.MONEY_BAG)
    notice = player.ctl.snapshot().notice
    assert notice is not None and notice.level is Level.REFUSED
    assert "no jackpot award has been confirmed in this round" in notice.what
    assert player.window.win_pages.dialog is None


def test_the_awards_list_and_a_reprint_from_the_screen(player: ScreenPlayer) -> None:
    before = play_a_jackpot_hit(player)
    hit = hits.get_hit(player.ctl.table.db, 1)
    player.end_game()
    screen = jackpot_screen(player)
    row = [screen.table.item(0, c).text() for c in range(screen.table.columnCount())]
    hand = row[1].split("\n", 1)
    assert row[0] == "1\nround 1\nseat 2" and hand[0] == "line 1: 7 card natural straight flush"
    assert row[2:] == [format_cents(hit.amount_cents),
                       f"before {format_cents(before.meter_micro // MICRO)}\n"
                       f"after {format_cents(meters(player)['main'].meter_micro // MICRO)}",
                       NAMES["executive"], "paid"]
    # the hand by rank and suit symbol, as the cards show it, in the list and below it
    detail = screen.detail.text()
    assert shown_cards(hand[1]) == NATURAL_SF.split() and not NOTATION.search(hand[1])
    assert shown_cards(detail) == NATURAL_SF.split() and not NOTATION.search(detail), detail
    assert f"Confirmed by {NAMES['executive']} (SIM-X1, executive), at " in (
        detail)  # the whole name, id and role below the list
    player.tap(screen.print_page)  # round 2 now: the screen prints an earlier round's award
    desk = player.window.win_pages
    player.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
    assert desk.printed is not None and desk.printed.pdf is not None
    assert format_cents(hit.amount_cents) in pdf_text(desk.printed.pdf)


def test_each_print_says_which_copy_it_is_and_is_recorded(player: ScreenPlayer,
                                                           tmp_path: Path) -> None:
    """An outside review pressed the money bag three times and a supervisor printed the same
    award twice: five identical pages (the PDF replaced each time), no print recorded."""
    play_a_jackpot_hit(player)
    desk = player.window.win_pages
    db = player.ctl.table.db

    def printed(name: str) -> Path:
        player.wait(lambda: desk.printed is not None and desk.printed.pdf is not None
                    and desk.printed.pdf.name == name, name)
        assert desk.printed is not None and desk.printed.pdf is not None
        return desk.printed.pdf

    pages = []
    for name in ("win-page-1.pdf", "win-page-1-copy-2.pdf", "win-page-1-copy-3.pdf"):
        press(player, Button.MONEY_BAG)  # the dealer, no card
        pages.append(printed(name))
    texts = [pdf_text(page) for page in pages]  # each its own file: the original kept
    assert "ORIGINAL" in texts[0] and "COPY" not in texts[0]
    assert "COPY 2" in texts[1] and "COPY 3" in texts[2]
    assert desk.dialog is not None and desk.dialog.preview.copy == 3
    player.end_game()
    screen = jackpot_screen(player)  # a supervisor's card opened it
    assert "Win page printed 3 times, the last (COPY 3) at " in screen.detail.text()
    assert "a print now is COPY 4." in screen.detail.text()
    for name in ("win-page-1-copy-4.pdf", "win-page-1-copy-5.pdf"):
        player.tap(screen.print_page)
        assert "COPY " + name[-5] in pdf_text(printed(name))
    made = [(e.payload["copy"], e.payload["by"], e.payload.get("employee_id"), e.round_id)
            for e in eventlog.events(db) if e.kind == "win_page_printed"]
    assert made == [(1, "keypad", None, None), (2, "keypad", None, None),
                    (3, "keypad", None, None), (4, "screen", "SIM-S1", None),
                    (5, "screen", "SIM-S1", None)]
    # each print's outcome recorded after it: the page written, to its own file
    assert [(e.payload["copy"], e.payload["file"]) for e in eventlog.events(db)
            if e.kind == "win_page_print_finished"] == [
        (1, "win-pages/win-page-1.pdf"), *((n, f"win-pages/win-page-1-copy-{n}.pdf")
                                          for n in range(2, 6))]
    assert player.ctl.unfinished_win_pages() == []
    report = audit(player.console.opened.db)
    assert report.ok, report.problems


def _type(p: ScreenPlayer, screen: JackpotScreen, text: str) -> None:
    for char in text.upper():
        p.tap(screen.reason.keys[char])


def test_a_back_out_needs_a_reason_and_an_executive_s_card_and_restores_the_meter(
        player: ScreenPlayer) -> None:
    before = play_a_jackpot_hit(player)
    after_award = meters(player)["main"]
    assert after_award != before
    screen = jackpot_screen(player)
    player.tap(screen.back_out)
    assert not screen.ask_card.isEnabled()  # no reason typed yet
    _type(player, screen, " ")
    assert not screen.ask_card.isEnabled()  # a space is not a reason
    player.tap(screen.reason.keys["delete"])
    _type(player, screen, "wrong seat")
    player.tap(screen.ask_card)
    assert "executive's card to back out jackpot award 1" in (
        player.ctl.snapshot().card_wanted or "")

    player.swipe("supervisor")  # refused, with the reason, and nothing changes
    assert screen.message.isVisible()
    assert "needs an executive's card" in screen.message.text()
    assert meters(player)["main"] == after_award
    assert not hits.get_hit(player.ctl.table.db, 1).backed_out
    assert player.ctl.snapshot().card_wanted is not None  # still waiting for the right card

    player.swipe("executive")
    assert meters(player)["main"] == before  # exactly, to the millionth of a cent
    assert hits.get_hit(player.ctl.table.db, 1).backed_out
    assert screen.pages.currentWidget() is screen.awards_page
    status = screen.table.item(0, screen.table.columnCount() - 1).text()
    assert status.startswith(f"BACKED OUT by {NAMES['executive']} (SIM-X1) at ")
    assert status.endswith(": Wrong seat")

    area = player.window.supervisor
    assert area is not None
    player.tap(area.buttons["Meter history"])
    history = area.screens["Meter history"]
    assert isinstance(history, MeterHistoryList)
    newest = [history.table.item(0, c).text() for c in range(history.table.columnCount())]
    assert newest[3].startswith("backed out (adjustment)\nround 1, seat 2, award 1")
    assert "Wrong seat" in newest[3]
    kinds = [e.kind for e in history.entries[:3]]
    assert kinds == ["adjustment", "reset", "award"]
    report = audit(player.console.opened.db)
    assert report.ok, report.problems


def test_cancel_leaves_the_award_paid(player: ScreenPlayer) -> None:
    play_a_jackpot_hit(player)
    screen = jackpot_screen(player)
    player.tap(screen.back_out)
    _type(player, screen, "test")
    player.tap(screen.ask_card)
    player.tap(screen.cancel)
    assert player.ctl.snapshot().card_wanted is None
    player.swipe("executive")  # nothing waits for it now
    assert not hits.get_hit(player.ctl.table.db, 1).backed_out


def test_a_printer_this_machine_lacks_falls_back_to_the_pdf(
        player: ScreenPlayer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEALER_CONSOLE_PRINTER", "Cage printer 2")
    play_a_jackpot_hit(player)
    press(player, Button.MONEY_BAG)
    desk = player.window.win_pages
    player.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
    assert desk.printed is not None and desk.printed.pdf is not None
    assert desk.printed.pdf.is_file()
    assert desk.dialog is not None
    assert "printer Cage printer 2 not found" in desk.dialog.where.text()


def test_a_win_page_that_cannot_be_written_is_told_and_the_award_kept(
        player: ScreenPlayer, tmp_path: Path) -> None:
    (tmp_path / "win-pages").write_text("a file where the folder would go")
    play_a_jackpot_hit(player)
    press(player, Button.MONEY_BAG)
    desk = player.window.win_pages
    player.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
    assert desk.printed is None
    assert desk.dialog is not None and desk.dialog.where.text().startswith("Not printed")
    assert "The next print is ORIGINAL again." in desk.dialog.where.text()
    assert not hits.get_hit(player.ctl.table.db, 1).backed_out
    (tmp_path / "win-pages").unlink()
    press(player, Button.MONEY_BAG)  # the folder free again: the next press prints it
    player.wait(lambda: desk.printed is not None, "the reprint")
    assert desk.printed is not None and desk.printed.pdf is not None
    assert desk.printed.pdf.is_file()
    assert "ORIGINAL" in pdf_text(desk.printed.pdf)  # no page had that number yet
    kinds = [(e.kind, e.payload["copy"]) for e in eventlog.events(player.ctl.table.db)
             if e.kind.startswith("win_page_")]
    assert kinds == [("win_page_printed", 1), ("win_page_not_printed", 1),
                     ("win_page_printed", 1), ("win_page_print_finished", 1)]
    [finished] = [e for e in eventlog.events(player.ctl.table.db)
                  if e.kind == "win_page_print_finished"]
    assert finished.payload["file"] == "win-pages/win-page-1.pdf"  # where the page went
    assert audit(player.console.opened.db).ok


def test_leaving_the_screen_calls_off_a_back_out_waiting_for_its_card(
        player: ScreenPlayer) -> None:
    play_a_jackpot_hit(player)
    screen = jackpot_screen(player)
    player.tap(screen.back_out)
    _type(player, screen, "misread")
    player.tap(screen.ask_card)
    assert player.ctl.snapshot().card_wanted is not None
    area = player.window.supervisor
    assert area is not None
    player.tap(area.leave)
    assert player.ctl.snapshot().card_wanted is None
    player.swipe("executive")
    assert not hits.get_hit(player.ctl.table.db, 1).backed_out


def test_a_page_printed_whose_finish_the_disk_refuses_is_told(
        player: ScreenPlayer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page went out but its finish could not be written: the dialog says the records
    will call the print not finished (the page itself is good)."""
    from dealer_console.jackpot import win_prints
    from dealer_console.storage.failures import WriteFailed

    def full(*_args: object) -> None:
        raise WriteFailed("table.db: the disk is full", "the disk is full")

    play_a_jackpot_hit(player)
    monkeypatch.setattr(win_prints, "record_finished", full)
    press(player, Button.MONEY_BAG)
    desk = player.window.win_pages
    player.wait(lambda: desk.dialog is not None and desk.dialog.isVisible(), "the win page")
    assert desk.printed is not None and desk.printed.pdf is not None
    assert desk.printed.pdf.is_file() and desk.dialog is not None
    where = desk.dialog.where.text()
    assert where.startswith("Printed to the file win-page-1.pdf")
    assert where.endswith("The disk did not record that it was printed (table.db: the disk is "
                          "full): the records will call this print not finished.")
    assert [p.unfinished for p in player.ctl.win_page_prints(1)] == [True]
