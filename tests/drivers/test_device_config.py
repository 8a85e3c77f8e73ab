"""The devices file: the example of docs/protocols/README.md parses, bad values are refused
naming their place, and each driver builds itself from its part and works, including a
shuffler behind pyserial's ``spy://`` traffic dump."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer_console.cards import format_cards
from dealer_console.devices.bet_sensors import SensorNodeChanged
from dealer_console.devices.config import (
    BetSensorsConfig,
    DeviceConfigError,
    KeypadConfig,
    ShufflerConfig,
    load_devices,
    parse_devices,
)
from dealer_console.devices.events import DeviceConnected
from dealer_console.devices.keypad import Button, ButtonPressed
from dealer_console.devices.shuffler import CardsLeft, HandDelivered
from drivers.backoff import Backoff
from drivers.bet_sensors.device import BetSensorDriver
from drivers.keypad.device import KeypadDriver
from drivers.shuffler.device import ShufflerDriver
from drivers.sim.bet_sensors import BetSensorBusDouble
from drivers.sim.keypad import SimKeypad
from drivers.sim.pty import PtyServer
from drivers.sim.shuffler import ShufflerDouble
from drivers.sim.usb_backend import VirtualUsbBackend
from tests.drivers.conftest import collect_until

README = Path(__file__).parents[2] / "docs" / "protocols" / "README.md"
FAST = Backoff(initial=0.01, maximum=0.1)


def readme_example() -> str:
    found = re.search(r"```toml\n(.*?)```", README.read_text(), re.DOTALL)
    assert found, "docs/protocols/README.md lost its devices file example"
    return found.group(1)


def test_the_documented_example_parses(tmp_path: Path) -> None:
    path = tmp_path / "devices.toml"
    path.write_text(readme_example())
    config = load_devices(path)
    assert config.shuffler == ShufflerConfig(
        port="/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10KXYZ1-if00-port0"
    )
    assert config.bet_sensors is not None and config.bet_sensors.seats == tuple(range(1, 8))
    assert config.keypad == KeypadConfig()
    assert config.source == str(path)


def test_a_device_left_out_is_not_on_the_table() -> None:
    config = parse_devices({"shuffler": {"port": "loop://"}})
    assert config.bet_sensors is None and config.keypad is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"shufler": {}}, r"t\.toml: unknown device \[shufler\]"),
        ({"shuffler": {"port": "x", "baud": 9600}}, r"\[shuffler\]: unknown setting 'baud'"),
        ({"shuffler": {"baudrate": 9600}}, r"\[shuffler\]: the setting 'port' is required"),
        ({"shuffler": {"port": "  "}}, r"\[shuffler\] port: '  ' is not a port"),
        ({"shuffler": {"port": "x", "baudrate": 11520}}, r"baudrate 11520 is not one of"),
        ({"shuffler": {"port": "x", "baudrate": True}}, r"baudrate: True is not a whole"),
        ({"shuffler": {"port": "x", "ack_timeout": "fast"}}, r"ack_timeout: 'fast' is not a"),
        ({"shuffler": {"port": "x", "heartbeat": 5, "silence_timeout": 4}}, r"must exceed"),
        ({"bet_sensors": {"port": "x", "seats": [0, 3]}}, r"seats: \[0, 3\] must be distinct"),
        ({"bet_sensors": {"port": "x", "seats": [2, 2]}}, r"seats: \[2, 2\] must be distinct"),
        ({"bet_sensors": {"port": "x", "tries": 0}}, r"\[bet_sensors\] tries 0 is not 1-10"),
        ({"keypad": {"vendor_id": 0x10000}}, r"\[keypad\] vendor_id 0x10000 is not a 16-bit"),
        ({"keypad": {"backend": ""}}, r"\[keypad\] backend: '' names no backend"),
        ({"keypad": "libusb1"}, r"\[keypad\]: expected a table"),
    ],
)
def test_bad_settings_are_refused_naming_their_place(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises(DeviceConfigError, match=message) as info:
        parse_devices(data, "t.toml")
    assert str(info.value).startswith("t.toml")


def test_an_unreadable_or_broken_file_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(DeviceConfigError, match=r"missing\.toml: cannot read"):
        load_devices(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[shuffler\nport = 1")
    with pytest.raises(DeviceConfigError, match=r"broken\.toml: not valid TOML"):
        load_devices(broken)


def test_a_shuffler_behind_a_spy_url_deals_and_dumps_its_traffic(tmp_path: Path) -> None:
    dump = tmp_path / "spy.txt"
    with PtyServer(ShufflerDouble(), link=tmp_path / "shuffler") as server:
        config = parse_devices(
            {"shuffler": {"port": f"spy://{server.path}?file={dump}", "ack_timeout": 0.05}}
        )
        assert config.shuffler is not None
        driver = ShufflerDriver.from_config(config.shuffler, backoff=FAST, first_deal_id=9)
        with driver:
            driver.wait_for(DeviceConnected)
            deal_id = driver.start_deal(7)
            events = collect_until(driver, lambda e: isinstance(e, CardsLeft))
        hands = [e for e in events if isinstance(e, HandDelivered)]
        dealt = server.double.dealt[deal_id]  # type: ignore[attr-defined]
    assert {h.index: h.cards for h in hands} == dealt.delivered
    assert driver.diagnostics().port.startswith("spy://")
    text = dump.read_text()
    assert " TX " in text and " RX " in text
    # The first hand's cards travelled in the clear through the spy: find their codes.
    codes = " ".join(f"{c.index:02X}" for c in hands[0].cards)
    received = [line[22:70] for line in text.splitlines() if " RX " in line]
    flat = re.sub(r"\s+", " ", " ".join(received))
    assert codes in flat, f"hand {format_cards(hands[0].cards)} not in the dump"


def test_the_bet_sensor_bus_from_its_config(tmp_path: Path) -> None:
    bus = BetSensorBusDouble([2, 6])
    with PtyServer(bus, link=tmp_path / "bus") as server:
        config = BetSensorsConfig(port=server.path, seats=(2, 6), offline_poll_interval=0.1)
        driver = BetSensorDriver.from_config(config, backoff=FAST)
        with driver:
            seen: set[int] = set()

            def both_online(event: object) -> bool:
                if isinstance(event, SensorNodeChanged) and event.online:
                    seen.add(event.seat)
                return seen == {2, 6}

            collect_until(driver, both_online)


SIM_KEYPAD = SimKeypad(session=0x77, retransmit_s=0.02)


def sim_backend() -> VirtualUsbBackend:
    """The ``module:factory`` a trainer's devices file names as the keypad backend."""
    return VirtualUsbBackend(SIM_KEYPAD)


def test_the_keypad_from_its_config_on_a_named_backend() -> None:
    config = parse_devices(
        {"keypad": {"backend": f"{__name__}:sim_backend", "poll_interval": 0.005}}
    )
    assert config.keypad is not None
    driver = KeypadDriver.from_config(config.keypad, backoff=FAST)
    with driver:
        driver.wait_for(DeviceConnected)
        SIM_KEYPAD.press(Button.START_GAME)
        pressed = driver.wait_for(ButtonPressed)
    assert pressed.button is Button.START_GAME and pressed.session == 0x77
    assert driver.diagnostics().port == "usb:1209:0001"
