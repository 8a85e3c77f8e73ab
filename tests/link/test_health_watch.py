"""``LinkHealth.watch``: the controller is told when the link turns (up, down, or down for
another reason), not on every pass of the sender, so the dealer's screen redraws only then."""

from __future__ import annotations

from dealer_console.controller.link_device import link_device
from dealer_console.link.health import LinkHealth
from dealer_console.link.hook import LinkHook


def test_the_watcher_hears_each_turn_and_nothing_else() -> None:
    health = LinkHealth()
    turns: list[bool] = []
    health.watch(lambda: turns.append(health.view().up))
    health.up(0)
    health.up(3)  # another pass, still up: no redraw
    health.down("the link server cannot be reached: refused", 3)
    health.down("the link server cannot be reached: refused", 4)
    health.down("the link server cannot be reached: timeout", 4)  # a new reason: redraw
    health.up(0)
    assert turns == [True, False, False, True]


def test_the_device_line_says_down_in_plain_words_and_keeps_the_details() -> None:
    health = LinkHealth()
    hook = LinkHook({1: "pit-1", 2: "pit-1"}, "t1", health)
    health.down("the link server cannot be reached: connection refused on port 5432", 7)
    (down,) = link_device(hook)
    assert (down.title, down.connected) == ("Jackpot link pit-1", False)
    assert down.fault == "down: the link server cannot be reached"
    assert "connection refused on port 5432" in down.detail and "7 wagers" in down.detail
    health.up(2)
    (up,) = link_device(hook)
    assert up.connected and up.fault is None and "2 wagers to send" in up.state
    assert link_device(None) == ()


def test_a_warning_reaches_the_watcher_and_the_device_line_while_up() -> None:
    health = LinkHealth()
    hook = LinkHook({1: "pit-1"}, "t1", health)
    turns: list[str] = []
    health.watch(lambda: turns.append(health.view().warning))
    health.up(0)
    health.warn("the link server has gone back in time: table t1 recorded its hit number 9")
    health.up(0)  # the warning stays through later passes
    (line,) = link_device(hook)
    assert line.connected and "gone back in time" in line.state
    assert turns == ["", "the link server has gone back in time: table t1 recorded its hit "
                     "number 9"]
