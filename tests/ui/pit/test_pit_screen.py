"""The pit's screen: pictures that fit both podium screens, and the window fed by its reader
thread from a real server, a tile touched, an alert acknowledged on a supervisor's card."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from dealer_link.pit import server
from dealer_link.pit.server import Ack, ReportRow
from tests.pit.helpers import (
    DEALER_CARD,
    EXEC_CARD,
    SUPER_CARD,
    as_table,
    init_pit,
    pit_dsn,
    report,
)
from ui.fit_check import screen_problems
from ui.gallery.pit import PIT_PAGES, sample_rows
from ui.pit.app import open_pit
from ui.pit.window import PitWindow
from ui.theme import apply_theme
from ui.widgets.touch import TouchButton


@pytest.fixture
def themed(qapp: QApplication) -> QApplication:
    apply_theme(qapp)
    return qapp


@pytest.mark.parametrize("size", [QSize(1280, 800), QSize(1920, 1080)])
@pytest.mark.parametrize("page", sorted(PIT_PAGES))
def test_the_pit_fits_the_podium_s_screen(themed: QApplication, qtbot: QtBot, page: str,
                                          size: QSize) -> None:
    window = PIT_PAGES[page]()
    qtbot.addWidget(window)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    window.resize(size)
    window.show()
    for _ in range(3):
        QApplication.processEvents()
    assert screen_problems(window, size) == []


def test_the_most_urgent_is_first_and_loud_and_no_tile_moves(themed: QApplication,
                                                             qtbot: QtBot) -> None:
    window = PitWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show_rows(sample_rows())
    def place(table: str) -> tuple[int, int]:
        at = window.grid.getItemPosition(window.grid.indexOf(window.tiles[table]))
        assert isinstance(at, tuple)
        return int(at[0]), int(at[1])

    grid_order = sorted(window.tiles, key=place)
    assert grid_order == [f"pit1-t{n}" for n in range(1, 11)]  # the floor's order
    assert window.tiles["pit1-t1"].alert.text() == "JACKPOT WAITING"
    assert "seen · Sam Super" in window.tiles["pit1-t5"].alert.text()
    assert [(w.alert.table_id, w.alert.kind) for w in window.alert_rows if w.alert] == [
        ("pit1-t1", "jackpot"), ("pit1-t6", "rewind"), ("pit1-t2", "closed")]
    assert window.more.text() == "+2 more alerts on the tiles"
    # a jackpot at the last table: first in the strip, its tile where it was
    rows = sample_rows()
    last = rows[-1]
    rows[-1] = ReportRow(replace(last.report, jackpots_waiting=1), last.age_ms, {})
    before = place("pit1-t10")
    window.show_rows(rows)
    strip = [(w.alert.table_id, w.alert.kind) for w in window.alert_rows if w.alert]
    assert strip[:2] == [("pit1-t1", "jackpot"), ("pit1-t10", "jackpot")]
    assert place("pit1-t10") == before
    assert "10 tables · shift drop $147,250.00" in window.figures.text()


def test_a_report_reaches_the_pit_and_an_alert_is_acknowledged_on_a_card(
        themed: QApplication, qtbot: QtBot, link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t1") as t1, as_table(link_dsn, "t2") as t2:
        server.send_report(t1, report())
        server.send_report(t2, report(jackpots_waiting=1, round_id=9,
                                      round_text="seat 4 marked a royal flush"))
    window, reader = open_pit(pit_dsn(link_dsn))
    qtbot.addWidget(window)
    try:
        window.resize(1280, 800)
        qtbot.waitUntil(lambda: set(window.tiles) == {"t1", "t2"}, timeout=10_000)
        assert window.tiles["t2"].alert.text() == "JACKPOT WAITING"
        window.tiles["t2"].click()  # a touch
        assert window.stack.currentWidget() is window.page
        assert "seat 4 marked a royal flush" in window.page.body.text()
        window.page.show_row(window.rows["t2"])
        # a dealer's card is refused by the server; a supervisor's acknowledges
        for card in (DEALER_CARD, SUPER_CARD):
            window.ask_card("t2", "jackpot")
            assert window.card.isVisibleTo(window)
            window.track.setText(card)
            window.track.returnPressed.emit()
            assert not window.card.isVisibleTo(window)
            qtbot.waitUntil(lambda: "Checking" not in window.status.text(), timeout=10_000)
            if card == DEALER_CARD:
                assert "supervisor's or an executive's card" in window.status.text()
                assert window.rows["t2"].acks == {}
        qtbot.waitUntil(lambda: "jackpot" in window.rows["t2"].acks, timeout=10_000)
        assert "acknowledged by Sam Super" in window.status.text()
        assert "seen · Sam Super" in window.tiles["t2"].alert.text()
        # the table's next change reaches the screen
        with as_table(link_dsn, "t1") as t1:
            server.send_report(t1, report(phase="dealing", round_id=8))
        qtbot.waitUntil(lambda: window.rows["t1"].report.round_id == 8, timeout=10_000)
        assert window.tiles["t1"].state.text() == "round 8: dealing"
    finally:
        reader.stop()


def test_a_records_alert_is_cleared_with_a_reason_on_an_executive_s_card(
        themed: QApplication, qtbot: QtBot, link_dsn: str) -> None:
    init_pit(link_dsn).close()
    digest = "ab" * 32
    with as_table(link_dsn, "t3") as t3:
        server.send_report(t3, report())
        server.witness(t3, 900, digest, None, None)
        server.witness(t3, 12, "cd" * 32, 900, None)  # an older copy of its file
    window, reader = open_pit(pit_dsn(link_dsn))
    qtbot.addWidget(window)
    try:
        window.resize(1280, 800)
        qtbot.waitUntil(lambda: "t3" in window.tiles, timeout=10_000)
        assert window.tiles["t3"].alert.text() == "RECORDS WENT BACK"
        window.tiles["t3"].click()
        assert "had reported event 900" in window.page.body.text()
        clear = next(b for b in window.page.findChildren(TouchButton) if b.text() == "Clear…")
        clear.click()
        assert window.stack.currentWidget() is window.reason
        assert not window.reason.keys.ok.isEnabled()  # no reason, no clearing
        window.reason.keys.type_text("Restored after the disk failed")
        window.reason.keys.ok.click()
        assert window.stack.currentWidget() is window.page
        assert "executive's card" in window.card_words.text()
        window.track.setText(SUPER_CARD)  # a supervisor's card is refused by the server
        window.track.returnPressed.emit()
        qtbot.waitUntil(lambda: "Checking" not in window.status.text(), timeout=10_000)
        assert "cleared on an executive's card" in window.status.text()
        assert window.rows["t3"].rewind is not None
        clear.click()  # the reason typed stays for the executive's card
        assert window.reason.keys.text() == "Restored after the disk failed"
        window.reason.keys.ok.click()
        window.track.setText(EXEC_CARD)
        window.track.returnPressed.emit()
        qtbot.waitUntil(lambda: window.rows["t3"].rewind is None, timeout=10_000)
        assert "cleared by Ella Exec" in window.status.text()
        assert window.tiles["t3"].alert.text() == ""
        assert window.reason.keys.text() == ""
    finally:
        reader.stop()
    with as_table(link_dsn, "t3") as t3:  # the witness starts again from the table's file
        assert server.witness(t3, 12, "cd" * 32, None, None) == 12


def test_the_pit_s_pictures_are_written_for_the_readme(themed: QApplication) -> None:
    from ui.screenshots import DEFAULT_DIR, PAGES, SIZES, render_gallery

    assert set(PIT_PAGES) <= set(PAGES)  # python -m ui.screenshots draws them too
    written = render_gallery(DEFAULT_DIR, PIT_PAGES)
    assert len(written) == len(PIT_PAGES) * len(SIZES)
    assert all(path.stat().st_size > 10_000 for path in written)


def test_an_open_table_s_buttons_stay_under_the_finger(themed: QApplication,
                                                       qtbot: QtBot) -> None:
    window = PitWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    rows = sample_rows()
    window.show_rows(rows)
    window.open_table("pit1-t1")
    buttons = window.page.findChildren(TouchButton)
    acknowledge = [b for b in buttons if b.text() == "Acknowledge"]
    assert len(acknowledge) == 1
    # the next reads: the same reports, older by a few seconds
    for age in (1_400, 2_600):
        window.show_rows([ReportRow(r.report, age, r.acks) for r in rows])
    assert "Last report</b>: 3 s ago" in window.page.body.text()
    assert [b for b in window.page.findChildren(TouchButton)
            if b.text() == "Acknowledge"] == acknowledge
    # acknowledged: the button goes, the name shows
    seen = dict(rows[0].acks, jackpot=Ack("S1", "Sam Super", "21:15:00"))
    window.show_rows([ReportRow(rows[0].report, 3_000, seen), *rows[1:]])
    QApplication.processEvents()
    assert "acknowledged by Sam Super (S1) at 21:15:00" in " ".join(
        label.text() for label in window.page.findChildren(QLabel))


def test_a_table_s_words_are_shown_as_text_never_as_markup(themed: QApplication,
                                                           qtbot: QtBot) -> None:
    """A table's login writes its report's words: on the pit they are text, so a table can
    neither draw a fake alert in large red letters nor make the pit load a file."""
    loud = "<span style='font-size:90px;color:red'>JACKPOT t9</span>"
    img = "<img src='file:///etc/passwd'>"
    bad = report(table_id="t1", round_text=loud, self_test=img, table_open=False,
                 link_state=f"down {img}", events=(loud, img),
                 devices=(server.DeviceState(f"Shuffler {img}", False, loud),))
    window = PitWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show_rows([ReportRow(bad, 400, {"closed": Ack("S1", "<i>Sam</i>", "21:15:00")})])
    window.open_table("t1")
    QApplication.processEvents()
    labels = window.findChildren(QLabel)
    for label in labels:
        rich = label.textFormat() == Qt.TextFormat.RichText or (
            label.textFormat() == Qt.TextFormat.AutoText and "<" in label.text())
        if rich:  # markup of the pit's own only: every table's tag escaped
            assert "<span" not in label.text() and "<img" not in label.text(), label.text()
            assert "<i>" not in label.text()
    shown = " ".join(label.text() for label in labels)
    assert "&lt;span style=" in shown and "&lt;img src=" in shown  # said, as text
    assert "&lt;i&gt;Sam&lt;/i&gt;" in shown
    assert window.page.events.text().startswith(loud)  # plain text: shown as it came


def test_the_podium_says_plainly_when_its_card_attempts_are_locked(
        themed: QApplication, qtbot: QtBot, link_dsn: str) -> None:
    init_pit(link_dsn).close()
    with as_table(link_dsn, "t2") as t2:
        server.send_report(t2, report(jackpots_waiting=1))
    window, reader = open_pit(pit_dsn(link_dsn))
    qtbot.addWidget(window)
    try:
        window.resize(1280, 800)
        qtbot.waitUntil(lambda: "t2" in window.tiles, timeout=10_000)
        window.open_table("t2")
        for n in range(6):  # five unknown cards, then the supervisor's own
            window.ask_card("t2", "jackpot")
            window.track.setText(SUPER_CARD if n == 5 else f";99990000{n:04d}=9?")
            window.track.returnPressed.emit()
            qtbot.waitUntil(lambda: "Checking" not in window.status.text(), timeout=10_000)
        words = window.status.text()
        assert "are locked until" in words and "unlock-cards" in words, words
        assert window.rows["t2"].acks == {}
        assert window.tiles["t2"].alert.text() == "JACKPOT WAITING"
    finally:
        reader.stop()
