"""The bet-sensor driver's bookkeeping, answers fed one by one to its own I/O-thread steps, in
an order or a form the bus double over a pseudo-terminal cannot be made to produce on demand:
a node away at START GAME that returns and latches the lock before the last of the others has
answered it; a node that says it has no spot."""

from __future__ import annotations

from dealer_console.devices.bet_sensors import BetsLocked, LateBet, Spot
from dealer_console.devices.events import DeviceEvent
from drivers.bet_sensors import framer as f
from drivers.bet_sensors.device import BetSensorDriver, _Transaction

LIGHTS = ((f.LightMode.OFF, f.LightColour.WHITE),) * 2


def state(lock_id: int, present: int = 0, wagered: int = 0) -> f.State:
    return f.State(2, present, lock_id, wagered, 0, 0, LIGHTS)


def drain(driver: BetSensorDriver) -> list[DeviceEvent]:
    events = []
    while (event := driver.get_event(0)) is not None:
        events.append(event)
    return events


def test_a_node_back_before_bets_locked_has_its_chip_said_late_at_once() -> None:
    driver = BetSensorDriver(lambda: None, seats=[1, 2, 3])  # its thread never started
    nodes = driver._nodes
    for seat in (1, 2, 3):
        driver._answered(nodes[seat], f.Identify(), f.Identity(2, "1.0", f"S{seat}"), 0.0)
        driver._answered(nodes[seat], f.Poll(), state(0), 0.0)
    driver._node_failed(nodes[2], 0.0)  # seat 2's node is away at START GAME
    driver._start_lock(500)
    drain(driver)
    # it comes back (a chip on spot 1 meanwhile) and latches the lock at once ...
    driver._answered(nodes[2], f.Identify(), f.Identity(2, "1.0", "S2"), 0.1)
    driver._answered(nodes[2], f.Poll(), state(0, present=1), 0.1)
    driver._answered(nodes[2], f.Lock(500), state(500, present=1, wagered=1), 0.1)
    # ... before the last of the others answers the lock
    driver._answered(nodes[1], f.Lock(500), state(500, present=1, wagered=1), 0.2)
    driver._answered(nodes[3], f.Lock(500), state(500), 0.2)
    said = [(type(e).__name__, getattr(e, "spot", None), getattr(e, "wagered", None))
            for e in drain(driver) if isinstance(e, BetsLocked | LateBet)]
    assert said == [("BetsLocked", None, frozenset({Spot(1, 1)})),
                    ("LateBet", Spot(2, 1), None)]
    # its next answers say nothing again, and END GAME clears it (before, the chip went
    # unsaid when END GAME came before the node's next poll)
    driver._answered(nodes[2], f.Poll(), state(500, present=1, wagered=1), 0.3)
    driver._start_unlock()
    driver._answered(nodes[2], f.Unlock(500), state(0, present=1), 0.4)
    assert not [e for e in drain(driver) if isinstance(e, LateBet)]


def test_a_node_in_the_lock_has_its_chips_as_wagers_never_late() -> None:
    driver = BetSensorDriver(lambda: None, seats=[1, 2])
    nodes = driver._nodes
    for seat in (1, 2):
        driver._answered(nodes[seat], f.Identify(), f.Identity(2, "1.0", f"S{seat}"), 0.0)
    driver._start_lock(7)
    driver._answered(nodes[2], f.Lock(7), state(7, present=3, wagered=3), 0.1)
    driver._answered(nodes[1], f.Lock(7), state(7), 0.1)
    events = drain(driver)
    assert [e.wagered for e in events if isinstance(e, BetsLocked)] == [
        frozenset({Spot(2, 1), Spot(2, 2)})]
    assert not [e for e in events if isinstance(e, LateBet)]


def test_a_node_saying_it_has_no_spot_is_a_bad_answer_not_a_node_without_lights() -> None:
    """IDENTITY with 0 spots fitted (or more than a seat has) is refused as STATE's is: before,
    the node came online with no spot, and its lights were never asked for."""
    for spots in (0, 3):
        (item,) = f.BetSensorFramer().feed(
            f.BusFrame(3, True, 9, f.Identity(spots, "BS-1.2", "N0003")).wire())
        assert item.frame is None
        assert item.error == f"IDENTITY: {spots} spots fitted, 1-2 possible"
    driver = BetSensorDriver(lambda: None, seats=[3])
    driver._txn = _Transaction(3, 9, f.Identify(), 0.0)
    driver._on_data(f.BusFrame(3, True, 9, f.Identity(0, "BS-1.2", "N0003")).wire())
    node = driver._nodes[3]
    assert not node.identified and node.online is not True
    assert driver.diag.snapshot().last_error == "IDENTITY: 0 spots fitted, 1-2 possible"
    driver._txn = _Transaction(3, 10, f.Identify(), 0.0)  # a node that says 1 spot is taken
    driver._on_data(f.BusFrame(3, True, 10, f.Identity(1, "BS-1.2", "N0003")).wire())
    assert node.identified and node.online is True and node.spots == 1
