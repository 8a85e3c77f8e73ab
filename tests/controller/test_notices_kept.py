"""The warnings the dealer is given about the round's evidence are kept in the table's log
(``dealer_console/round/notices.py``), through the real controller and the simulated devices:
each kind the console keeps, with its round, device and the time it was told; recall shows
them; the audit accepts them and still finds a notice changed, moved or made up. Before, such a
warning lived only on the screen: after a dispute nobody could show the dealer was warned."""

from __future__ import annotations

import io
import json
import sqlite3
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from dealer_console.audit.verify import audit
from dealer_console.cards import parse_cards
from dealer_console.cli import main
from dealer_console.controller import notice_keeper
from dealer_console.devices.keypad import Button
from dealer_console.round import commands as c
from dealer_console.round.notices import NOTICE, KeptNotice, NoticeAbout
from dealer_console.round.recall import format_round, recall_rounds
from dealer_console.round.state import Phase
from dealer_console.storage.eventlog import Event
from dealer_console.storage.failures import WriteFailed
from dealer_console.table_db import open_for_reading
from drivers.keypad.device import KEPT_WINDOW
from drivers.shuffler import framer
from tests.cli.audit_helpers import guards_off, rewrite_event
from tests.controller.conftest import Rig, start_rig
from tests.controller.test_controller import bet, finish_round, notice_text, start_by_keypad
from tests.controller.test_restart_keeps_the_shuffler import (
    held_then_power_cut,
    misdeal_and_redeal,
    restored_behind_the_shuffler,
    start_round,
    start_table,
)
from tests.controller.test_sensors_lock import settle
from tests.controller.test_whole_deck import dealt_out


def kept(db: Any) -> list[tuple[int, dict[str, Any]]]:
    """Every notice in the log: its ``seq`` and payload, oldest first."""
    rows = db.execute("SELECT seq, round_id, payload FROM events WHERE kind = ? ORDER BY seq",
                      [NOTICE]).fetchall()
    assert all(round_id is None for _seq, round_id, _p in rows)  # of no round
    return [(int(seq), json.loads(p)) for seq, _r, p in rows]


def kept_about(rig: Rig, about: NoticeAbout) -> list[dict[str, Any]]:
    return [p for _seq, p in kept(rig.opened.db) if p["about"] == about]


def assert_kept_as_told(rig: Rig, about: NoticeAbout, words: str, device: str) -> None:
    """The notice on the screen is in the log with its round, device and time, and the
    round's recall shows it with that time."""
    shown = rig.controller.snapshot().notice
    assert shown is not None and words in shown.what
    (p,) = [p for p in kept_about(rig, about) if words in p["what"]]
    assert (p["round"], p["device"], p["level"]) == (rig.controller.state.round_id, device,
                                                    "warning")
    assert (p["what"], p["todo"]) == (shown.what, shown.todo)
    (record,) = recall_rounds(rig.opened.db, [p["round"]])
    (listed,) = [n for n in record["notices"] if n["about"] == about and words in n["what"]]
    assert listed["at"] == p["told_at"]
    assert f"told the dealer at {p['told_at']} (warning): {shown.what}" in format_round(record)


def test_a_deal_reported_otherwise_after_the_check_is_kept(rig: Rig) -> None:
    dealt_out(rig)
    shuffler = rig.hardware.shuffler
    assert shuffler is not None
    deal = rig.controller.device_desk.deal_id or 0
    shuffler.report(framer.Hand(deal, 3, parse_cards("2c 2d 2h 2s 3c 3d 3h")))
    said = "reported hand 3 of this deal again, saying something else"
    rig.until(lambda: said in notice_text(rig), said)
    assert_kept_as_told(rig, NoticeAbout.DEAL_NOT_AS_REPORTED, said, "shuffler")
    (p,) = kept_about(rig, NoticeAbout.DEAL_NOT_AS_REPORTED)
    assert p["fact"].startswith(f"changed/shuffler/{deal}/hand 3/")  # the report it is about
    finish_round(rig)
    rig.controller.end_game()
    report = audit(rig.opened.db)
    assert report.ok, report.problems


def test_a_deal_number_the_shuffler_refuses_is_kept(tmp_path: Path) -> None:
    db, double, dealt = restored_behind_the_shuffler(tmp_path)
    refused = dealt[0]  # round 1's deal, dealt before the restore
    second = start_table(db, keep=lambda: double)
    try:
        start_round(second)
        words = f"the shuffler will not take deal {refused}"
        second.until(lambda: words in notice_text(second), "the dealer told")
        assert_kept_as_told(second, NoticeAbout.DEAL_REFUSED, words, "shuffler")
        second.controller.do(c.SetActionNumber(3))
        misdeal_and_redeal(second, "the shuffler refused the deal's number")
        assert len(kept_about(second, NoticeAbout.DEAL_REFUSED)) == 1
        assert audit(second.opened.db).ok
    finally:
        second.close()


