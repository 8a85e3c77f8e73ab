"""The console application: the table opened once through the controller's composition root,
its devices (the simulated ones, or the real ones its devices file names), the controller
bridged to Qt, the dealer's window, and in simulated mode the window standing in for the world
outside the console."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

from dealer_console.controller import OpenTable, TableController, TableDevices, open_table
from dealer_console.devices.config import load_devices
from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.profiles.model import Profile
from dealer_console.selftest.table_anchor import anchor_path
from dealer_link.settings import has_link_login
from dealer_link.wiring import start_links
from ui.application import application
from ui.background_audit import BackgroundAudit, start_background_audit
from ui.bridge import ControllerBridge
from ui.dealer.window import DealerWindow
from ui.power_on import (
    SelfTestFailed,
    power_on_check,
    show_checking,
    show_self_test_failure,
)
from ui.theme import apply_theme
from ui.watchdog import SystemdWatchdog

if TYPE_CHECKING:
    from dealer_link.pit.table_side import Reporting
    from drivers.sim.hardware import SimulatedHardware
    from ui.world import WorldWindow


@dataclass
class Console:
    """Everything the console started; :meth:`close` stops it in order."""

    opened: OpenTable
    controller: TableController
    bridge: ControllerBridge
    window: DealerWindow
    drivers: list[DeviceDriver] = field(default_factory=list)
    hardware: SimulatedHardware | None = None
    world: WorldWindow | None = None
    pit: Reporting | None = None
    """The table's reporting to the pit, if it has a login on the link (``docs/pit.md``)."""
    staff_timer: QTimer | None = None
    """Applies the casino's staff list on this thread; stopped first: it reads the table."""

    def close(self) -> None:
        from ui.meter_display.launcher import close_meter_display

        if self.staff_timer is not None:
            self.staff_timer.stop()  # a closed window's timer ran on, against a closed file
        if self.pit is not None:
            self.pit.stop()
        close_meter_display(self.bridge)
        self.bridge.detach()
        # a device set up in test mode replaced one of these: stop whatever the table runs
        for driver in [*self.drivers, *self.controller.devices.all()]:
            driver.stop()
        if self.hardware is not None:
            self.hardware.close()
        self.opened.close()


def jackpot_spots(profile: Profile) -> tuple[int, ...]:
    if profile.jackpot is None:
        return ()
    return tuple(g.spot for g in profile.jackpots.games) if profile.jackpots else (1,)


def _start_pit(controller: TableController, opened: OpenTable) -> Reporting | None:
    """Report to the pit where the table has a login on the link's server; the pit's module
    (and the PostgreSQL client under it) is loaded only then."""
    if not has_link_login():
        return None
    from dealer_link.pit.table_side import start_reporting

    return start_reporting(controller, opened)


