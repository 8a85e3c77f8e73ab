"""What the technician's screens need from the drivers and the devices file: the raw frames
tapped both ways and read in words (a card's track never shown), one node's light test
answered or not, the devices file written and read back as it was, and the serial ports
named by their stable ``by-id`` names."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dealer_console.devices.bet_sensors import NodeLightTest
from dealer_console.devices.config import (
    BetSensorsConfig,
    DeviceConfigError,
    DevicesConfig,
    KeypadConfig,
    ShufflerConfig,
    load_devices,
    save_devices,
    with_device,
)
from dealer_console.devices.diagnostics import FrameTap
from dealer_console.devices.events import DeviceConnected
from drivers.base import Diagnostics
from drivers.ports import by_id_names
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.table.choices import SIM_STAFF


def test_the_tap_keeps_the_newest_frames_and_hands_out_only_the_new() -> None:
    tap = FrameTap(keep=3)
    for n in range(5):
        tap.add("in", f"{n:02x}", f"frame {n}")
    assert [f.decoded for f in tap.since()] == ["frame 2", "frame 3", "frame 4"]
    assert [f.number for f in tap.since(4)] == [5]


def test_frames_are_read_into_words_only_when_the_technician_asks() -> None:
    """Reading every frame as it crossed the wire took the bet sensors' I/O thread about 40%
    of its time at 300 polls a second, though nobody looked. A frame whose hex hides a secret
    (the keypad's card track) is still read at once, so its raw bytes are never kept."""
    read: list[bytes] = []

    def describe(raw: bytes) -> str:
        read.append(raw)
        return f"words {raw.hex()}"

    plain = Diagnostics("sensors", describe=describe)
    plain.rx_frame(b"\x01", True)
    plain.tx_frame(b"\x02", retransmission=True)
    assert read == []
    assert [(f.direction, f.shown, f.decoded) for f in plain.tap.since()] == [
        ("in", "01", "words 01"), ("out", "02", "resent: words 02")]
    assert read == [b"\x01", b"\x02"]
    assert [f.decoded for f in plain.tap.since(1)] == ["resent: words 02"]  # only the new

    read.clear()
    secret = Diagnostics("keypad", redact=lambda raw: "** hidden **", describe=describe)
    secret.rx_frame(b"\x03", True)
    assert read == [b"\x03"]
    assert [(f.shown, f.decoded) for f in secret.tap.since()] == [("** hidden **", "words 03")]


def _wait(done: object, what: str) -> None:
    deadline = time.monotonic() + 10
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"no {what}"
        time.sleep(0.01)


def test_frames_both_ways_read_in_words_and_a_card_never_shown() -> None:
    with SimulatedHardware(link="in-process") as hw:
        shuffler, sensors, keypad = hw.drivers
        _wait(lambda: all(d.state.value == "connected" for d in hw.drivers), "connection")
        words = [f.decoded for f in shuffler.frames()]
        assert any("Status state=READY" in w for w in words)
        assert {f.direction for f in shuffler.frames()} == {"in", "out"}
        assert any("seat 1 answers" in f.decoded for f in sensors.frames())
        track = SIM_STAFF[0][3]
        assert hw.keypad is not None
        before = keypad.frames()[-1].number
        hw.keypad.swipe(track)
        _wait(lambda: any("CARD" in f.decoded for f in keypad.frames(before)), "the swipe")
        for frame in keypad.frames(before):
            assert track not in frame.decoded and track[:6].encode().hex(" ") not in frame.shown


def test_one_nodes_light_test_is_answered_or_not() -> None:
    with SimulatedHardware(link="in-process", devices=("bet-sensors",)) as hw:
        sensors = hw.drivers[0]
        _wait(lambda: sensors.state.value == "connected", "connection")
        assert "light seat 3" in sensors.test_actions()
        sensors.run_test_action("light seat 3")
        event = sensors.wait_for(NodeLightTest)
        assert (event.seat, event.answered) == (3, True)
        assert hw.bus is not None
        hw.bus.set_online(4, False)
        sensors.run_test_action("light seat 4")
        event = sensors.wait_for(NodeLightTest)
        assert (event.seat, event.answered) == (4, False)
        with pytest.raises(ValueError, match="light seat 9"):
            sensors.run_test_action("light seat 9")


def test_the_devices_file_is_written_whole_and_reads_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "devices.toml"
    config = DevicesConfig(
        shuffler=ShufflerConfig('/dev/serial/by-id/usb-"odd"-port0', 9600),
        bet_sensors=BetSensorsConfig("/dev/ttyUSB1", seats=(1, 3, 5)),
        keypad=KeypadConfig(vendor_id=0x04D8, product_id=0xF00D))
    save_devices(path, config)
    assert load_devices(path) == config
    moved = with_device(config, ShufflerConfig("/dev/ttyUSB7", 19200))
    save_devices(path, moved)
    again = load_devices(path)
    assert again.shuffler == ShufflerConfig("/dev/ttyUSB7", 19200)
    assert again.bet_sensors == config.bet_sensors and again.keypad == config.keypad


def test_a_bad_value_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "devices.toml"
    save_devices(path, DevicesConfig(shuffler=ShufflerConfig("/dev/ttyUSB0")))
    before = path.read_bytes()
    with pytest.raises(DeviceConfigError, match="baudrate 11520 is not one of"):
        save_devices(path, DevicesConfig(shuffler=ShufflerConfig("/dev/ttyUSB0", 11520)))
    assert path.read_bytes() == before


def test_ports_are_named_by_their_stable_by_id_links(tmp_path: Path) -> None:
    node = tmp_path / "ttyUSB0"
    node.touch()
    links = tmp_path / "by-id"
    links.mkdir()
    (links / "usb-FTDI_FT232R-if00-port0").symlink_to(node)
    assert by_id_names(links) == {str(node.resolve()): str(links / "usb-FTDI_FT232R-if00-port0")}
    assert by_id_names(tmp_path / "missing") == {}


def test_a_driver_stopped_and_started_again_reports_its_connection_again() -> None:
    with SimulatedHardware(link="in-process", devices=("keypad",)) as hw:
        keypad = hw.drivers[0]
        keypad.wait_for(DeviceConnected)
        keypad.stop()
        keypad.start()  # as device set-up does when a tested keypad is put back
        keypad.wait_for(DeviceConnected)
        assert keypad.diagnostics().connects == 2
