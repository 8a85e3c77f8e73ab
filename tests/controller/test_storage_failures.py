"""A table whose storage fails in play (an outside review): the step the disk refuses is told
in plain words and lost nowhere, and the table goes on once the disk takes writes again. The
disk is a small one of the test's own, filled to its last byte and freed (``small_disk``);
the journal beside the database is made a folder the console cannot write."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.devices.keypad import Button
from dealer_console.jackpot import games, hits
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from dealer_console.storage.anchor import journal_for, read_journal
from tests.controller.conftest import Rig, floor, start_rig
from tests.controller.small_disk import Disk, disk  # noqa: F401  (the fixture)
from tests.controller.test_controller import bet, finish_round, start_by_keypad
from tests.controller.test_win_page_and_back_out import SUPERVISOR, hit_waiting


def pump_as_the_console_does(rig: Rig, seconds: float,
                             done: Callable[[], bool] = lambda: False) -> None:
    """Apply device events for ``seconds`` or until ``done``: nothing may be raised out of
    the pump (the console's event loop would swallow it, and the dealer see nothing)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not done():
        rig.controller.pump(timeout=0.05)


@pytest.fixture
def on_disk(disk: Disk) -> Iterator[Rig]:  # noqa: F811
    """A table whose database is on the small disk."""
    made = start_rig(disk.where / "table.db")
    try:
        yield made
    finally:
        made.close()


def two_hands_in(rig: Rig) -> None:
    """A round started, its deal coming at a pace, two hands saved."""
    assert rig.hardware.shuffler is not None
    rig.hardware.shuffler.script(hand_interval=0.05)
    bet(rig)
    start_by_keypad(rig)
    rig.until(lambda: len(rig.controller.state.delivered) >= 2, "two hands", one_by_one=True)


def told(rig: Rig) -> str:
    notice = rig.controller.snapshot().notice
    return "" if notice is None else f"{notice.what} {notice.todo}"


def test_hands_dealt_while_the_disk_is_full_are_saved_once_it_takes_them(
        on_disk: Rig, disk: Disk) -> None:  # noqa: F811
    """The shuffler does not deal a finished deal again: a hand the disk refused waits and is
    saved once space is freed, and the deal finishes."""
    rig = on_disk
    ctl = rig.controller
    two_hands_in(rig)
    disk.fill()
    pump_as_the_console_does(rig, 1.5)  # the shuffler delivers the rest meanwhile
    said = told(rig)
    assert "shuffler" in said.lower() and "disk is full" in said, said
    assert ctl.events_stalled and ctl.state.phase is Phase.DEALING
    disk.free()
    pump_as_the_console_does(rig, 10.0, lambda: ctl.state.phase is Phase.BANKER_SET)
    assert ctl.state.phase is Phase.BANKER_SET and len(ctl.state.hands) == 7
    finish_round(rig)
    assert audit(rig.opened.db).ok


def test_a_start_game_the_disk_refused_goes_on_once_it_takes_it(
        on_disk: Rig, disk: Disk) -> None:  # noqa: F811
    """The sensors locked and reported their chips; the wagers could not be written. The
    lock's report waits and is saved once space is freed (the sensors report a lock once)."""
    rig = on_disk
    ctl = rig.controller
    assert rig.hardware.keypad is not None
    bet(rig)
    pump_as_the_console_does(rig, 0.3)
    disk.fill()
    rig.hardware.keypad.tap(Button.START_GAME)
    pump_as_the_console_does(rig, 1.5)
    assert ctl.state.phase is Phase.BETTING and "disk is full" in told(rig)
    disk.free()
    pump_as_the_console_does(rig, 6.0, lambda: ctl.state.phase is not Phase.BETTING)
    assert ctl.state.phase is not Phase.BETTING
    assert ctl.state.wagers[(2, "jackpot")] == 100  # the chip on its sensor, taken once
    finish_round(rig)
    assert audit(rig.opened.db).ok


def test_a_jackpot_swipe_on_a_full_disk_pays_nothing_and_says_so(
        on_disk: Rig, disk: Disk) -> None:  # noqa: F811
    """Nothing is paid and no meter moves (one transaction); the supervisor is told, and the
    swipe again once space is freed pays the hit once."""
    rig = on_disk
    ctl, db, keypad = rig.controller, rig.opened.db, rig.hardware.keypad
    assert keypad is not None
    hit_waiting(rig)
    meters = games.meter_states(db, 1)
    keypad.tap(Button.CONFIRM)
    rig.until(lambda: ctl.snapshot().jackpot_armed, "CONFIRM")
    disk.fill()
    keypad.swipe(SUPERVISOR)
    pump_as_the_console_does(rig, 1.5, lambda: "disk is full" in told(rig))
    assert "disk is full" in told(rig) and "swipe again" in told(rig), told(rig)
    assert hits.hit_for(db, ctl.state.round_id, 1, 2) is None
    assert games.meter_states(db, 1) == meters
    assert not ctl.events_stalled  # a person's swipe is theirs to do again
    disk.free()
    keypad.tap(Button.CONFIRM)
    rig.until(lambda: ctl.snapshot().jackpot_armed, "CONFIRM")
    keypad.swipe(SUPERVISOR)
    rig.until(lambda: hits.hit_for(db, ctl.state.round_id, 1, 2) is not None, "the hit")
    assert db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 1


@pytest.mark.parametrize("refusal", ["a folder", "a link"])
def test_a_checkpoint_the_disk_refuses_is_told_and_the_next_round_is_set_up(
        rig: Rig, tmp_path: Path, refusal: str) -> None:
    """The round's END GAME is committed, then its checkpoint cannot be written: before, the
    error left the sensors locked for the old round and the screens on it. A link planted at
    the journal's name is refused (``anchor.append``), and the file it leads to untouched."""
    ctl = rig.controller
    bus = rig.hardware.bus
    assert bus is not None
    bet(rig)
    start_by_keypad(rig)
    finish_round(rig)
    round_id = ctl.state.round_id
    journal = journal_for(rig.opened.db_path)
    assert not journal.exists()  # the first round's end writes the first line
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"a file of root's, its last line without a newline")
    if refusal == "a folder":
        journal.mkdir()  # the disk will not take the journal's line
    else:
        journal.symlink_to(elsewhere)
    shown = []
    ctl.add_listener(shown.append)
    ctl.end_game()
    assert ctl.state.round_id == round_id + 1 and ctl.state.phase is Phase.BETTING
    view = shown[-1]
    assert (view.round.round_id, view.round.phase) == (round_id + 1, Phase.BETTING)
    assert view.notice is not None and f"round {round_id} is saved" in view.notice.what
    if refusal == "a folder":
        assert "free space" in view.notice.todo
    else:
        assert "is a symbolic link" in view.notice.what, view.notice.what
        assert "see to the journal" in view.notice.todo
    assert elsewhere.read_bytes() == b"a file of root's, its last line without a newline"
    rig.until(lambda: not any(node.lock_id for node in bus.nodes.values()),
              "the sensors released")
    if refusal == "a folder":
        journal.rmdir()
    else:
        journal.unlink()
    bet(rig)
    start_by_keypad(rig)
    finish_round(rig)
    ctl.end_game()  # the next round's end writes the newest point
    assert read_journal(journal)[-1].seq == rig.opened.db.execute(
        "SELECT MAX(seq) FROM events").fetchone()[0]
    assert audit(rig.opened.db).ok


