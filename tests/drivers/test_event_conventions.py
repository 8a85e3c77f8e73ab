"""Every device event, whatever its device, has the shared shape of
``dealer_console.devices.events``: a frozen keyword-only value with the device's name, the
driver's sequence number, and a key that names the fact (the same fact seen again, in another
run, has the same key; another device's fact never has it)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from dealer_console.cards import parse_cards
from dealer_console.devices import bet_sensors as bs
from dealer_console.devices import events as ev
from dealer_console.devices import keypad as kp
from dealer_console.devices import shuffler as sh

CARDS = tuple(parse_cards("As Kd 7h 7c 2s JK Tc"))

FACTS: dict[type[ev.DeviceEvent], dict[str, Any]] = {
    sh.DeckChecked: {"deal_id": 4, "counted": 53},
    sh.FirstPositionDrawn: {"deal_id": 4, "number": 3},
    sh.HandDelivered: {"deal_id": 4, "index": 2, "cards": CARDS},
    sh.CardsLeft: {"deal_id": 4, "cards": CARDS[:4]},
    sh.CardCountError: {"deal_id": 4, "counted": 52},
    bs.BetsLocked: {"lock_id": 9, "wagered": frozenset({bs.Spot(1, 1)})},
    bs.LateBet: {"lock_id": 9, "spot": bs.Spot(2, 1)},
    bs.BetRemoved: {"lock_id": 9, "spot": bs.Spot(1, 1)},
    bs.BetsUnlocked: {"lock_id": 9},
    kp.KeypadEvent: {"session": 7, "number": 12},
    kp.ButtonPressed: {"session": 7, "number": 12, "button": kp.Button.CONFIRM},
    kp.ButtonReleased: {"session": 7, "number": 12, "button": kp.Button.CONFIRM},
    kp.CardSwiped: {"session": 7, "number": 12, "track": "5000100000001=2912"},
    kp.BadRead: {"session": 7, "number": 12, "reason": kp.BadReadReason.LRC},
}
"""Events that report a fact of the round: applying one twice must be harmless."""

MOMENTS: dict[type[ev.DeviceEvent], dict[str, Any]] = {
    ev.DeviceEvent: {},
    ev.DeviceConnected: {"firmware": "1.0", "serial_number": "S1"},
    ev.DeviceDisconnected: {"reason": "unplugged"},
    sh.ShufflerStatus: {"state": sh.ShufflerState.READY, "firmware": "1", "serial_number": "2"},
    sh.DealReportChanged: {"deal_id": 4, "what": "hand 3"},
    bs.BetSpotChanged: {"spot": bs.Spot(3, 2), "present": True},
    bs.SensorNodeChanged: {"seat": 3, "online": False},
    bs.NodeLightTest: {"seat": 3, "answered": True},
}
"""Events that report a moment (a state, a connection): each is its own fact."""


def every_event_class() -> set[type[ev.DeviceEvent]]:
    found: set[type[ev.DeviceEvent]] = set()
    for module in (ev, sh, bs, kp):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, ev.DeviceEvent):
                found.add(value)
    return found


def test_every_event_class_is_classified_here() -> None:
    assert every_event_class() == set(FACTS) | set(MOMENTS)


@pytest.mark.parametrize("cls", sorted(set(FACTS) | set(MOMENTS), key=lambda c: c.__name__))
def test_the_shared_shape(cls: type[ev.DeviceEvent]) -> None:
    fields = FACTS.get(cls, MOMENTS.get(cls))
    assert fields is not None
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen, f"{cls.__name__} is not frozen"
    assert hasattr(cls, "__slots__"), f"{cls.__name__} has no slots"
    assert all(f.kw_only for f in dataclasses.fields(cls)), f"{cls.__name__} is positional"
    first = cls(device="dev-a", seq=1, **fields)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.seq = 2  # type: ignore[misc]
    later = cls(device="dev-a", seq=99, **fields)
    other_device = cls(device="dev-b", seq=1, **fields)
    hash(first.key)
    assert first.key != other_device.key, "a key must name its device"
    if cls in FACTS:
        assert first.key == later.key, "the same fact seen again must have the same key"
    else:
        assert first.key != later.key, "a moment is its own fact"


def test_frames_are_described_by_the_protocol_s_names_at_any_depth() -> None:
    """Issue 23: the technician's raw frames showed Python's enum text."""
    import dataclasses
    import enum

    from dealer_console.cards import parse_cards
    from drivers.base import message_words

    class Colour(enum.Enum):
        RED = 1

    @dataclasses.dataclass(frozen=True)
    class Lamp:
        seat: int
        colour: Colour

    @dataclasses.dataclass(frozen=True)
    class SetLamps:
        lamps: tuple[Lamp, ...]
        colours: tuple[Colour, ...]
        cards: tuple[object, ...]

    words = message_words(SetLamps((Lamp(2, Colour.RED),), (Colour.RED,),
                                   tuple(parse_cards("Ad Kc"))))
    assert words == "SetLamps lamps=Lamp(2,RED) colours=RED cards=Ad Kc"
    assert "Colour." not in words
