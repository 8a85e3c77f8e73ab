"""The table's three devices simulated behind their real drivers, for the console's
``--simulated`` start and for trainers: the shuffler and the bet-sensor bus each on a
pseudo-terminal (real pyserial), the keypad on the virtual USB bus (real pyusb)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_console.devices.diagnostics import DeviceDriver
from drivers.bet_sensors.device import BetSensorDriver
from drivers.keypad.device import KeypadDriver
from drivers.shuffler.device import ShufflerDriver
from drivers.sim.bet_sensors import BetSensorBusDouble
from drivers.sim.keypad import SimKeypad
from drivers.sim.pty import PtyServer
from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario
from drivers.sim.usb_backend import VirtualUsbBackend

SEATS = (1, 2, 3, 4, 5, 6, 7)


@dataclass
class SimulatedHardware:
    """Doubles and drivers started together; ``close`` stops all of them."""

    seed: int = 0
    seats: tuple[int, ...] = SEATS
    drivers: list[DeviceDriver] = field(default_factory=list)
    servers: list[PtyServer] = field(default_factory=list)
    keypad: SimKeypad | None = None

    def start(self) -> SimulatedHardware:
        try:
            shuffler_pty = PtyServer(ShufflerDouble(ShufflerScenario(seed=self.seed))).start()
            self.servers.append(shuffler_pty)
            sensor_pty = PtyServer(BetSensorBusDouble(list(self.seats))).start()
            self.servers.append(sensor_pty)
            self.keypad = SimKeypad()
            self.drivers += [
                ShufflerDriver(shuffler_pty.path),
                BetSensorDriver(sensor_pty.path, seats=self.seats),
                KeypadDriver(VirtualUsbBackend(self.keypad)),
            ]
            for driver in self.drivers:
                driver.start()
        except Exception:
            self.close()
            raise
        return self

    def close(self) -> None:
        for driver in self.drivers:
            driver.stop()
        for server in self.servers:
            server.stop()
        self.drivers.clear()
        self.servers.clear()

    def __enter__(self) -> SimulatedHardware:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