def start_console(profile: Profile, db_path: str | Path, *, simulated: bool,
                  devices_file: str | Path | None = None, link: str = "pty",
                  four_colour: bool = False, meter_display: bool = True) -> Console:
    """Open the table and its devices, make the dealer's window (the caller shows it and runs
    Qt) and, on a table with a jackpot game unless ``meter_display`` is False, show the meter
    display on the table's monitor."""
    app = application()
    apply_theme(app)
    Path(db_path).parent.mkdir(parents=True, exist_ok=True)
    opened = open_table(db_path, profile, actor="console", links=start_links,
                        table_anchor=anchor_path())
    drivers: list[DeviceDriver] = []
    hardware = None
    try:
        if simulated:
            from drivers.sim.hardware import SimulatedHardware
            from drivers.sim.table.dealer import install_sim_staff

            spots = jackpot_spots(profile)
            # the keypad's card reader is there on every table: supervisors and technicians
            # swipe it; the bet sensors only where a jackpot game takes wagers
            names = ("shuffler", "bet-sensors", "keypad") if spots else ("shuffler", "keypad")
            hardware = SimulatedHardware(link=link, devices=names).start()
            devices = hardware.table_devices
            install_sim_staff(opened.db)  # the world window's test cards
        elif devices_file is not None:
            from drivers.assembly import devices_from_config

            devices, drivers = devices_from_config(load_devices(devices_file))
            for driver in drivers:
                driver.start()
        else:
            devices = TableDevices()
        controller = TableController(opened, devices)
        bridge = ControllerBridge(controller)
        controller.start()
        window = DealerWindow(controller, bridge, four_colour=four_colour)
        pit = _start_pit(controller, opened)  # the pit (docs/pit.md)
    except BaseException:
        for driver in drivers:
            driver.stop()
        if hardware is not None:
            hardware.close()
        opened.close()
        raise
    console = Console(opened, controller, bridge, window, drivers, hardware, pit=pit)
    if pit is not None and pit.feed is not None:  # the casino's staff list, on this thread
        staff_timer = QTimer(window)
        def staff_turn() -> None:
            controller.staff.applied_elsewhere(pit.apply_staff(opened.db))
            controller.staff.check_trouble()  # the dealer's top strip says it within 0.5 s

        staff_timer.timeout.connect(staff_turn)
        staff_timer.start(500)
        console.staff_timer = staff_timer
    if devices_file is not None:
        window.setup_context.devices_path = Path(devices_file)
    if hardware is not None:
        window.setup_context.simulator_ports = hardware.ports()
        if hardware.keypad is not None:
            from drivers.sim.usb_backend import VirtualUsbBackend

            window.setup_context.keypad_backend = VirtualUsbBackend(hardware.keypad)
    if hardware is not None:
        from ui.world import WorldWindow

        console.world = WorldWindow(hardware, jackpot_spots(profile))
    if meter_display and jackpot_spots(profile):
        from ui.meter_display.launcher import show_meter_display

        show_meter_display(controller, bridge, window)  # meter_display_of(bridge) finds it
    return console


def run_app(profile: Profile, simulated: bool, db_path: str,
            quit_after: float | None = None, devices_file: str | None = None,
            four_colour: bool = False, full_screen: bool = False,
            meter_display: bool = True) -> int:
    app = application()
    watchdog = SystemdWatchdog(parent=app)  # pings from this thread's event loop
    # the kiosk says the table is starting; a technician's terminal gets one line either way
    checking = show_checking(app, profile) if full_screen else None
    try:
        report = power_on_check(profile, db_path, devices_file, simulated=simulated)
    finally:
        if checking is not None:
            checking.close()
            checking.deleteLater()
    if not report.ok:
        if not full_screen:  # a technician's terminal: one line, status 2
            raise SelfTestFailed(report)
        closed = None
        if has_link_login():  # the pit hears the table is closed (docs/pit.md)
            from dealer_link.pit.table_side import report_closed

            closed = report_closed(Path(db_path),
                                   [f"{c.item}: {c.detail}" for c in report.failures])
        try:  # the pit hears the table is closed (docs/pit.md)
            return show_self_test_failure(app, report, watchdog, quit_after)
        finally:
            if closed is not None:
                closed.stop()
    console = start_console(profile, db_path, simulated=simulated, devices_file=devices_file,
                            four_colour=four_colour, meter_display=meter_display)
    audits: BackgroundAudit | None = None
    try:
        if full_screen:
            console.window.showFullScreen()
        else:
            console.window.resize(1280, 800)
            console.window.show()
        watchdog.ready(f"table open: {profile.name}")
        if Path(db_path).is_file():  # the full audit, off the GUI thread, soon and hourly
            audits = start_background_audit(db_path, console.window)
        if console.world is not None:
            console.world.show()
        if quit_after is not None:
            QTimer.singleShot(int(quit_after * 1000), app.quit)
        return int(app.exec())
    finally:
        if audits is not None:
            audits.stop()
        console.close()
