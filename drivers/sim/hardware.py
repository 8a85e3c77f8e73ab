"""The table's three devices simulated behind their real drivers, for the console's
``--simulated`` start, ``simulate`` and trainers.

The shuffler and the bet-sensor bus are reached either over pseudo-terminals (``link="pty"``:
real pyserial, exactly what a USB serial adapter presents) or over an in-process transport pair
(``link="in-process"``: no kernel in between, for speed); the keypad is always on the virtual
USB bus (real pyusb). Either way the drivers, their framers, link layers and reconnection are
the ones the console runs with real hardware.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from dealer_console.controller import TableDevices
from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.devices.kinds import kind_named, kinds
from drivers.backoff import Backoff
from drivers.base import TransportFactory
from drivers.bet_sensors.device import BetSensorDriver
from drivers.clock import REAL_CLOCK, Clock
from drivers.keypad.device import KeypadDriver
from drivers.shuffler.device import ShufflerDriver
from drivers.sim import Double
from drivers.sim.bet_sensors import BetSensorBusDouble
from drivers.sim.faults import FaultInjector, FaultPlan
from drivers.sim.inprocess import InProcessLink
from drivers.sim.keypad import SimKeypad
from drivers.sim.pty import PtyServer
from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario
from drivers.sim.usb_backend import VirtualUsbBackend

SEATS = (1, 2, 3, 4, 5, 6, 7)
LINKS = ("pty", "in-process")
DEVICES = tuple(k.name for k in kinds())
"""The built-in kinds; a kind registered later is simulated all the same when named."""


@dataclass
class SimulatedHardware:
    """Doubles and drivers started together; ``close`` stops all of them.

    ``devices`` names the devices the table has (a table without a jackpot has no sensors
    or keypad); ``wire_faults`` damages the shuffler's bytes on the way to the console.
    ``clock`` is every driver's time (a test's may skip the reconnection waits); ``backoff``,
    when given, replaces the quick simulated retry timings with these (each driver a copy).
    """

    seed: int = 0
    seats: tuple[int, ...] = SEATS
    link: str = "pty"
    devices: tuple[str, ...] = DEVICES
    wire_faults: FaultPlan | None = None
    clock: Clock = REAL_CLOCK
    backoff: Backoff | None = None
    link_dir: Path | None = None
    """Where each pseudo-terminal gets a stable name (a link, as udev gives a real adapter):
    unplugged, the name is gone, so a driver retrying never opens another program's
    pseudo-terminal that took the freed number."""
    drivers: list[DeviceDriver] = field(default_factory=list)
    servers: list[PtyServer] = field(default_factory=list)
    links: dict[str, InProcessLink] = field(default_factory=dict)
    shuffler: ShufflerDouble | None = None
    bus: BetSensorBusDouble | None = None
    keypad: SimKeypad | None = None
    table_devices: TableDevices = field(default_factory=TableDevices)
    _serial: list[str] = field(default_factory=list, init=False, repr=False)
    """The serial devices' names, in the order of ``servers``."""

    def start(self) -> SimulatedHardware:
        if self.link not in LINKS:
            raise ValueError(f"link must be one of {', '.join(LINKS)}, not {self.link!r}")
        unknown = {d for d in self.devices if kind_named(d) is None}
        if unknown:
            raise ValueError(f"unknown simulated devices {sorted(unknown)}")
        try:
            self._build()
            for driver in self.drivers:
                driver.start()
        except Exception:
            self.close()
            raise
        return self

    def _build(self) -> None:
        wanted = {kind_named(name) for name in self.devices}  # start() refused unknown names
        for kind in (k for k in kinds() if k in wanted):
            driver: DeviceDriver = kind.load_double()(self)
            self.table_devices.put(driver)
            self.drivers.append(driver)

    def backoff_for(self, simulated: Backoff) -> Backoff:
        """The simulated retry timings, or a copy of the test's own (``backoff``)."""
        return simulated if self.backoff is None else replace(self.backoff)

    def port_for(self, name: str, double: Double, faults: FaultInjector | None = None
                 ) -> str | TransportFactory:
        """A serial port for device ``name`` served by ``double``: a pseudo-terminal, or the
        in-process link (``link``); unplugged and plugged by name."""
        faults = faults or FaultInjector()
        if self.link == "pty":
            named = None if self.link_dir is None else self.link_dir / name
            server = PtyServer(double, link=named, faults=faults).start()
            self.servers.append(server)
            self._serial.append(name)
            return server.path
        # a driver's command goes out at once and the double answers within the call, so the
        # link waits as long as a serial read's timeout: polling faster only takes the
        # interpreter from the table's own thread (issue 24's rounds per second)
        link = InProcessLink(double, name, faults, poll_interval=0.02)
        self.links[name] = link
        return link.open

    def unplug(self, name: str) -> None:
        """Pull the named device's cable (the driver sees its port fail)."""
        if name not in self._serial and name not in self.links:
            self._usb(name).unplug()  # on the virtual USB bus
        elif self.link == "pty":
            self.servers[self._serial_index(name)].unplug()
        else:
            self.links[name].unplug()

    def replug(self, name: str) -> None:
        if name not in self._serial and name not in self.links:
            self._usb(name).replug()
        elif self.link == "pty":
            self.servers[self._serial_index(name)].replug()
        else:
            self.links[name].replug()

    def ports(self) -> dict[str, str]:
        """Each serial device's pseudo-terminal (``link="pty"`` only): its port as the
        console's set-up chooses it."""
        return {name: server.path
                for name, server in zip(self._serial, self.servers, strict=False)}

    def _serial_index(self, name: str) -> int:
        return self._serial.index(name)

    def _usb(self, name: str) -> SimKeypad:
        assert name == "keypad" and self.keypad is not None, f"{name} is not on USB"
        return self.keypad

    def close(self) -> None:
        for driver in self.drivers:
            driver.stop()
        for server in self.servers:
            server.stop()
        self.drivers.clear()
        self.servers.clear()
        self._serial.clear()
        self.links.clear()

    def __enter__(self) -> SimulatedHardware:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()



