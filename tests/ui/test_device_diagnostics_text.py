"""The technician's device panel names a driver's own faults it survived (issue 22: a driver's
loop restarted after an unforeseen error was counted but never shown)."""

from __future__ import annotations

from dealer_console.devices.diagnostics import DiagnosticsSnapshot
from dealer_console.devices.events import ConnectionState
from ui.technician.devices_screen import diagnostics_text


def test_a_quiet_driver_says_nothing_of_faults() -> None:
    text = diagnostics_text(DiagnosticsSnapshot("shuffler", ConnectionState.CONNECTED))
    assert "driver faults" not in text


def test_survived_faults_are_shown_with_what_to_do() -> None:
    text = diagnostics_text(DiagnosticsSnapshot("keypad", ConnectionState.CONNECTING,
                                                internal_errors=3, loop_restarts=2))
    assert "driver faults 3  restarts of its loop 2: report them" in text
