"""Issue 23: a staff session ends when its card may no longer hold it, and an unattended area
locks. Through the real screens, simulated devices and a real table database: a supervisor's
card disabled by an executive while the supervisor's screens are open cannot void a round (the
area closes, saying why, and nothing is voided); a changed role does the same to a technician;
an area left untouched goes back to the dealer's screen."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from sqlite_utils import Database

from dealer_console.controller.staff import StaffDesk
from dealer_console.employees import changes
from dealer_console.employees.registry import Employee, Role
from tests.ui.test_jackpot_panel import EXECUTIVE_TRACK
from tests.ui.test_supervisor_table import table_screen
from ui.gallery.player import ScreenPlayer
from ui.supervisor.session import IDLE_LOCK_DEFAULT, SessionGuard, idle_lock_seconds
from ui.supervisor.table_actions import TableActions


def start(play: list[ScreenPlayer], tmp_path: Path) -> ScreenPlayer:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    play.append(p)
    return p


def voided(p: ScreenPlayer) -> list[dict[str, object]]:
    return [json.loads(r[0]) for r in p.ctl.table.db.execute(
        "SELECT payload FROM events WHERE kind = 'round_voided'")]


def void_ready(p: ScreenPlayer) -> TableActions:
    """The supervisor's table screen, opened by SIM-S1's card, a void's reason typed."""
    p.bet(2, "Base", 50)
    screen = table_screen(p, p.open_supervisor("supervisor"))
    p.tap(screen.reason_buttons["Other reason"])
    screen.reason_keys.type_text("Table closing early")
    p.tap(screen.reason_keys.ok)
    return screen


def test_a_disabled_supervisor_s_open_session_cannot_void_a_round(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, tmp_path)
    screen = void_ready(p)
    # an executive disables the supervisor's card (the command line on the table PC)
    changes.set_enabled(p.ctl.table.db, EXECUTIVE_TRACK, "SIM-S1", False, reason="left")
    p.tap(screen.void_button)
    assert voided(p) == []  # nothing was done in the disabled supervisor's name
    assert p.window.supervisor is None  # the area closed at once
    said = p.window.phase_bar.message_text()
    assert "Sim Supervisor (SIM-S1) has been disabled" in said, said
    assert "supervisor's screens closed" in said


def test_a_new_card_ends_the_session_the_old_card_opened(play: list[ScreenPlayer],
                                                         tmp_path: Path) -> None:
    """An outside review gave a supervisor a new card (as one would for a card reported
    stolen) while the screens the old card had opened stayed open: the old card's session
    voided a round in the supervisor's name. It ends now, as for a disabled card."""
    p = start(play, tmp_path)
    screen = void_ready(p)
    changes.recard(p.ctl.table.db, EXECUTIVE_TRACK, "SIM-S1", "5000100000099=2912")
    p.tap(screen.void_button)
    assert voided(p) == []  # nothing done on the replaced card
    assert p.window.supervisor is None
    said = p.window.phase_bar.message_text()
    assert "Sim Supervisor (SIM-S1) has been given a new card" in said, said