# -- each kind's simulated double, as devices/kinds.py names it -----------------------------


def simulated_shuffler(hw: SimulatedHardware) -> DeviceDriver:
    hw.shuffler = ShufflerDouble(ShufflerScenario(seed=hw.seed), ack_timeout=0.05)
    port = hw.port_for("shuffler", hw.shuffler, FaultInjector(hw.wire_faults))
    return ShufflerDriver(port, ack_timeout=0.05, heartbeat=0.5, silence_timeout=5.0,
                          clock=hw.clock, backoff=hw.backoff_for(Backoff(initial=0.01,
                                                                         maximum=0.2)))


def simulated_bet_sensors(hw: SimulatedHardware) -> DeviceDriver:
    hw.bus = BetSensorBusDouble(list(hw.seats))
    port = hw.port_for("bet-sensors", hw.bus)
    # Patient replies: on a loaded machine a node that misses 3 x 30 ms would be "away at the
    # lock" and its chip a late bet, so a seeded run's wagers would depend on timing. Nodes
    # going away are the driver tests' business. A node already away is asked once a probe
    # (offline_tries), so a silent node holds the bus as briefly as on a real table.
    return BetSensorDriver(
        port, seats=hw.seats, reply_timeout=0.5, tries=5, offline_tries=1,
        poll_interval=0.02,
        offline_poll_interval=0.1, silence_timeout=5.0, clock=hw.clock,
        backoff=hw.backoff_for(Backoff(initial=0.01, maximum=0.2)))


def simulated_keypad(hw: SimulatedHardware) -> DeviceDriver:
    hw.keypad = SimKeypad(retransmit_s=0.02)
    # read as a table's keypad is (devices.toml's default): a report ends the read's wait at
    # once, so a faster poll only woke the thread 200 times a second to find nothing, taking
    # the interpreter from the table's own thread
    return KeypadDriver(VirtualUsbBackend(hw.keypad), poll_interval=0.02,
                        backoff=hw.backoff_for(Backoff(initial=0.005, maximum=0.05)),
                        clock=hw.clock, resend_after=0.03)
