"""The keypad driver end to end: real pyusb code over the virtual USB bus, against the
simulated keypad, with faults, unplugs and power cycles. Waits are on events, never sleeps
standing in for a result; every driver thread is stopped at teardown."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
import usb.core  # type: ignore[import-untyped]
import usb.util  # type: ignore[import-untyped]
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dealer_console.devices.events import (
    ConnectionState,
    DeviceConnected,
    DeviceDisconnected,
    DeviceEvent,
)
from dealer_console.devices.keypad import (
    BadRead,
    BadReadReason,
    Button,
    ButtonPressed,
    ButtonReleased,
    CardSwiped,
    KeypadEvent,
    LedMode,
    SetLeds,
)
from drivers.backoff import Backoff
from drivers.keypad import codec
from drivers.keypad.device import KeypadConfig, KeypadDriver
from drivers.keypad.transport import KeypadBackendError, backend_from_config
from drivers.sim.keypad import Fault, SimKeypad
from drivers.sim.usb_backend import VirtualUsbBackend

WAIT = 5.0


def fast_keypad(**kwargs: object) -> SimKeypad:
    return SimKeypad(session=0x1234, retransmit_s=0.02, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def keypad() -> SimKeypad:
    return fast_keypad()


@pytest.fixture
def driver(keypad: SimKeypad) -> Iterator[KeypadDriver]:
    drv = KeypadDriver(
        VirtualUsbBackend(keypad),
        poll_interval=0.005,
        backoff=Backoff(initial=0.005, maximum=0.05),
        resend_after=0.03,
        light_test_seconds=0.1,
    )
    drv.start()
    drv.wait_for(DeviceConnected, WAIT)
    yield drv
    drv.stop()
    assert drv.state is ConnectionState.STOPPED
    assert not [t for t in threading.enumerate() if t.name == "io-keypad"]


def keypad_events(drv: KeypadDriver, count: int) -> list[KeypadEvent]:
    """The next ``count`` keypad events (connection events are skipped)."""
    out: list[KeypadEvent] = []
    deadline = time.monotonic() + WAIT
    while len(out) < count:
        event = drv.get_event(max(deadline - time.monotonic(), 0.0))
        assert event is not None, f"only {len(out)} of {count} keypad events arrived: {out}"
        if isinstance(event, KeypadEvent):
            out.append(event)
    return out


def no_more_keypad_events(drv: KeypadDriver, keypad: SimKeypad) -> None:
    """Once the keypad holds nothing unacknowledged, nothing else may come out."""
    wait_until(lambda: keypad.waiting() == 0)
    drv.submit(lambda: None)  # one more turn of the I/O loop after the last ACK
    while (event := drv.get_event(0.1)) is not None:
        assert not isinstance(event, KeypadEvent), f"unexpected {event!r}"


def wait_until(condition: Callable[[], bool], what: str = "condition") -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"{what} not reached in {WAIT} s"
        time.sleep(0.002)


def signature(event: KeypadEvent) -> tuple[object, ...]:
    if isinstance(event, ButtonPressed | ButtonReleased):
        return (type(event).__name__, event.button)
    if isinstance(event, CardSwiped):
        return ("CardSwiped", event.track)
    assert isinstance(event, BadRead)
    return ("BadRead", event.reason)


# --- the real pyusb path -------------------------------------------------------------------


def test_pyusb_finds_the_keypad_and_reads_its_descriptors(keypad: SimKeypad) -> None:
    dev = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=VirtualUsbBackend(keypad))
    assert dev is not None
    intf = dev[0][(0, 0)]
    assert intf.bInterfaceClass == 0xFF
    kinds = sorted(
        (ep.bEndpointAddress, usb.util.endpoint_type(ep.bmAttributes)) for ep in intf
    )
    assert kinds == [(0x01, usb.util.ENDPOINT_TYPE_INTR), (0x81, usb.util.ENDPOINT_TYPE_INTR)]
    assert dev.serial_number == "SIMKP0001"
    assert dev.product == "Jackpot keypad with card reader"
    dev.set_configuration(1)
    dev.write(0x01, codec.hello_request_report().encode())
    (report,) = codec.decode_transfer(bytes(dev.read(0x81, 64, 100))).reports
    assert codec.parse_hello(report).session == 0x1234
    with pytest.raises(usb.core.USBTimeoutError):
        dev.read(0x81, 64, 5)
    keypad.unplug()
    with pytest.raises(usb.core.USBError) as info:
        dev.read(0x81, 64, 5)
    assert info.value.errno is not None
    assert usb.core.find(idVendor=0x1209, backend=VirtualUsbBackend(keypad)) is None
    usb.util.dispose_resources(dev)


def test_presses_arrive_in_order_with_numbers(driver: KeypadDriver, keypad: SimKeypad) -> None:
    script = [Button.START_GAME, Button.SEAT_4, Button.HAND_2, Button.CONFIRM, Button.END_GAME]
    for button in script:
        keypad.tap(button)
    events = keypad_events(driver, 2 * len(script))
    assert [signature(e) for e in events] == [
        (kind, b) for b in script for kind in ("ButtonPressed", "ButtonReleased")
    ]
    assert [e.number for e in events] == list(range(1, 11))
    assert {e.session for e in events} == {0x1234}
    assert len({e.key for e in events}) == 10
    no_more_keypad_events(driver, keypad)


def test_swipe_and_bad_swipe(driver: KeypadDriver, keypad: SimKeypad) -> None:
    keypad.swipe("6012345678901234=2512")
    keypad.bad_swipe(BadReadReason.PARITY)
    card, bad = keypad_events(driver, 2)
    assert isinstance(card, CardSwiped) and card.track == "6012345678901234=2512"
    assert "6012345678901234" not in repr(card) and "6012345678901234" not in str(card)
    assert card.masked.endswith("2512")
    assert isinstance(bad, BadRead) and bad.reason is BadReadReason.PARITY
    shown = " ".join(driver.diagnostics().last_rx)
    assert "36 30 31 32" not in shown  # "6012" of the track never in the hex dump


def test_leds_follow_the_console_and_survive_a_replug(
    driver: KeypadDriver, keypad: SimKeypad
) -> None:
    driver.set_leds(SetLeds.of({Button.CONFIRM: LedMode.BLINK_FAST, Button.SEAT_2: LedMode.ON}))
    wait_until(lambda: keypad.led(Button.CONFIRM) is LedMode.BLINK_FAST, "CONFIRM blinking")
    assert keypad.led(Button.SEAT_2) is LedMode.ON
    assert keypad.led(Button.START_GAME) is LedMode.OFF
    keypad.power_cycle()  # lights go dark with the power
    assert keypad.led(Button.CONFIRM) is LedMode.OFF
    driver.wait_for(DeviceConnected, WAIT)
    wait_until(lambda: keypad.led(Button.CONFIRM) is LedMode.BLINK_FAST, "lights restored")
    driver.set_leds(SetLeds())
    wait_until(lambda: keypad.led(Button.SEAT_2) is LedMode.OFF, "all off")


def test_lost_led_command_is_sent_again(driver: KeypadDriver, keypad: SimKeypad) -> None:
    keypad.inject(Fault.LOSE_LEDS, 2)
    driver.set_leds(SetLeds.of({Button.CANCEL: LedMode.ON}))
    wait_until(lambda: keypad.led(Button.CANCEL) is LedMode.ON)
    assert driver.diagnostics().frames_retransmitted >= 2


def test_unplug_in_the_middle_loses_and_repeats_nothing(
    driver: KeypadDriver, keypad: SimKeypad
) -> None:
    keypad.tap(Button.START_GAME)
    assert [signature(e)[1] for e in keypad_events(driver, 2)] == [Button.START_GAME] * 2
    keypad.inject(Fault.LOSE_ACK, 10)  # the console gets these, the keypad never hears so
    keypad.press(Button.SEAT_5)
    keypad.press(Button.HAND_1)
    first = keypad_events(driver, 2)
    assert keypad.waiting() == 2
    keypad.unplug()
    down = driver.wait_for(DeviceDisconnected, WAIT)
    assert "unplugged" in down.reason
    assert driver.state is ConnectionState.DISCONNECTED
    keypad.release(Button.HAND_1)  # pressed while the cable was out
    keypad.replug()
    driver.wait_for(DeviceConnected, WAIT)
    (after,) = keypad_events(driver, 1)
    assert [signature(e) for e in [*first, after]] == [
        ("ButtonPressed", Button.SEAT_5),
        ("ButtonPressed", Button.HAND_1),
        ("ButtonReleased", Button.HAND_1),
    ]
    assert [e.number for e in [*first, after]] == [3, 4, 5]
    no_more_keypad_events(driver, keypad)
    snap = driver.diagnostics()
    assert snap.connects == 2 and snap.disconnects == 1


def test_power_cycle_starts_a_new_session(driver: KeypadDriver, keypad: SimKeypad) -> None:
    keypad.tap(Button.MONEY_BAG)
    old = keypad_events(driver, 2)
    keypad.power_cycle()
    driver.wait_for(DeviceConnected, WAIT)
    keypad.press(Button.CANCEL)
    (new,) = keypad_events(driver, 1)
    assert new.number == 1 and new.session != old[0].session
    assert new.key not in {e.key for e in old}


@pytest.mark.parametrize("fault", list(Fault))
def test_each_fault_is_survived(driver: KeypadDriver, keypad: SimKeypad, fault: Fault) -> None:
    keypad.inject(fault, 2)
    buttons = [Button.SEAT_1, Button.SEAT_2, Button.SEAT_3, Button.SEAT_4]
    for b in buttons:
        keypad.press(b)
    events = keypad_events(driver, len(buttons))
    assert [signature(e)[1] for e in events] == buttons
    no_more_keypad_events(driver, keypad)


def test_garbage_transfers_are_counted_and_skipped(
    driver: KeypadDriver, keypad: SimKeypad
) -> None:
    keypad.garbage(bytes(range(0xF0, 0x100)))
    keypad.press(Button.START_GAME)
    (event,) = keypad_events(driver, 1)
    assert isinstance(event, ButtonPressed)
    wait_until(lambda: driver.diagnostics().frames_bad >= 1, "garbage counted")


def test_keypad_absent_at_start_is_reported_then_found() -> None:
    keypad = fast_keypad()
    keypad.unplug()
    drv = KeypadDriver(
        VirtualUsbBackend(keypad), poll_interval=0.005, backoff=Backoff(0.005, maximum=0.02)
    )
    drv.start()
    try:
        assert "not on the bus" in drv.wait_for(DeviceDisconnected, WAIT).reason
        keypad.press(Button.START_GAME)
        keypad.replug()
        drv.wait_for(DeviceConnected, WAIT)
        (event,) = keypad_events(drv, 1)
        assert isinstance(event, ButtonPressed) and event.number == 1
    finally:
        drv.stop()


def test_test_actions(driver: KeypadDriver, keypad: SimKeypad) -> None:
    # Named like the other devices' tests ("light test", "deck count"); the first names stay.
    assert driver.test_actions() == ("light test", "keypad echo", "read card")
    with pytest.raises(ValueError, match="no test action 'dance'"):
        driver.run_test_action("dance")
    driver.run_test_action("light test")
    wait_until(lambda: all(keypad.led(b) is LedMode.ON for b in Button), "all lights on")
    wait_until(lambda: keypad.led(Button.START_GAME) is LedMode.OFF, "light test over")
    driver.run_test_action("keypad_echo")  # the old name still works
    wait_until(lambda: driver.diagnostics().extra.get("keypad echo") == "on")
    keypad.press(Button.HAND_3)
    keypad_events(driver, 1)
    wait_until(lambda: keypad.led(Button.HAND_3) is LedMode.ON, "echo lights the button")
    keypad.release(Button.HAND_3)
    keypad_events(driver, 1)
    wait_until(lambda: keypad.led(Button.HAND_3) is LedMode.OFF, "echo dark on release")
    driver.run_test_action("read card")
    wait_until(lambda: driver.diagnostics().extra.get("read card") == "waiting for a swipe")
    keypad.swipe("99887766")
    keypad_events(driver, 1)
    wait_until(lambda: "read" in driver.diagnostics().extra.get("read card", ""), "card shown")
    assert driver.diagnostics().extra["read card"] == "read ****7766"


def test_scripted_keypad(driver: KeypadDriver, keypad: SimKeypad) -> None:
    keypad.play(
        """
        # a jackpot hit on seat 3, confirmed by a supervisor's swipe
        tap SEAT_3
        tap HAND_4
        fault corrupt
        tap CONFIRM
        bad-swipe LRC
        swipe 4000123412341234
        tap MONEY_BAG
        """
    )
    events = keypad_events(driver, 10)
    assert [signature(e) for e in events if not isinstance(e, ButtonReleased)] == [
        ("ButtonPressed", Button.SEAT_3),
        ("ButtonPressed", Button.HAND_4),
        ("ButtonPressed", Button.CONFIRM),
        ("BadRead", BadReadReason.LRC),
        ("CardSwiped", "4000123412341234"),
        ("ButtonPressed", Button.MONEY_BAG),
    ]
    with pytest.raises(ValueError, match=r"line 1 .*'tap SEAT_9'"):
        keypad.play("tap SEAT_9")


def test_a_two_game_keypad_s_game_key_reaches_the_console(driver: KeypadDriver,
                                                          keypad: SimKeypad) -> None:
    """The game key travels as a BUTTON event through the real driver, in order with the seat
    and hand buttons it applies to (docs/protocols/keypad.md, "Two jackpot games")."""
    keypad.play("tap GAME_2\ntap SEAT_1\ntap HAND_3")
    events = keypad_events(driver, 6)
    pressed = [e.button for e in events if isinstance(e, ButtonPressed)]
    assert pressed == [Button.GAME_2, Button.SEAT_1, Button.HAND_3]
    assert pressed[0].game == 2


# --- fuzz: random faults and random garbage between random events --------------------------

steps = st.lists(
    st.one_of(
        st.tuples(st.just("press"), st.sampled_from(Button)),
        st.tuples(st.just("swipe"), st.text("0123456789", min_size=1, max_size=37)),
        st.tuples(st.just("bad"), st.sampled_from(BadReadReason)),
        st.tuples(st.just("fault"), st.sampled_from(Fault)),
        st.tuples(st.just("garbage"), st.binary(min_size=1, max_size=64)),
    ),
    min_size=1,
    max_size=12,
)


def test_fuzz_no_event_lost_or_doubled(driver: KeypadDriver, keypad: SimKeypad) -> None:
    @settings(
        max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(steps)
    def run(script: list[tuple[str, object]]) -> None:
        expected: list[tuple[object, ...]] = []
        for kind, arg in script:
            if kind == "garbage":
                assert isinstance(arg, bytes)
                assume(not codec.decode_transfer(arg).reports)  # a valid report is no garbage
        for kind, arg in script:
            if kind == "press":
                assert isinstance(arg, Button)
                keypad.press(arg)
                expected.append(("ButtonPressed", arg))
            elif kind == "swipe":
                assert isinstance(arg, str)
                keypad.swipe(arg)
                expected.append(("CardSwiped", arg))
            elif kind == "bad":
                assert isinstance(arg, BadReadReason)
                keypad.bad_swipe(arg)
                expected.append(("BadRead", arg))
            elif kind == "fault":
                assert isinstance(arg, Fault)
                keypad.inject(arg)
            else:
                assert isinstance(arg, bytes)
                keypad.garbage(arg)
        got = keypad_events(driver, len(expected))
        assert [signature(e) for e in got] == expected
        numbers = [e.number for e in got]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))) if numbers else True
        no_more_keypad_events(driver, keypad)
        keypad.clear_faults()  # faults this example left unused must not leak into the next

    run()
    assert driver.state is ConnectionState.CONNECTED


def test_config_is_checked_and_names_the_setting() -> None:
    with pytest.raises(ValueError, match="vendor_id 0x10000"):
        KeypadConfig(vendor_id=0x10000)
    with pytest.raises(KeypadBackendError, match="neither"):
        backend_from_config("nonsense")
    with pytest.raises(KeypadBackendError, match="no_such_module"):
        backend_from_config("no_such_module:make")
    made = backend_from_config("drivers.sim.usb_backend:VirtualUsbBackend")
    assert isinstance(made, VirtualUsbBackend)


def test_events_carry_the_shared_shape(driver: KeypadDriver, keypad: SimKeypad) -> None:
    keypad.press(Button.END_GAME)
    (event,) = keypad_events(driver, 1)
    assert isinstance(event, DeviceEvent)
    assert event.device == "keypad" and event.seq > 1
    assert event.key == ("keypad", "keypad", 0x1234, 1)