def test_a_change_of_the_table_ends_a_session_whose_card_was_disabled(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    """Not only an action: the next change of the table's view closes the area too."""
    p = start(play, tmp_path)
    p.open_supervisor("supervisor")
    # the command line on the table PC: another process, its own connection to the file
    other = Database(tmp_path / "t.db")
    changes.set_enabled(other, EXECUTIVE_TRACK, "SIM-S1", False, reason="left")
    other.close()
    p.hardware.unplug("shuffler")  # any change of the table: here a device going down
    p.wait(lambda: p.window.supervisor is None, "the supervisor's area to close")
    assert "has been disabled" in p.window.phase_bar.message_text()


def test_a_change_of_the_table_reads_the_staff_list_only_when_it_changed(
        play: list[ScreenPlayer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23's guard read the registry on every redraw of an open area; now only when the
    staff list may have changed (a change made here, or another process's commit)."""
    p = start(play, tmp_path)
    reads: list[str] = []
    real = StaffDesk.session_ended

    def counted(desk: StaffDesk, employee: Employee, required: Role) -> str | None:
        reads.append(employee.employee_id)
        return real(desk, employee, required)

    monkeypatch.setattr(StaffDesk, "session_ended", counted)
    p.open_supervisor("supervisor")
    assert p.hardware.bus is not None
    drawn = 0
    for plugged in (False, True, False, True):  # the bus's cable out and back: redrawn
        before = p.ctl.snapshot()
        (p.hardware.replug if plugged else p.hardware.unplug)("bet-sensors")
        p.wait(lambda b=before: p.ctl.snapshot() is not b, "the cable's change")  # type: ignore[misc]
        drawn += 1
    assert drawn and reads == []  # nothing on the staff list moved: never read
    other = Database(tmp_path / "t.db")  # the command line disables the card
    changes.set_enabled(other, EXECUTIVE_TRACK, "SIM-S1", False, reason="left")
    other.close()
    p.hardware.unplug("bet-sensors")
    p.wait(lambda: p.window.supervisor is None, "the supervisor's area to close")
    assert reads == ["SIM-S1"]  # read once, when it had changed
    assert "has been disabled" in p.window.phase_bar.message_text()


def test_a_technician_whose_role_changed_leaves_test_mode(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, tmp_path)
    area = p.open_technician()
    assert p.ctl.in_test_mode
    changes.change_role(p.ctl.table.db, EXECUTIVE_TRACK, "SIM-T1", Role.DEALER)
    assert not area.act(lambda: None)  # the next action is refused, and ends the session
    assert p.window.technician is None and not p.ctl.in_test_mode
    said = p.window.phase_bar.message_text()
    assert "role changed from technician to dealer" in said, said


def test_an_untouched_area_locks_back_to_the_dealer_s_screen(
        play: list[ScreenPlayer], tmp_path: Path, qtbot: QtBot) -> None:
    p = start(play, tmp_path)
    p.open_supervisor("supervisor")
    guard = p.window.guard
    assert isinstance(guard, SessionGuard) and guard.idle_seconds == IDLE_LOCK_DEFAULT
    guard.idle.stop()  # stopped: the touch below is what starts it again, whatever the load
    p.tap(p.window.supervisor.buttons["Recall"])  # a touch: the lock waits again
    assert guard.idle.isActive() and p.window.supervisor is not None
    guard.idle.setInterval(300)  # the two minutes, shortened for the test
    guard.idle.start()
    qtbot.waitUntil(lambda: p.window.supervisor is None, timeout=5000)
    assert "locked after" in p.window.phase_bar.message_text()
    assert "without a touch" in p.window.phase_bar.message_text()


def test_the_idle_time_is_configurable_and_a_bad_value_is_refused() -> None:
    assert idle_lock_seconds({}) == IDLE_LOCK_DEFAULT == 120
    assert idle_lock_seconds({"DEALER_CONSOLE_IDLE_LOCK": "300"}) == 300
    for bad in ("0", "5", "two minutes", "-30", "99999"):
        with pytest.raises(ValueError, match="whole seconds, 10 to 3600"):
            idle_lock_seconds({"DEALER_CONSOLE_IDLE_LOCK": bad})


def test_the_console_refuses_to_start_with_a_bad_idle_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_console.cli import main

    monkeypatch.setenv("DEALER_CONSOLE_IDLE_LOCK", "2m")
    err = io.StringIO()
    with redirect_stderr(err):
        status = main(["gui", "--simulated", "--db", str(tmp_path / "t.db"),
                       "--quit-after", "1"])
    assert status == 2
    assert "DEALER_CONSOLE_IDLE_LOCK='2m': give the idle lock in whole seconds" in err.getvalue()
    assert not (tmp_path / "t.db").exists()
