"""Device set-up: each serial device's port (from the ports found, or typed) and baud rate,
the keypad's USB ids, or the simulator; the connection tested before it is saved to the
table's ``devices.toml`` (every value checked as ``dealer_console.devices.config`` does); the
device then runs with the new settings at once, without restarting the console."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TITLES, TableController
from dealer_console.devices.config import (
    BAUD_RATES,
    BetSensorsConfig,
    DeviceConfigError,
    DevicesConfig,
    KeypadConfig,
    ShufflerConfig,
    load_devices,
    save_devices,
    with_device,
)
from dealer_console.devices.events import ConnectionState
from dealer_console.errors import ConsoleError
from drivers.assembly import driver_for
from drivers.ports import serial_ports
from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton, touch_tabs_and_arrows

TEST_SECONDS = 6.0
"""How long a device has to answer a connection test."""

DeviceSettings = ShufflerConfig | BetSensorsConfig | KeypadConfig


@dataclass
class SetupContext:
    """Where the table's devices file is, and the simulator's ports and USB bus when the
    console runs on simulated devices."""

    devices_path: Path
    simulator_ports: dict[str, str] = field(default_factory=dict)
    keypad_backend: object | None = None

    def current(self) -> DevicesConfig:
        if self.devices_path.exists():
            try:
                return load_devices(self.devices_path)
            except DeviceConfigError:
                pass  # a broken file is replaced by what the technician saves now
        return DevicesConfig(source=str(self.devices_path))


class DeviceSetup(QGroupBox):
    """One device's settings, its connection test and its save."""

    def __init__(self, controller: TableController, context: SetupContext, device: str,
                 tell: Callable[[str], object],
                 check: Callable[[], bool] = lambda: True) -> None:
        super().__init__(TITLES.get(device, device))
        self.ctl = controller
        self.context = context
        self.device = device
        self.tell = tell
        self.check = check
        """The technician's session guard, asked before a test or a save."""
        self.tested: DeviceSettings | None = None
        self._deadline = 0.0
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._check)
        grid = QGridLayout(self)
        d = controller.diagnostics(device)
        current = d.port if d is not None else ""
        if device == "keypad":
            kp = context.current().keypad or KeypadConfig()
            self.vendor = QLineEdit(f"0x{kp.vendor_id:04x}")
            self.product = QLineEdit(f"0x{kp.product_id:04x}")
            self.backend = QLineEdit(kp.backend)
            grid.addWidget(QLabel("USB vendor id"), 0, 0)
            grid.addWidget(self.vendor, 0, 1)
            grid.addWidget(QLabel("USB product id"), 1, 0)
            grid.addWidget(self.product, 1, 1)
            grid.addWidget(QLabel("USB backend"), 2, 0)
            grid.addWidget(self.backend, 2, 1)
        else:
            self.port = QComboBox()
            self.port.setEditable(True)
            choices = [(p.port, p.label) for p in serial_ports()]
            sim = context.simulator_ports.get(device)
            if sim:
                choices.insert(0, (sim, f"{sim} (simulator)"))
            for port, label in choices:
                self.port.addItem(label, port)
            self.port.setEditText(current or (choices[0][0] if choices else ""))
            self.baud = QComboBox()
            for rate in BAUD_RATES:
                self.baud.addItem(str(rate), rate)
            self.baud.setCurrentText("115200")
            grid.addWidget(QLabel("Port"), 0, 0)
            grid.addWidget(self.port, 0, 1)
            grid.addWidget(QLabel("Baud rate"), 1, 0)
            grid.addWidget(self.baud, 1, 1)
        for field_ in self.findChildren(QComboBox) + self.findChildren(QLineEdit):
            field_.setMinimumHeight(theme.TOUCH_MIN)  # a finger's target, like the buttons
        self.test = TouchButton("Test connection", ButtonRole.SECONDARY)
        self.test.clicked.connect(self.test_connection)
        self.save = TouchButton("Save and use", ButtonRole.PRIMARY)
        self.save.setEnabled(False)
        self.save.clicked.connect(self.save_settings)
        self.result = QLabel("Change a setting, then test the connection before saving.")
        self.result.setWordWrap(True)
        grid.addWidget(self.test, 3, 0)
        grid.addWidget(self.save, 3, 1)
        grid.addWidget(self.result, 4, 0, 1, 2)

    def port_text(self) -> str:
        """The chosen port: the item's port when the text is its label, else what was typed."""
        text = self.port.currentText().strip()
        index = self.port.findText(text)
        return str(self.port.itemData(index)) if index >= 0 else text

    def settings(self) -> DeviceSettings:
        """The settings as entered; a bad value raises DeviceConfigError naming it."""
        if self.device == "keypad":
            return KeypadConfig(vendor_id=_usb_id("vendor id", self.vendor.text()),
                                product_id=_usb_id("product id", self.product.text()),
                                backend=self.backend.text().strip())
        baud = int(self.baud.currentData())
        if self.device == "shuffler":
            return ShufflerConfig(self.port_text(), baud)
        old = self.context.current().bet_sensors
        seats = old.seats if old is not None else BetSensorsConfig("x").seats
        return BetSensorsConfig(self.port_text(), baud, seats)

    def test_connection(self) -> None:
        if not self.check():
            return
        self.save.setEnabled(False)
        self.tested = None
        try:
            settings = self.settings()
            driver = driver_for(settings, self.context.keypad_backend
                                if self.device == "keypad" else None)
            self.ctl.try_device(driver)
        except (ConsoleError, ValueError) as exc:
            self.result.setText(f"Not tested: {exc}")
            return
        self._settings = settings
        self.result.setText("Testing the connection...")
        self._deadline = time.monotonic() + TEST_SECONDS
        self._timer.start(100)

    def _check(self) -> None:
        d = self.ctl.diagnostics(self.device)
        if d is not None and d.state is ConnectionState.CONNECTED:
            self._timer.stop()
            self.tested = self._settings
            self.save.setEnabled(True)
            self.result.setText(f"PASS: the device answers (firmware {d.firmware or '-'}, "
                                f"serial number {d.serial_number or '-'}). Save to keep it.")
        elif time.monotonic() > self._deadline:
            self._timer.stop()
            error = d.last_error if d is not None else ""
            self.ctl.restore_device(self.device)
            self.result.setText(f"FAIL: no answer in {TEST_SECONDS:g} s"
                                f"{': ' + error if error else ''}; the old settings are "
                                "back in use.")

    def save_settings(self) -> None:
        if not self.check():
            return
        if self.tested is None:
            self.result.setText("Test the connection first.")
            return
        path = self.context.devices_path
        before = self.context.current()
        old = next((getattr(before, f.name) for f in dataclasses.fields(before)
                    if isinstance(getattr(before, f.name), type(self.tested))), None)
        try:
            save_devices(path, with_device(before, self.tested))
        except DeviceConfigError as exc:
            self.result.setText(f"Not saved: {exc}")
            return
        self.ctl.keep_device(self.device, old, self.tested)
        self.save.setEnabled(False)
        self.result.setText(f"Saved to {path} and in use now.")
        self.tell(f"{TITLES.get(self.device, self.device)} settings saved")


def _usb_id(name: str, text: str) -> int:
    try:
        return int(text.strip(), 0)
    except ValueError:
        raise DeviceConfigError(f"[keypad] {name}: {text.strip()!r} is not a number "
                                "(0x1209 or 4617)") from None


class SetupScreen(QWidget):
    def __init__(self, controller: TableController, context: SetupContext,
                 tell: Callable[[str], object],
                 check: Callable[[], bool] = lambda: True) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        where = QLabel(f"Settings are saved to {context.devices_path}")
        where.setWordWrap(True)
        layout.addWidget(where)
        self.tabs = QTabWidget()
        self.devices: dict[str, DeviceSetup] = {}
        for name in controller.device_names():
            box = DeviceSetup(controller, context, name, tell, check)
            self.devices[name] = box
            self.tabs.addTab(box, box.title())
        layout.addWidget(self.tabs)
        touch_tabs_and_arrows(self)  # tabs and drop-down arrows a finger can hit
        layout.addStretch(1)

    def show_device(self, name: str) -> DeviceSetup:
        box = self.devices[name]
        self.tabs.setCurrentWidget(box)
        return box
