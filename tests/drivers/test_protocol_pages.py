"""The byte examples on the protocol pages are what the code sends: a vendor building a device
from docs/protocols/ gets the same bytes as the drivers and doubles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer_console.cards import parse_cards
from dealer_console.devices.bet_sensors import LightColour, LightMode
from dealer_console.devices.shuffler import ShufflerState
from drivers.arq import ACK, NAK, Packet
from drivers.bet_sensors import framer as bf
from drivers.shuffler import framer as sf

PAGES = Path(__file__).parents[2] / "docs" / "protocols"
LIGHTS = ((LightMode.ON, LightColour.WHITE), (LightMode.OFF, LightColour.WHITE))


def examples(page: str) -> list[bytes]:
    """Every frame written in hex (``7e ... 7e``) in the page's example blocks, in order."""
    text = (PAGES / page).read_text()
    blocks = re.findall(r"### Examples.*?```\n(.*?)```", text, re.DOTALL)
    assert blocks, f"{page} has no examples block"
    frames = re.findall(r"\b7e(?: [0-9a-f]{2})+? 7e\b", " ".join(blocks))
    return [bytes.fromhex(f) for f in frames]


SHUFFLER = [
    sf.packet_for(sf.Hello("dealer-console", ""), 0).wire(),
    sf.packet_for(sf.Status(ShufflerState.READY, 0, "3.8.084", "SN42"), 1).wire(),
    sf.packet_for(sf.StartDeal(0x1234, 7), 2).wire(),
    Packet(2, ACK).wire(),
    sf.packet_for(sf.Hand(0x1234, 1, tuple(parse_cards("As Kd 7h 7c 2s JK Tc"))), 5).wire(),
    Packet(0, NAK).wire(),
    sf.packet_for(sf.StatusRequest(), 3).wire(),
    sf.packet_for(sf.Reset(), 4).wire(),
    sf.packet_for(sf.DeckCount(), 5).wire(),
    sf.packet_for(sf.DeckCheck(0x1234, 53), 2).wire(),
    sf.packet_for(sf.RandomDrawn(0x1234, 4), 3).wire(),
    sf.packet_for(sf.Left(0x1234, tuple(parse_cards("2c 9d Qh 5s"))), 12).wire(),
    sf.packet_for(sf.CountError(0x1234, 52), 3).wire(),
]

BET_SENSORS = [
    bf.BusFrame(3, False, 0x41, bf.Poll()).wire(),
    bf.BusFrame(3, True, 0x41, bf.State(2, 0b01, 0, 0, 0, 0, LIGHTS)).wire(),
    bf.BusFrame(3, False, 0x42, bf.Lock(500)).wire(),
    bf.BusFrame(3, True, 0x42, bf.State(2, 0b11, 500, 0b01, 0b10, 0, LIGHTS)).wire(),
    bf.BusFrame(5, False, 7, bf.SetLight(2, LightMode.BLINK, LightColour.GREEN)).wire(),
    bf.BusFrame(3, False, 0x43, bf.Unlock(500)).wire(),
    bf.BusFrame(3, False, 0x44, bf.Identify()).wire(),
    bf.BusFrame(3, True, 0x44, bf.Identity(2, "BS-1.2", "N0003")).wire(),
]


def test_every_message_kind_has_an_example() -> None:
    shown = {sf.Packet.parse(sf.hdlc.Deframer().feed(f)[0].body or b"").kind for f in SHUFFLER}
    assert shown >= {int(k) for k in sf.Kind} | {ACK, NAK}
    kinds = {bf.decode(bf.hdlc.Deframer().feed(f)[0].body or b"").message.KIND for f in BET_SENSORS}
    assert kinds == set(bf.Kind)


@pytest.mark.parametrize(
    ("page", "sent"), [("shuffler.md", SHUFFLER), ("bet-sensors.md", BET_SENSORS)]
)
def test_the_pages_examples_are_the_codes_bytes(page: str, sent: list[bytes]) -> None:
    assert [f.hex(" ") for f in examples(page)] == [f.hex(" ") for f in sent]


def test_every_example_decodes_cleanly() -> None:
    for frame in examples("shuffler.md"):
        (got,) = sf.ShufflerFramer().feed(frame)
        assert got.packet is not None, got.error
    for frame in examples("bet-sensors.md"):
        (bus,) = bf.BetSensorFramer().feed(frame)
        assert bus.frame is not None, bus.error
