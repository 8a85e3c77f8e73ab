"""Random bytes at each framer and driver: no exception escapes, and every good frame mixed
into the garbage is still delivered, exactly once, whatever the chunking."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_console.cards import DECK
from dealer_console.devices.bet_sensors import BetSpotChanged, LightColour, LightMode, Spot
from dealer_console.devices.shuffler import HandDelivered
from drivers.arq import Packet
from drivers.bet_sensors import framer as bf
from drivers.bet_sensors.device import BetSensorDriver, _Transaction
from drivers.shuffler import framer as sf
from drivers.shuffler.device import ShufflerDriver
from drivers.transport import Transport, TransportError

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

hands = st.lists(
    st.tuples(st.binary(max_size=24), st.lists(st.sampled_from(DECK), min_size=7, max_size=7)),
    min_size=1,
    max_size=6,
)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


def no_port() -> Transport:
    """The drivers are fed by hand here: their thread never runs, no port is opened."""
    raise TransportError("no port in a fuzz test")


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(0, 600), max_size=8))
def test_shuffler_framer_takes_any_bytes(data: bytes, cuts: list[int]) -> None:
    framer = sf.ShufflerFramer()
    for chunk in chunked(data, cuts):
        for frame in framer.feed(chunk):
            assert (frame.packet is None) == bool(frame.error)


@FUZZ
@given(hands, st.binary(max_size=40), st.lists(st.integers(0, 2000), max_size=10))
def test_shuffler_framer_finds_every_hand_in_garbage(
    items: list[tuple[bytes, list[object]]], tail: bytes, cuts: list[int]
) -> None:
    sent = [sf.Hand(9, i + 1, tuple(cards)) for i, (_, cards) in enumerate(items)]  # type: ignore[arg-type]
    wire = b"".join(
        g + sf.packet_for(h, i + 1).wire()
        for (g, _), (i, h) in zip(items, enumerate(sent), strict=True)
    )
    framer = sf.ShufflerFramer()
    got = [f.message for c in chunked(wire + tail, cuts) for f in framer.feed(c) if f.message]
    assert [m for m in got if isinstance(m, sf.Hand) and m.deal_id == 9] == sent


@FUZZ
@given(hands, st.lists(st.integers(0, 2000), max_size=10))
def test_shuffler_driver_delivers_every_hand_once(
    items: list[tuple[bytes, list[object]]], cuts: list[int]
) -> None:
    driver = ShufflerDriver(no_port, first_deal_id=1)
    wire = b""
    for i, (garbage, cards) in enumerate(items):
        hand = sf.Hand(7, i + 1, tuple(cards))  # type: ignore[arg-type]
        frame = sf.packet_for(hand, i + 1).wire()
        wire += garbage + frame + frame  # every hand retransmitted once: a lost ACK
    for chunk in chunked(wire, cuts):
        driver._on_data(chunk)
    delivered = []
    while (event := driver.get_event(0)) is not None:
        if isinstance(event, HandDelivered):
            delivered.append((event.index, event.cards))
    assert delivered == [(i + 1, tuple(cards)) for i, (_, cards) in enumerate(items)]


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(0, 600), max_size=8))
def test_shuffler_driver_survives_any_bytes(data: bytes, cuts: list[int]) -> None:
    driver = ShufflerDriver(no_port)
    for chunk in chunked(data, cuts):
        driver._on_data(chunk)
    driver._on_tick(time.monotonic())
    snap = driver.diagnostics()
    # Every chunk between flags is counted, good or bad, whatever the chunking.
    assert snap.frames_good + snap.frames_bad == len(sf.ShufflerFramer().feed(data))


states = st.lists(
    st.tuples(st.binary(max_size=24), st.integers(1, 7), st.integers(0, 3)),
    min_size=1,
    max_size=8,
)


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(0, 600), max_size=8))
def test_bet_sensor_framer_takes_any_bytes(data: bytes, cuts: list[int]) -> None:
    framer = bf.BetSensorFramer()
    for chunk in chunked(data, cuts):
        for frame in framer.feed(chunk):
            assert (frame.frame is None) == bool(frame.error)


def state(present: int) -> bf.State:
    return bf.State(2, present, 0, 0, 0, 0, ((LightMode.OFF, LightColour.WHITE),) * 2)


@FUZZ
@given(states, st.lists(st.integers(0, 2000), max_size=10))
def test_bet_sensor_framer_finds_every_answer_in_garbage(
    items: list[tuple[bytes, int, int]], cuts: list[int]
) -> None:
    sent = [bf.BusFrame(seat, True, i, state(p)) for i, (_, seat, p) in enumerate(items)]
    wire = b"".join(g + s.wire() for (g, _, _), s in zip(items, sent, strict=True))
    framer = bf.BetSensorFramer()
    got = [f.frame for c in chunked(wire, cuts) for f in framer.feed(c) if f.frame]
    assert [g for g in got if g.reply and isinstance(g.message, bf.State)] == sent


@FUZZ
@given(states)
def test_bet_sensor_driver_applies_every_answer_once(items: list[tuple[bytes, int, int]]) -> None:
    driver = BetSensorDriver(no_port, first_lock_id=1)
    expected: dict[Spot, bool] = {}
    changes: list[tuple[Spot, bool]] = []
    for i, (garbage, seat, present) in enumerate(items):
        driver._txn = _Transaction(seat, i, bf.Poll(), time.monotonic())
        frame = bf.BusFrame(seat, True, i, state(present)).wire()
        driver._on_data(garbage + frame + frame)  # the second copy answers nothing: dropped
        assert driver._txn is None
        for spot in (1, 2):
            now = bool(present >> (spot - 1) & 1)
            if expected.get(Spot(seat, spot), False) != now:
                changes.append((Spot(seat, spot), now))
            expected[Spot(seat, spot)] = now
    got = []
    while (event := driver.get_event(0)) is not None:
        if isinstance(event, BetSpotChanged):
            got.append((event.spot, event.present))
    assert got == changes


@FUZZ
@given(st.binary(max_size=600))
def test_bet_sensor_driver_survives_any_bytes(data: bytes) -> None:
    driver = BetSensorDriver(no_port)
    driver._txn = _Transaction(3, data[0] if data else 0, bf.Poll(), time.monotonic())
    driver._on_data(data)
    driver._on_tick(time.monotonic())
    snap = driver.diagnostics()
    assert snap.frames_good + snap.frames_bad == len(bf.BetSensorFramer().feed(data))


def test_a_packet_needs_a_sequence_and_a_kind() -> None:
    framer = sf.ShufflerFramer()
    from drivers import hdlc

    (frame,) = framer.feed(hdlc.encode(b"\x01"))
    assert frame.packet is None and "sequence and a kind" in frame.error
    (frame,) = framer.feed(Packet(1, 0x99).wire())
    assert "unknown message kind 0x99" in frame.error
    (frame,) = framer.feed(Packet(1, sf.Kind.HAND, b"\x00\x01\x01\x07" + bytes([60] * 7)).wire())
    assert "card code 60" in frame.error
