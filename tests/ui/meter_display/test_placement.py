"""Where the meter display goes. The rule is a pure function of the screens; the window's
real placement is checked in a console started on Qt's offscreen platform with two screens
(its ``configfile`` option fakes them). Plugging a monitor in or out cannot be faked there
(the screens are fixed at start), so that is covered by the rule and the handler that calls
``place`` again on ``screenAdded`` / ``screenRemoved``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ui.meter_display.placement import monitor_for


def test_the_monitor_is_the_first_screen_that_is_not_the_console_s() -> None:
    assert monitor_for(["touch", "hdmi"], "touch") == "hdmi"
    assert monitor_for(["hdmi", "touch"], "touch") == "hdmi"
    assert monitor_for(["touch", "hdmi", "dp"], "touch") == "hdmi"


def test_no_monitor_when_the_console_s_screen_is_the_only_one() -> None:
    assert monitor_for(["touch"], "touch") is None
    assert monitor_for([], None) is None


def test_a_monitor_unplugged_and_plugged_again() -> None:
    screens = ["touch", "hdmi"]
    assert monitor_for(screens, "touch") == "hdmi"
    screens.remove("hdmi")  # unplugged: back in a window on the console's screen
    assert monitor_for(screens, "touch") is None
    screens.append("hdmi-2")  # another monitor plugged in
    assert monitor_for(screens, "touch") == "hdmi-2"


CONSOLE = """
import sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
from dealer_console.profiles.loader import get_profile
from ui.app import start_console
from ui.meter_display.launcher import meter_display_of
console = start_console(get_profile("washington-face-up"), Path(sys.argv[1]),
                        simulated=True, link="in-process")
app.processEvents()
window = meter_display_of(console.bridge)
print(window.screen().name(), window.isFullScreen(), window.width(), window.height())
console.close()
"""


def _run_console(tmp_path: Path, screens: list[dict[str, object]]) -> list[str]:
    config = tmp_path / "screens.json"
    config.write_text(json.dumps({"screens": screens}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    done = subprocess.run([sys.executable, "-c", CONSOLE, str(tmp_path / "table.db")],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def _screen(name: str, x: int, width: int, height: int) -> dict[str, object]:
    return {"name": name, "x": x, "y": 0, "width": width, "height": height,
            "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}


def test_with_a_monitor_attached_it_fills_the_monitor(tmp_path: Path) -> None:
    # the offscreen platform lists its screens by name and makes the first the primary: the
    # console's window starts there
    shown = _run_console(tmp_path, [_screen("console", 0, 1280, 800),
                                    _screen("monitor", 1280, 1920, 1080)])
    assert shown == ["monitor", "True", "1920", "1080"]


def test_without_a_monitor_it_is_a_window_on_the_console_s_screen(tmp_path: Path) -> None:
    shown = _run_console(tmp_path, [_screen("console", 0, 1920, 1080)])
    assert shown == ["console", "False", "1280", "800"]