def test_a_deal_cut_short_by_a_restart_is_kept(tmp_path: Path) -> None:
    db, double = held_then_power_cut(tmp_path)
    second = start_table(db, keep=lambda: double)
    try:
        words = "the shuffler finished this deal, but not all of it reached the console"
        second.until(lambda: words in notice_text(second), "the dealer told")
        assert_kept_as_told(second, NoticeAbout.DEAL_SHORT, words, "shuffler")
        assert audit(second.opened.db).ok
    finally:
        second.close()


def test_a_press_kept_by_the_unplugged_keypad_is_kept(rig: Rig) -> None:
    ctl = rig.controller
    keypad = rig.hardware.keypad
    assert keypad is not None
    bet(rig)
    rig.hardware.unplug("keypad")
    rig.until(lambda: any(d.name == "keypad" for d in ctl.snapshot().faults), "the fault")
    keypad.tap(Button.START_GAME)  # kept in the keypad
    rig.hardware.replug("keypad")
    words = "START GAME was pressed on the keypad while the console could not read it"
    rig.until(lambda: words in notice_text(rig), "the kept press told")
    assert ctl.state.phase is Phase.BETTING
    assert_kept_as_told(rig, NoticeAbout.KEPT_ON_KEYPAD, words, "keypad")
    time.sleep(KEPT_WINDOW)
    start_by_keypad(rig)
    finish_round(rig)
    ctl.end_game()
    assert audit(rig.opened.db).ok


@pytest.mark.parametrize(("about", "words"), [
    (NoticeAbout.LATE_CHIP, "the chip on seat 1's jackpot sensor was not taken at START GAME"),
    (NoticeAbout.CHIP_REMOVED, "the jackpot chip of seat 2 was taken off its sensor")])
def test_a_chip_moved_after_start_game_is_kept(rig: Rig, about: NoticeAbout,
                                               words: str) -> None:
    bus = rig.hardware.bus
    assert bus is not None
    bet(rig)  # seat 2's chip on its sensor
    start_by_keypad(rig)
    if about is NoticeAbout.LATE_CHIP:
        bus.place(1, 1)
    else:
        bus.take(2, 1)
    rig.until(lambda: words in notice_text(rig), words)
    assert_kept_as_told(rig, about, words, "bet-sensors")
    finish_round(rig)
    rig.controller.end_game()
    assert audit(rig.opened.db).ok


def test_a_chip_the_round_refuses_at_start_game_is_kept(rig: Rig) -> None:
    bus = rig.hardware.bus
    assert bus is not None
    bet(rig)
    bus.place(5, 1)  # no base wager at seat 5: no jackpot wager either
    settle(rig, 0.3)
    start_by_keypad(rig)
    words = "jackpot chip at seat 5 not taken"
    rig.until(lambda: words in notice_text(rig), words)
    assert_kept_as_told(rig, NoticeAbout.CHIP_NOT_TAKEN, words, "bet-sensors")
    assert (5, "jackpot") not in rig.controller.state.wagers


def test_a_jackpot_wager_taken_back_at_start_game_is_kept(rig: Rig) -> None:
    ctl = rig.controller
    bet(rig)  # seat 2's chip on its sensor
    ctl.table.handle(c.PlaceWager(1, "jackpot", 100))  # left by a console before: no chip
    settle(rig, 0.3)
    start_by_keypad(rig)
    words = "seat 1's jackpot wager saved before START GAME is taken back"
    rig.until(lambda: bool(kept_about(rig, NoticeAbout.WAGER_TAKEN_BACK)), words)
    assert_kept_as_told(rig, NoticeAbout.WAGER_TAKEN_BACK, words, "bet-sensors")


