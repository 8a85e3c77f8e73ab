"""The shared driver layer: CRC, backoff, HDLC framing and the I/O thread base."""

from __future__ import annotations

import random
import threading
from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.devices.events import (
    ConnectionState,
    DeviceConnected,
    DeviceDisconnected,
    DeviceEvent,
)
from drivers import hdlc
from drivers.backoff import Backoff
from drivers.base import DeviceThread
from drivers.crc import crc16
from drivers.transport import TransportError


def test_crc16_ccitt_false_check_value() -> None:
    # The catalogue check value of CRC-16/CCITT-FALSE.
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


@given(st.binary(max_size=64), st.integers(0, 63), st.integers(0, 7))
def test_crc16_detects_any_single_bit_flip(data: bytes, position: int, bit: int) -> None:
    if not data:
        return
    flipped = bytearray(data)
    flipped[position % len(data)] ^= 1 << bit
    assert crc16(bytes(flipped)) != crc16(data)


def test_backoff_grows_to_its_cap_and_resets() -> None:
    b = Backoff(initial=0.1, factor=2, maximum=0.5)
    assert [b.next_delay() for _ in range(5)] == [0.1, 0.2, 0.4, 0.5, 0.5]
    b.reset()
    assert b.next_delay() == 0.1


def test_backoff_jitter_is_bounded_and_seeded() -> None:
    delays = [Backoff(initial=1, maximum=1, jitter=0.5, rng=random.Random(7)).next_delay()]
    again = [Backoff(initial=1, maximum=1, jitter=0.5, rng=random.Random(7)).next_delay()]
    assert delays == again
    assert 1 <= delays[0] <= 1.5


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [({"initial": 0}, "initial"), ({"factor": 0.5}, "factor"), ({"jitter": 2}, "jitter")],
)
def test_backoff_refuses_nonsense(kwargs: dict[str, float], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        Backoff(**kwargs)  # type: ignore[arg-type]


@given(st.lists(st.binary(min_size=1, max_size=40), max_size=8))
def test_hdlc_round_trip_whatever_the_split(bodies: list[bytes]) -> None:
    wire = b"".join(hdlc.encode(b) for b in bodies)
    for cut in {0, 1, len(wire) // 2, max(len(wire) - 1, 0)}:
        d = hdlc.Deframer()
        got = d.feed(wire[:cut]) + d.feed(wire[cut:])
        assert [r.body for r in got] == bodies


def test_hdlc_stuffs_flag_and_escape_bytes() -> None:
    wire = hdlc.encode(b"\x7e\x7d\x01")
    assert wire.count(b"\x7e") == 2
    assert wire[1:5] == b"\x7d\x5e\x7d\x5d"


def test_hdlc_reports_bad_crc_and_recovers_at_the_next_flag() -> None:
    good = hdlc.encode(b"\x01\x02\x03")
    bad = bytearray(good)
    bad[2] ^= 0xFF
    got = hdlc.Deframer().feed(bytes(bad) + b"noise" + good)
    assert [r.body for r in got] == [None, None, b"\x01\x02\x03"]
    assert got[0].error == "bad CRC"


def test_hdlc_overlong_garbage_is_dropped() -> None:
    d = hdlc.Deframer()
    got = d.feed(b"\x7e" + b"\x55" * 2000) + d.feed(hdlc.encode(b"ok"))
    assert [r.body for r in got] == [None, b"ok"]
    assert got[0].error == "frame longer than the maximum"


def test_hdlc_refuses_to_encode_an_overlong_body() -> None:
    with pytest.raises(ValueError, match="must hold"):
        hdlc.encode(bytes(hdlc.MAX_BODY + 1))
    with pytest.raises(ValueError, match="must hold"):
        hdlc.encode(b"")


class Line:
    """An in-memory byte pipe with a plug: the real transport interface, no serial port."""

    def __init__(self) -> None:
        self.plugged = threading.Event()
        self.plugged.set()
        self.to_driver: deque[bytes] = deque()
        self.from_driver: list[bytes] = []
        self.opens = 0

    def open(self) -> LineTransport:
        if not self.plugged.is_set():
            raise TransportError("line unplugged")
        self.opens += 1
        return LineTransport(self)


class LineTransport:
    def __init__(self, line: Line) -> None:
        self.line = line
        self.port = "line"

    def read(self) -> bytes:
        if not self.line.plugged.is_set():
            raise TransportError("line unplugged")
        self.line.plugged.wait(0.005)
        return self.line.to_driver.popleft() if self.line.to_driver else b""

    def write(self, data: bytes) -> None:
        if not self.line.plugged.is_set():
            raise TransportError("line unplugged")
        self.line.from_driver.append(data)

    def interrupt(self) -> None:
        pass  # its reads wait 5 ms at most

    def close(self) -> None:
        pass


class EchoDriver(DeviceThread):
    """Alive whenever a byte arrives; counts what it saw."""

    def _on_open(self) -> None:
        self._write(b"hello")

    def _on_data(self, data: bytes) -> None:
        self.diag.rx_frame(data, good=True)
        self._mark_alive(firmware="1.0", serial_number="E1")


def test_device_thread_connects_reports_loss_at_once_and_resumes() -> None:
    line = Line()
    driver = EchoDriver(
        "echo", line.open, backoff=Backoff(initial=0.01, maximum=0.02), silence_timeout=10
    )
    seen: list[DeviceEvent] = []
    driver.subscribe(seen.append)
    driver.start()
    try:
        line.to_driver.append(b"x")
        assert driver.wait_for(DeviceConnected, 2).serial_number == "E1"
        assert driver.state is ConnectionState.CONNECTED
        line.plugged.clear()
        assert "unplugged" in driver.wait_for(DeviceDisconnected, 2).reason
        assert driver.diagnostics().state is ConnectionState.DISCONNECTED
        line.plugged.set()
        line.to_driver.append(b"y")
        driver.wait_for(DeviceConnected, 2)
    finally:
        driver.stop()
    snap = driver.diagnostics()
    assert snap.state is ConnectionState.STOPPED
    assert (snap.connects, snap.disconnects) == (2, 1)
    assert snap.last_tx[-1] == b"hello".hex(" ")
    assert line.opens >= 2
    seqs = [e.seq for e in seen]
    assert seqs == sorted(seqs) == list(range(1, len(seqs) + 1))


def test_a_silent_device_is_reported_gone() -> None:
    line = Line()
    driver = EchoDriver(
        "echo", line.open, backoff=Backoff(initial=0.01, maximum=0.02), silence_timeout=0.05
    )
    with driver:
        line.to_driver.append(b"x")
        driver.wait_for(DeviceConnected, 2)
        assert "no answer" in driver.wait_for(DeviceDisconnected, 2).reason


def test_commands_run_on_the_io_thread() -> None:
    line = Line()
    driver = EchoDriver("echo", line.open, silence_timeout=10)
    ran_on: list[str] = []
    done = threading.Event()

    def action() -> None:
        ran_on.append(threading.current_thread().name)
        done.set()

    with driver:
        driver.submit(action)
        assert done.wait(2)
    assert ran_on == ["io-echo"]


def test_a_failing_subscriber_does_not_stop_the_driver() -> None:
    line = Line()
    driver = EchoDriver("echo", line.open, silence_timeout=10)

    def broken(event: object) -> None:
        raise RuntimeError("subscriber bug")

    driver.subscribe(broken)
    with driver:
        line.to_driver.append(b"x")
        driver.wait_for(DeviceConnected, 2)


def test_diagnostics_show_frames_through_the_redaction_hook() -> None:
    from drivers.base import Diagnostics

    diag = Diagnostics("reader", redact=lambda raw: f"{len(raw)} bytes hidden")
    diag.rx_frame(b"secret", good=True)
    diag.rx_chunk(b"two frames", good=2, bad=1)
    diag.tx_frame(b"pin", retransmission=True)
    snap = diag.snapshot()
    assert snap.last_rx == ("6 bytes hidden", "10 bytes hidden")
    assert snap.last_tx == ("3 bytes hidden",)
    assert (snap.frames_good, snap.frames_bad, snap.frames_retransmitted) == (3, 1, 1)
    plain = Diagnostics("plain")
    plain.rx_frame(b"\x7e\x01", good=False)
    assert plain.snapshot().last_rx == ("7e 01",)


def test_a_driver_passes_its_redaction_hook_to_its_diagnostics() -> None:
    line = Line()
    driver = EchoDriver("echo", line.open, silence_timeout=10, redact=lambda raw: "masked")
    with driver:
        line.to_driver.append(b"x")
        driver.wait_for(DeviceConnected, 2)
    snap = driver.diagnostics()
    assert snap.last_tx == ("masked",) and snap.last_rx == ("masked",)


class BuggyDriver(EchoDriver):
    """Its protocol code fails on the byte ``!``: a bug, or a message no one foresaw."""

    def _on_data(self, data: bytes) -> None:
        if b"!" in data:
            raise RuntimeError("protocol bug")
        super()._on_data(data)


def test_a_bug_in_the_protocol_code_is_reported_and_survived() -> None:
    line = Line()
    driver = BuggyDriver(
        "buggy", line.open, backoff=Backoff(initial=0.01, maximum=0.02), silence_timeout=10
    )
    with driver:
        line.to_driver.append(b"x")
        driver.wait_for(DeviceConnected, 2)
        line.to_driver.append(b"!")
        down = driver.wait_for(DeviceDisconnected, 2)
        assert "internal error" in down.reason and "protocol bug" in down.reason
        line.to_driver.append(b"y")
        driver.wait_for(DeviceConnected, 2)  # the thread lives on and reconnects
        assert driver.state is ConnectionState.CONNECTED
    assert "protocol bug" in driver.diagnostics().last_error


def test_unread_events_are_bounded_and_subscribers_still_get_every_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A screen that only subscribes must not make the queue grow all day: past the backlog
    the oldest unread event goes, counted, while every subscriber sees every event."""
    import drivers.base

    monkeypatch.setattr(drivers.base, "EVENT_BACKLOG", 50)
    driver = EchoDriver("echo", Line().open, silence_timeout=10)
    seen: list[DeviceEvent] = []
    driver.subscribe(seen.append)
    for _ in range(57):
        driver._emit(DeviceConnected, firmware="1.0", serial_number="E1")
    assert [e.seq for e in seen] == list(range(1, 58))
    first = driver.get_event(0)
    assert first is not None and first.seq == 8  # the seven oldest unread were dropped
    assert driver.diagnostics().events_unread_dropped == 7
    rest = [driver.get_event(0) for _ in range(49)]
    assert [e.seq for e in rest if e is not None] == list(range(9, 58))
    assert driver.get_event(0) is None


def test_a_subscriber_that_is_the_only_reader_leaves_nothing_unread_to_drop(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The console reads by subscription alone: past the backlog the driver counted every
    later event as dropped and logged it, a day into play, though the console had them all."""
    import drivers.base

    monkeypatch.setattr(drivers.base, "EVENT_BACKLOG", 50)
    driver = EchoDriver("echo", Line().open, silence_timeout=10)
    driver._emit(DeviceConnected, firmware="1.0", serial_number="E1")  # before it subscribed
    seen: list[DeviceEvent] = []
    driver.subscribe(seen.append, only_reader=True)
    for _ in range(120):
        driver._emit(DeviceConnected, firmware="1.0", serial_number="E1")
    assert [e.seq for e in seen] == list(range(1, 122))  # the one before given first
    assert driver.get_event(0) is None  # nothing kept
    assert driver.diagnostics().events_unread_dropped == 0
    assert "dropped" not in caplog.text
