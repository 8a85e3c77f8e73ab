"""The serial ports on this machine, as a technician chooses among them: pyserial's list, with
the stable ``/dev/serial/by-id`` name first where the system has one (it survives a replug into
another USB socket, where ``/dev/ttyUSB0`` may become ``ttyUSB1``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from serial.tools import list_ports

BY_ID = Path("/dev/serial/by-id")


@dataclass(frozen=True, slots=True)
class PortChoice:
    port: str
    """What goes into the devices file."""
    label: str
    """What the technician reads: the port and what the system says it is."""


def by_id_names(directory: Path = BY_ID) -> dict[str, str]:
    """Each device node's ``by-id`` link (``/dev/ttyUSB0`` -> ``/dev/serial/by-id/...``)."""
    try:
        links = list(directory.iterdir())
    except OSError:
        return {}
    return {os.path.realpath(link): str(link) for link in sorted(links)}


def serial_ports() -> list[PortChoice]:
    stable = by_id_names()
    out = []
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        port = stable.get(os.path.realpath(info.device), info.device)
        what = info.description if info.description and info.description != "n/a" else ""
        out.append(PortChoice(port, f"{port} ({what})" if what else port))
    return out