def test_a_notice_the_disk_refused_is_kept_once_it_takes_writes(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Told while the disk refuses to save: shown as it is, and kept in the log once the disk
    takes writes, in the round it was told in; after that round's end it belongs to the
    round in play then and says which round it was told in, and the audit takes it."""
    ctl = rig.controller
    refusing = [True]
    real = notice_keeper.record

    def disk(db: Any, notice: KeptNotice, in_play: int) -> Event:
        if refusing[0]:
            raise WriteFailed("the disk is full", "the disk is full")
        return real(db, notice, in_play)

    monkeypatch.setattr(notice_keeper, "record", disk)
    bet(rig)
    start_by_keypad(rig)
    assert rig.hardware.bus is not None
    rig.hardware.bus.take(2, 1)
    rig.hardware.bus.place(3, 1)
    rig.until(lambda: len(ctl.kept.unsaved) == 2, "both told")
    assert "jackpot" in notice_text(rig) and kept(rig.opened.db) == []
    told_in = ctl.state.round_id
    finish_round(rig)
    assert len(ctl.kept.unsaved) == 2 and ctl.kept.failure is not None
    monkeypatch.setattr(ctl.turns, "before", None)  # END GAME goes first: saved late
    ctl.end_game()
    refusing[0] = False
    monkeypatch.undo()
    ctl.pump()  # the next turn saves them
    assert ctl.kept.unsaved == () and ctl.kept.failure is None
    saved = [p for _seq, p in kept(rig.opened.db)]
    assert sorted(p["about"] for p in saved) == [NoticeAbout.CHIP_REMOVED,
                                                 NoticeAbout.LATE_CHIP]
    assert all(p["round"] == told_in + 1 and p["told_in_round"] == told_in for p in saved)
    (record,) = recall_rounds(rig.opened.db, [told_in + 1])
    assert f"(warning) (told in round {told_in}, saved at" in format_round(record)
    assert audit(rig.opened.db).ok


@pytest.fixture
def warned(tmp_path: Path) -> tuple[Path, int]:
    """A table file whose first round was played with a chip taken off after START GAME:
    the file and the notice's ``seq``."""
    rig = start_rig(tmp_path / "table.db")
    try:
        bet(rig)
        start_by_keypad(rig)
        assert rig.hardware.bus is not None
        rig.hardware.bus.take(2, 1)
        rig.until(lambda: "taken off its sensor" in notice_text(rig), "the notice")
        finish_round(rig)
        rig.controller.end_game()
        ((seq, _p),) = kept(rig.opened.db)
    finally:
        rig.close()
    return tmp_path / "table.db", seq


def problems(path: Path) -> list[str]:
    db = open_for_reading(path)
    try:
        return audit(db).problems
    finally:
        db.close()


def test_recall_on_the_command_line_shows_the_notice_with_its_time(
        warned: tuple[Path, int]) -> None:
    path, _seq = warned
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["recall", "--db", str(path), "--last", "2"]) == 0
    assert "told the dealer at 20" in out.getvalue()
    assert "the jackpot chip of seat 2 was taken off its sensor: the wager stands" \
        in out.getvalue()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["recall", "--db", str(path), "--last", "2", "--json"]) == 0
    first = json.loads(out.getvalue())[0]
    assert [n["about"] for n in first["notices"]] == ["chip_removed"]
    assert problems(path) == []


def test_a_notice_edited_in_place_breaks_the_chain(warned: tuple[Path, int]) -> None:
    path, seq = warned
    conn = sqlite3.connect(path)
    with guards_off(conn, "events_no_update"):
        conn.execute("UPDATE events SET payload = replace(payload, 'seat 2', 'seat 4') "
                     "WHERE seq = ?", [seq])
    conn.commit()
    conn.close()
    assert f"event {seq} ({NOTICE}): hash does not match its content" in problems(path)


def test_a_notice_deleted_breaks_the_chain(warned: tuple[Path, int]) -> None:
    path, seq = warned
    conn = sqlite3.connect(path)
    with guards_off(conn, "events_no_delete"):
        conn.execute("DELETE FROM events WHERE seq = ?", [seq])
    conn.commit()
    conn.close()
    assert any(f"event {seq + 1}: expected sequence number {seq}" in p
               for p in problems(path))


@pytest.mark.parametrize(("change", "found"), [
    (lambda p: p.update(round=2), "it names round 2, but round 1 was in play"),
    (lambda p: p.update(about="made_up"), "about 'made_up' is no notice the console keeps"),
    (lambda p: p.update(level="loud"), "level 'loud' is none of"),
    (lambda p: p.update(what=""), "it says nothing"),
    (lambda p: p.update(told_at="2999-01-01T00:00:00+00:00"), "after it was saved at"),
    (lambda p: p.update(told_at="yesterday"), "is not a time as the log writes them"),
    (lambda p: p.update(told_in_round=1), "told in round 1, which is not a round before")])
def test_a_notice_rewritten_with_its_chain_recomputed_is_found(
        warned: tuple[Path, int], change: Any, found: str) -> None:
    path, seq = warned
    rewrite_event(path, seq, change)
    found_now = problems(path)
    assert any(p.startswith(f"event {seq} ({NOTICE}): ") and found in p for p in found_now), \
        found_now
    db = open_for_reading(path)
    try:
        (record,) = recall_rounds(db, [1])
    finally:
        db.close()
    assert len(record["notices"]) == 1  # shown where it stands in the log, as it is