def test_a_deck_count_the_disk_refused_is_saved_once_it_takes_it(
        on_disk: Rig, disk: Disk) -> None:  # noqa: F811
    """The shuffler counts the deck once: the count waits for the disk like a hand (an
    outside review found it dropped at the retry, the misdeal waiting for good)."""
    rig = on_disk
    ctl = rig.controller
    two_hands_in(rig)
    ctl.supervise(c.DeclareMisdeal("not_four_left", "the dealer saw three cards left"), floor(ctl))
    assert ctl.state.phase is Phase.MISDEAL and ctl.state.deck_count_due
    rig.until(lambda: not ctl.device_desk.deal_open and not ctl.events_waiting,
              "the void deal's end")
    disk.fill()
    ctl.count_deck()
    pump_as_the_console_does(rig, 1.5)
    said = told(rig)
    assert "could not be saved" in said and "it saves by itself" in said, said
    disk.free()
    pump_as_the_console_does(rig, 5.0, lambda: not ctl.state.deck_count_due)
    assert not ctl.state.deck_count_due and ctl.state.phase is Phase.MISDEAL
    assert audit(rig.opened.db).ok


def test_while_a_report_waits_for_the_disk_the_devices_are_shown_as_they_are(
        on_disk: Rig, disk: Disk) -> None:  # noqa: F811
    """The reports behind the waiting one wait too, in order, but what the dealer sees of the
    devices follows them, and a press on the keypad is told not taken (an outside review
    found an unplugged device shown connected); the notice is not told again at each try."""
    rig = on_disk
    ctl = rig.controller
    assert rig.hardware.keypad is not None
    two_hands_in(rig)
    disk.fill()
    pump_as_the_console_does(rig, 1.0)
    notice = ctl.snapshot().notice
    assert ctl.events_stalled and notice is not None and "disk is full" in notice.what
    pump_as_the_console_does(rig, 0.5)
    assert ctl.snapshot().notice == notice  # the same notice, not a new one every try
    rig.hardware.unplug("bet-sensors")  # the sensors' cable comes out meanwhile
    pump_as_the_console_does(rig, 3.0,
                             lambda: any(d.name == "bet-sensors" for d in ctl.snapshot().faults))
    assert any(d.name == "bet-sensors" for d in ctl.snapshot().faults)
    rig.hardware.keypad.tap(Button.END_GAME)
    pump_as_the_console_does(rig, 2.0, lambda: "not taken" in told(rig))
    assert "keypad: not taken while the disk refuses to save" in told(rig)
    rig.hardware.replug("bet-sensors")
    disk.free()
    pump_as_the_console_does(rig, 10.0, lambda: ctl.state.phase is Phase.BANKER_SET)
    assert ctl.state.phase is Phase.BANKER_SET and len(ctl.state.hands) == 7
    finish_round(rig)
    assert audit(rig.opened.db).ok
