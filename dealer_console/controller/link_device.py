"""The jackpot link as one more device in the dealer's device area (``docs/link.md``).

The link's sender keeps its health on its own thread; the controller reads that lock-guarded
value when it builds its view (never the network), and the sender's change of health reaches
the owner thread as a :class:`LinkHealthChanged` event, like a device's, so the screen redraws.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_console.controller.view import DeviceView
from dealer_console.devices.events import DeviceEvent
from dealer_console.jackpot_values.link_records import HitAnswer
from dealer_console.link.hook import LinkHook

LINK_DEVICE = "jackpot-link"


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkHealthChanged(DeviceEvent):
    """The link went up or down (or is down for another reason): redraw."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkAnswered(DeviceEvent):
    """The link's server answered a hit the table asked it to pay (from the asker's thread,
    applied on the owner thread like a device's event)."""

    answer: HitAnswer


STAFF_LIST = "staff-list"
"""The casino's staff list's line among the devices, shown only while it is in trouble."""


def staff_list_device(trouble: tuple[str, str] | None) -> tuple[DeviceView, ...]:
    """The casino's staff list's line: none while the table's copy is the server's (or the
    table keeps its own list). Not a device that is down (the table works from its copy):
    a fault line the dealer's top strip and the pit show."""
    if trouble is None:
        return ()
    fault, todo = trouble
    return (DeviceView(STAFF_LIST, "Staff list", True, "a copy", fault, todo),)


def link_device(hook: LinkHook | None) -> tuple[DeviceView, ...]:
    """The link's line in the device area: none for a table without a linked game."""
    if hook is None:
        return ()
    names = ", ".join(sorted(set(hook.links.values())))
    view = hook.health.view()
    if view.up:
        state = "connected" + (f", {view.owed} wagers to send" if view.owed else "")
        state += f"; {view.warning}" if view.warning else ""  # e.g. the server went back
        return (DeviceView(LINK_DEVICE, f"Jackpot link {names}", True, state, None),)
    # the dealer reads the reason's plain head ("the link server cannot be reached"); the
    # driver's own words (socket, database) go to the technician's detail
    plain = view.reason.split(": ", 1)[0]
    return (DeviceView(
        LINK_DEVICE, f"Jackpot link {names}", False, "down", f"down: {plain}",
        "no jackpot wagers until it is back; call the technician",
        f"{view.reason}; last contact {view.last_contact or 'never'}, {view.owed} wagers "
        "waiting to be sent"),)
