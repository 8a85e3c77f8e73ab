"""The technician's test mode through the screens, with the simulated devices behind their
real drivers: entered by a technician's card only, each test passing (and a silent node
failing), the raw frames live, a cable pulled and replugged, a port changed and saved."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_console.devices.keypad import Button
from drivers.sim.pty import PtyServer
from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario
from tests.controller.test_test_mode import dump_round_and_meter_tables
from ui.gallery.player import ScreenPlayer
from ui.technician.area import TechnicianArea


@pytest.fixture
def player(qtbot: object, tmp_path: Path) -> Iterator[ScreenPlayer]:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    yield p
    p.close()


def result_text(area: TechnicianArea, device: str, name: str) -> str:
    return area.tests.results[(device, name)].text()


def wait_result(p: ScreenPlayer, area: TechnicianArea, device: str, name: str,
                verdict: str) -> None:
    p.wait(lambda: verdict in result_text(area, device, name),
           f"{verdict} for {device} {name} (shown: {result_text(area, device, name)!r})")


def test_a_technicians_card_opens_test_mode_and_the_dealer_cannot_start(
        player: ScreenPlayer) -> None:
    area = player.open_technician()
    assert player.window.areas.currentWidget() is area
    assert "TEST MODE" in area.banner.text()
    assert "no manifest (development copy)" in area.banner.text()
    assert "washington-face-up" in area.banner.text() and "%" in area.banner.text()
    assert player.ctl.snapshot().test_mode
    assert "Test mode" in player.window.phase_bar.instruction.text()
    player.tap(area.leave)
    assert not player.ctl.snapshot().test_mode
    assert player.window.technician is None
    row = player.ctl.table.db.execute(
        "SELECT employee_id, seconds FROM test_mode_sessions").fetchone()
    assert row[0] == "SIM-T1" and row[1] >= 0


@pytest.mark.parametrize(("role", "why"), [("supervisor", "needs a technician's card"),
                                           ("unknown", "card not recognised")])
def test_a_card_that_is_not_a_technicians_is_refused(player: ScreenPlayer, role: str,
                                                     why: str) -> None:
    player.tap(player.window.technician_button)
    player.swipe(role)
    assert player.window.technician is None
    assert not player.ctl.snapshot().test_mode
    assert why in player.window.phase_bar.message_text()


def test_refused_in_the_middle_of_a_round(player: ScreenPlayer) -> None:
    player.bet(2, "Base", 50)
    player.tap(player.window.technician_button)
    assert "between rounds" in player.window.phase_bar.message_text()
    assert player.ctl.snapshot().card_wanted is None


def test_every_test_passes_on_healthy_devices_and_no_round_or_meter_row_changes(
        player: ScreenPlayer) -> None:
    before = dump_round_and_meter_tables(player.ctl.table.db)
    area = player.open_technician()
    hw = player.hardware
    player.tap(area.tests.buttons[("shuffler", "status")])
    wait_result(player, area, "shuffler", "status", "PASS")
    player.tap(area.tests.buttons[("shuffler", "test deal")])
    wait_result(player, area, "shuffler", "test deal", "PASS")
    assert all(f"{n}: " in area.tests.hands.text() for n in range(1, 8))  # seven hands
    assert player.ctl.state.hands == {}  # never in the round
    player.tap(area.tests.buttons[("shuffler", "deck count")])
    wait_result(player, area, "shuffler", "deck count", "PASS")
    lights = [a for d, a in area.tests.buttons if d == "bet-sensors"]
    assert len(lights) == len(player.ctl.rules.seats) - 1  # every player's seat
    for action in lights:
        player.tap(area.tests.buttons[("bet-sensors", action)])
        seat = action.removeprefix("light seat ")
        wait_result(player, area, "bet-sensors", f"seat {seat} node", "PASS")
    assert hw.bus is not None and hw.keypad is not None
    hw.bus.place(4, 1)
    player.wait(lambda: "chip on" in result_text(area, "bet-sensors", "seat 4 spot 1 chip"),
                "the chip shown live")
    hw.bus.take(4, 1)
    wait_result(player, area, "bet-sensors", "seat 4 spot 1 chip", "PASS")
    # a one-game table: no test for the second spot, no game keys asked for (issue 23: they
    # could never pass)
    bench = player.ctl.snapshot().bench
    assert bench is not None
    assert not [r for r in bench.results if "spot 2" in r.name]
    for button in Button:
        hw.keypad.tap(button)
    wait_result(player, area, "keypad", "every button", "PASS")
    keys = len([b for b in Button if b.game is None])
    assert f"{keys} of {keys} pressed" in result_text(area, "keypad", "every button")
    player.swipe("dealer")
    wait_result(player, area, "keypad", "card reader", "PASS")
    assert "a dealer's card" in result_text(area, "keypad", "card reader")
    assert "=" not in result_text(area, "keypad", "card reader")  # never the card's data
    player.tap(area.leave)
    assert dump_round_and_meter_tables(player.ctl.table.db) == before


def test_a_node_that_does_not_answer_fails_its_test(player: ScreenPlayer) -> None:
    area = player.open_technician()
    assert player.hardware.bus is not None
    player.hardware.bus.set_online(5, False)
    player.tap(area.tests.buttons[("bet-sensors", "light seat 5")])
    wait_result(player, area, "bet-sensors", "seat 5 node", "FAIL")
    assert result_text(area, "bet-sensors", "seat 5 node") == "node: FAIL"


def test_frames_shown_live_paused_and_saved(player: ScreenPlayer, tmp_path: Path) -> None:
    area = player.open_technician()
    player.tap(area.buttons["Devices"])
    panel = area.devices.panels["shuffler"]
    player.wait(lambda: "<-" in panel.frames.toPlainText()
                and "->" in panel.frames.toPlainText(), "frames both ways")
    assert "Status state=READY" in panel.frames.toPlainText()  # decoded beside the bytes
    player.tap(panel.pause)
    shown = panel.frames.toPlainText()
    player.wait(lambda: player.ctl.frames("shuffler", panel.last_number) != (),
                "more frames on the wire")
    panel.refresh()
    assert panel.frames.toPlainText() == shown
    player.tap(panel.save)
    saved = list(tmp_path.glob("frames-shuffler-*.txt"))
    assert len(saved) == 1 and saved[0].read_text(encoding="utf-8").strip() == shown.strip()


def test_a_cable_pulled_and_replugged_in_test_mode_shows_at_once_and_counts(
        player: ScreenPlayer) -> None:
    area = player.open_technician()
    player.tap(area.buttons["Devices"])
    area.devices.tabs.setCurrentWidget(area.devices.panels["keypad"])
    panel = area.devices.panels["keypad"]
    player.wait(lambda: panel.status.text().startswith("CONNECTED"), "the panel")
    player.hardware.unplug("keypad")
    player.wait(lambda: panel.status.text().startswith("DISCONNECTED"), "the pulled cable")
    assert "disconnects 1" in panel.status.text()
    player.hardware.replug("keypad")
    player.wait(lambda: panel.status.text().startswith("CONNECTED"), "the replugged cable")
    assert "reconnects 1" in panel.status.text()
    assert player.ctl.snapshot().test_mode  # still testing, nothing else changed


def test_a_cable_pulled_in_play_shows_at_once_and_the_reconnect_counts(
        player: ScreenPlayer) -> None:
    player.open_round()
    player.hardware.unplug("bet-sensors")
    player.wait(lambda: player.window.faults.isVisible(), "the dealer's fault banner")
    player.hardware.replug("bet-sensors")
    player.wait(lambda: not player.window.faults.isVisible(), "the fault cleared")
    d = player.ctl.diagnostics("bet-sensors")
    assert d is not None and d.connects == 2 and d.disconnects == 1


def test_a_port_changed_tested_and_saved_takes_effect_at_once(
        qtbot: object, tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db", link="pty")
    spare = PtyServer(ShufflerDouble(ShufflerScenario(seed=3), ack_timeout=0.05)).start()
    try:
        area = p.open_technician()
        p.tap(area.buttons["Set-up"])
        box = area.setup.show_device("shuffler")
        box.port.setEditText(spare.path)
        p.tap(box.test)
        p.wait(lambda: box.result.text().startswith(("PASS", "FAIL")), "the test")
        assert box.result.text().startswith("PASS")
        p.tap(box.save)
        saved = tomllib.loads((tmp_path / "devices.toml").read_text(encoding="utf-8"))
        assert saved["shuffler"]["port"] == spare.path
        # who changed what, before and after, in the table's chain (issue 23)
        [(device, before, after, who)] = p.ctl.table.db.execute(
            "SELECT device, old, new, employee_id FROM device_setups").fetchall()
        assert (device, who) == ("shuffler", "SIM-T1")
        assert json.loads(after)["port"] == spare.path
        assert before is None or json.loads(before)["port"] != spare.path
        assert p.ctl.table.db.execute("SELECT COUNT(*) FROM events WHERE kind = "
                                      "'device_setup_saved'").fetchone()[0] == 1
        assert p.ctl.diagnostics("shuffler").port == spare.path  # type: ignore[union-attr]
        box.port.setEditText("")
        p.tap(box.test)
        assert "is not a port name" in box.result.text()  # refused, nothing lost
        assert tomllib.loads((tmp_path / "devices.toml").read_text(
            encoding="utf-8"))["shuffler"]["port"] == spare.path
        p.tap(area.leave)
        p.wait(lambda: all(d.connected for d in p.ctl.snapshot().devices), "connected")
        assert p.ctl.diagnostics("shuffler").port == spare.path  # type: ignore[union-attr]
    finally:
        p.close()
        spare.stop()


def test_keypad_ids_that_find_no_keypad_fail_their_test_and_the_old_keypad_is_back(
        player: ScreenPlayer, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.technician import setup_screen

    # a device has 6 s to answer on a table; here one that never will is given up sooner
    monkeypatch.setattr(setup_screen, "TEST_SECONDS", 1.5)
    area = player.open_technician()
    player.tap(area.buttons["Set-up"])
    box = area.setup.show_device("keypad")
    box.product.setText("0xZZ")
    player.tap(box.test)
    assert "product id: '0xZZ' is not a number" in box.result.text()
    assert not box.save.isEnabled()
    old = player.ctl.devices.keypad
    box.product.setText("0x0002")  # no keypad on the bus has this id
    player.tap(box.test)
    player.wait(lambda: box.result.text().startswith(("PASS", "FAIL")), "the test")
    assert box.result.text().startswith("FAIL: no answer in 1.5 s")
    assert not box.save.isEnabled()
    assert player.ctl.devices.keypad is old
    player.wait(lambda: all(d.connected for d in player.ctl.snapshot().devices), "the old one")
    assert not (player.console.opened.db_path.parent / "devices.toml").exists()


def test_the_audit_names_a_test_mode_session_or_device_set_up_removed(
        qtbot: object, tmp_path: Path) -> None:
    """Test mode and device set-ups are events of the chain: the audit rebuilds their tables
    and names a row deleted, added or changed (issue 23: deleted unseen before)."""
    import sqlite3

    from dealer_console.audit.verify import audit
    from dealer_console.storage import service_log
    from dealer_console.table_db import open_for_reading

    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    try:
        area = p.open_technician()
        service_log.log_device_setup(p.ctl.table.db, "keypad", None, {"vendor_id": 1},
                                     "SIM-T1", "Sim Technician")
        p.tap(area.leave)
        assert audit(p.ctl.table.db).ok, audit(p.ctl.table.db).problems
    finally:
        p.close()
    conn = sqlite3.connect(tmp_path / "table.db")
    conn.execute("DELETE FROM test_mode_sessions")
    conn.execute("UPDATE device_setups SET employee_id = 'SIM-S1'")
    conn.commit()
    conn.close()
    db = open_for_reading(tmp_path / "table.db")
    try:
        problems = audit(db).problems
    finally:
        db.close()
    assert any(x.startswith("test_mode_sessions (session=1): in the event log, but not stored")
               for x in problems), problems
    assert any("device_setups (setup=1): employee_id is 'SIM-S1' stored, 'SIM-T1' by the "
               "event log" in x for x in problems), problems


def _where(area: TechnicianArea) -> dict[object, tuple[int, int, int, int]]:
    """Every button of the technician's area where the area draws it (the dealer's window
    above it has a fault banner of its own that comes and goes with the devices)."""
    buttons = {**area.tests.buttons, **{("tab", name): b for name, b in area.buttons.items()},
               ("leave", ""): area.leave}
    return {key: (b.mapTo(area, b.rect().topLeft()).x(), b.mapTo(area, b.rect().topLeft()).y(),
                  b.width(), b.height()) for key, b in buttons.items()}


def test_the_test_buttons_never_move_as_results_arrive_and_wrap(player: ScreenPlayer) -> None:
    """Issue 23: a result arriving (or wrapping onto a second line) pushed the buttons under it
    down; the results now scroll in their own area and every button stays where it was."""
    area = player.open_technician()
    before = _where(area)
    assert all(h >= 48 and w >= 48 for _x, _y, w, h in before.values())
    assert player.hardware.bus is not None and player.hardware.keypad is not None
    player.hardware.bus.set_online(5, False)
    for action in ("status", "test deal", "deck count"):
        player.tap(area.tests.buttons[("shuffler", action)])
        wait_result(player, area, "shuffler", action, "PASS")
    for seat in (1, 5):
        player.tap(area.tests.buttons[("bet-sensors", f"light seat {seat}")])
    wait_result(player, area, "bet-sensors", "seat 5 node", "FAIL")
    for button in (Button.START_GAME, Button.SEAT_3, Button.CONFIRM):
        player.hardware.keypad.tap(button)
    player.swipe("supervisor")
    area.tell("The shuffler's port /dev/dealer-console/shuffler cannot be opened: check "
              "its cable, its power and the devices file")  # as a set-up refusal is told
    # the longest result words, wrapped in the results' own area (as a failing device gives)
    long = area.tests.results[("shuffler", "deck count")]
    long.setText(long.text() + " " + "and a long explanation of the failure " * 6)
    player.wait(lambda: long.height() > long.fontMetrics().height() * 2, "the words wrapped")
    assert _where(area) == before
