"""Each device's health as the dealer must see it, kept from the drivers' own events.

A fault is shown from the moment its event arrives until the device reports itself well again;
after a restart a device that is still missing never connects, so its fault is there again
from the start. The texts say what is wrong and what to do, in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_console.controller.view import DeviceView
from dealer_console.devices.bet_sensors import SensorNodeChanged
from dealer_console.devices.events import (
    ConnectionState,
    DeviceConnected,
    DeviceDisconnected,
    DeviceEvent,
)
from dealer_console.devices.kinds import TITLES, kind_named
from dealer_console.devices.shuffler import ShufflerState, ShufflerStatus

__all__ = ["TITLES", "DeviceHealth"]

def _cable(name: str) -> str:
    kind = kind_named(name)
    return kind.cable if kind else "check its cable"


SHUFFLER_FAULTS = {
    ShufflerState.DOOR_OPEN: ("the shuffler's door is open", "close the door"),
    ShufflerState.JAM: ("the shuffler has jammed", "clear the jam, then close the door"),
    ShufflerState.FAULT: ("the shuffler reports a fault", "see the shuffler's display; call a "
                          "technician if it stays"),
}


@dataclass
class DeviceHealth:
    name: str
    state: ConnectionState = ConnectionState.CONNECTING
    reason: str = ""
    shuffler_state: ShufflerState | None = None
    nodes_down: set[int] = field(default_factory=set)

    def apply(self, event: DeviceEvent) -> bool:
        """Take ``event`` into account; True when what the dealer sees changed."""
        before = self.view()
        if isinstance(event, DeviceConnected):
            self.state, self.reason = ConnectionState.CONNECTED, ""
        elif isinstance(event, DeviceDisconnected):
            self.state, self.reason = ConnectionState.DISCONNECTED, event.reason
        elif isinstance(event, ShufflerStatus):
            self.shuffler_state = event.state
        elif isinstance(event, SensorNodeChanged):
            (self.nodes_down.discard if event.online else self.nodes_down.add)(event.seat)
        return self.view() != before

    @property
    def connected(self) -> bool:
        return self.state is ConnectionState.CONNECTED

    def view(self) -> DeviceView:
        title = TITLES.get(self.name, self.name)
        fault, todo = self._fault()
        return DeviceView(self.name, title, self.connected, self.state.value, fault, todo,
                          self.reason)

    def _fault(self) -> tuple[str | None, str]:
        title = TITLES.get(self.name, self.name)
        if self.state is ConnectionState.DISCONNECTED:
            # the driver's reason (a port name, an errno) is the technician's, not the dealer's
            return f"{title} not connected", _cable(self.name)
        if self.state is not ConnectionState.CONNECTED:
            return f"{title} not answering yet", _cable(self.name)
        if self.shuffler_state in SHUFFLER_FAULTS:
            return SHUFFLER_FAULTS[self.shuffler_state]
        if self.nodes_down:
            seats = ", ".join(str(s) for s in sorted(self.nodes_down))
            return (f"bet sensor of seat {seats} not answering",
                    "check that seat's sensor cable; its jackpot chip cannot be read")
        return None, ""
