"""The console reads its devices by subscription alone, so their drivers keep nothing for
``get_event``: a day of play had filled each driver's backlog, after which the technician's
screen counted every event as dropped (and the log said so), though none was."""

from __future__ import annotations

import pytest

import drivers.base
from tests.controller.conftest import Rig
from tests.controller.test_controller import bet, finish_round, start_by_keypad


def test_a_played_table_leaves_no_driver_with_events_unread(
        rig: Rig, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(drivers.base, "EVENT_BACKLOG", 5)  # a day of play in two rounds
    ctl = rig.controller
    assert rig.hardware.bus is not None
    for _ in range(2):
        bet(rig)
        start_by_keypad(rig)
        finish_round(rig)
        ctl.end_game()
        rig.hardware.bus.take(2, 1)
    for driver in ctl.devices.all():
        assert driver.get_event(0) is None, driver.name
        assert driver.diagnostics().events_unread_dropped == 0, driver.name
    assert "events unread" not in caplog.text
