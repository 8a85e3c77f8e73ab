"""One panel per device for the technician: connected or not, port or USB ids, firmware and
serial number, the driver's counters, the last error, and the raw frames both ways, each read
in words beside its bytes, live (pausable) and saved to a file.

The frames come from the drivers' bounded taps through the controller, read on the GUI
thread by a timer; no driver thread ever touches a widget."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_console import clock
from dealer_console.controller import TITLES, TableController
from dealer_console.devices.diagnostics import DiagnosticsSnapshot, RawFrame
from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton, touch_tabs_and_arrows

REFRESH_MS = 250
LINES_SHOWN = 400


def frame_line(frame: RawFrame) -> str:
    arrow = "<-" if frame.direction == "in" else "->"
    bad = "" if frame.good else " BAD"
    return f"{frame.number:6d} {arrow}{bad} {frame.shown}   | {frame.decoded}"


def diagnostics_text(d: DiagnosticsSnapshot) -> str:
    lines = [
        f"{'CONNECTED' if d.state.value == 'connected' else d.state.value.upper()}"
        f"   port {d.port or '-'}",
        f"firmware {d.firmware or '-'}   serial number {d.serial_number or '-'}",
        f"frames good {d.frames_good}  bad {d.frames_bad}  resent {d.frames_retransmitted}"
        f"  reconnects {max(d.connects - 1, 0)}  disconnects {d.disconnects}"
        f"  events dropped {d.events_unread_dropped}",
        f"last error: {d.last_error or 'none'}",
    ]
    if d.internal_errors or d.loop_restarts:  # the driver's own faults, survived (issue 22)
        lines.append(f"driver faults {d.internal_errors}  restarts of its loop "
                     f"{d.loop_restarts}: report them with the frames saved to a file")
    if d.extra:  # the device's own details (each bet-sensor node), one wrapped line
        lines.append("; ".join(f"{k}: {v.strip()}" for k, v in sorted(d.extra.items())))
    return "\n".join(lines)


class DevicePanel(QWidget):
    def __init__(self, controller: TableController, device: str, save_dir: Path,
                 tell: Callable[[str], object]) -> None:
        super().__init__()
        self.ctl = controller
        self.device = device
        self.save_dir = save_dir
        self.tell = tell
        self.paused = False
        self.last_number = 0
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.frames = QPlainTextEdit()
        self.frames.setReadOnly(True)
        self.frames.setMaximumBlockCount(LINES_SHOWN)
        self.frames.setStyleSheet(f"font-family: monospace; font-size: {theme.FONT_SMALL}px;")
        self.pause = TouchButton("Pause", ButtonRole.SECONDARY)
        self.pause.setCheckable(True)
        self.pause.clicked.connect(self._toggle_pause)
        self.save = TouchButton("Save frames to a file", ButtonRole.SECONDARY)
        self.save.clicked.connect(self.save_frames)
        buttons = QHBoxLayout()
        buttons.addWidget(self.pause)
        buttons.addWidget(self.save)
        buttons.addStretch(1)
        box = QGroupBox("Raw frames (<- from the device, -> to it)")
        inner = QVBoxLayout(box)
        inner.addLayout(buttons)
        inner.addWidget(self.frames, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(box, 1)
        self.refresh()

    def _toggle_pause(self) -> None:
        self.paused = self.pause.isChecked()
        self.pause.setText("Resume" if self.paused else "Pause")

    def refresh(self) -> None:
        d = self.ctl.diagnostics(self.device)
        self.status.setText("not on this table" if d is None else diagnostics_text(d))
        if self.paused:
            return  # the tap keeps the newest frames; the view catches up on Resume
        new = self.ctl.frames(self.device, self.last_number)
        if new:
            self.last_number = new[-1].number
            self.frames.appendPlainText("\n".join(frame_line(f) for f in new))

    def save_frames(self) -> Path | None:
        stamp = clock.now().strftime("%Y%m%dT%H%M%SZ")
        path = self.save_dir / f"frames-{self.device}-{stamp}.txt"
        try:
            self.save_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(self.frames.toPlainText() + "\n", encoding="utf-8")
        except OSError as exc:
            self.tell(f"frames not saved: {exc.strerror or exc}")
            return None
        self.tell(f"frames saved to {path}")
        return path


class DevicesScreen(QWidget):
    def __init__(self, controller: TableController, save_dir: Path,
                 tell: Callable[[str], object]) -> None:
        super().__init__()
        self.tabs = QTabWidget()
        self.panels: dict[str, DevicePanel] = {}
        for name in controller.device_names():
            panel = DevicePanel(controller, name, save_dir, tell)
            self.panels[name] = panel
            self.tabs.addTab(panel, TITLES.get(name, name))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        touch_tabs_and_arrows(self)  # tabs and drop-down arrows a finger can hit
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(REFRESH_MS)

    def refresh(self) -> None:
        for panel in self.panels.values():
            panel.refresh()
